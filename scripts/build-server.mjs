import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/**
 * Compiles the API server to plain JavaScript in `dist/server/` (production runs
 * compiled JS; `npm start` loads no TypeScript compiler and builds nothing). One ES module per
 * entry point (the server, the job worker of `npm run worker`, and the users, make-admin,
 * backup and restore commands), our code bundled, every npm package left as an import (native modules such as
 * better-sqlite3 and node-llama-cpp load as installed).
 * Files the server opens next to its own code at run time are copied beside the bundle.
 */
const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "dist/server");

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    main: "server/main.ts",
    worker: "server/worker.ts",
    "make-admin": "server/cli/make-admin.ts",
    users: "server/cli/users.ts",
    backup: "server/cli/backup.ts",
    restore: "server/cli/restore.ts",
  },
  outdir,
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
// Opened at run time relative to the module: the eSpeak worker and the ComfyUI default workflow.
copyFileSync(
  path.join(root, "server/providers/tts/espeak.worker.mjs"),
  path.join(outdir, "espeak.worker.mjs"),
);
copyFileSync(
  path.join(root, "server/providers/image/comfyui-default-workflow.json"),
  path.join(outdir, "comfyui-default-workflow.json"),
);
console.log(`server compiled to ${path.relative(root, outdir)}/`);
