// Adds lockfile entries for other platforms' optional native packages that this machine's npm
// registry does not serve (e.g. @biomejs/cli-win32-x64). npm leaves them out of the lockfile it
// writes here, and `npm ci` then refuses the lockfile as out of sync. Each added entry carries
// os/cpu (and libc) taken from the package name, so npm skips it on other platforms without
// fetching it. Run after changing dependencies: `npm install && node scripts/lock-platforms.mjs`.
import fs from "node:fs";

const OS = {
  win32: "win32",
  win: "win32",
  darwin: "darwin",
  mac: "darwin",
  linux: "linux",
  android: "android",
  freebsd: "freebsd",
};
const CPU = { x64: "x64", arm64: "arm64", riscv64: "riscv64", armv7l: "arm", arm: "arm", ia32: "ia32" };

const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const path = `node_modules/${name}`;
    if (lock.packages[path] || lock.packages[`${key}/${path}`]) continue;
    const parts = name.split("/").pop().split("-");
    const os = parts.map((p) => OS[p]).find(Boolean);
    const cpu =
      parts.map((p) => CPU[p]).find(Boolean) ??
      (os === "darwin" && parts.includes("metal") ? "arm64" : undefined);
    if (!os || !cpu) {
      console.warn(`lock-platforms: cannot tell the platform of ${name}; left out`);
      continue;
    }
    const fill = { version, optional: true, os: [os], cpu: [cpu] };
    if (parts.includes("musl")) fill.libc = ["musl"];
    lock.packages[path] = fill;
    added += 1;
  }
}
fs.writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: added ${added} platform entries`);
