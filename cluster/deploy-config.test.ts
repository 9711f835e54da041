import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findNginx } from "../server/testing/nginx";

/**
 * The deployment files: the image's health check and compose's start order follow readiness
 * (GET /api/ready), and both load balancer configurations pass the real nginx of this machine
 * (Debian 12's 1.22): deploy/nginx.conf runs there; deploy/nginx-resolve.conf needs 1.27.3 or
 * later (`server ... resolve`), which compose.yaml's nginx image has.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
/** The first nginx that re-resolves upstream names itself (`server ... resolve`). */
const RESOLVE_SINCE = [1, 27, 3];

const nginx = findNginx();
if (!nginx) {
  console.warn("SKIPPED deploy configs under nginx: no nginx binary (/usr/sbin/nginx, NGINX_BIN or PATH).");
}

/** nginx's version as [major, minor, patch], from `nginx -v` (which prints to stderr). */
function versionOf(binary: string): number[] {
  const { stdout, stderr } = spawnSync(binary, ["-v"], { encoding: "utf8" });
  const match = /nginx\/(\d+)\.(\d+)\.(\d+)/.exec(`${stdout}${stderr}`);
  if (!match) throw new Error(`no version in: ${stdout}${stderr}`);
  return match.slice(1).map(Number);
}

/** Whether version `a` is at least `b` (both [major, minor, patch]). */
function atLeast(a: number[], b: number[]): boolean {
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

/**
 * A deploy config made runnable in `dir`: every temp path and the access log under `dir`, and
 * `rewrite` applied (e.g. the compose host name `app` replaced by one this machine resolves).
 * @returns the file written.
 */
function localCopy(file: string, dir: string, rewrite: (text: string) => string): string {
  const paths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"];
  for (const sub of paths) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const local = [
    `access_log ${dir}/access.log;`,
    ...paths.map((sub) => `${sub}_temp_path ${dir}/${sub};`),
  ].join(" ");
  const text = rewrite(read(file)).replace(/^http \{$/m, `http {\n  ${local}`);
  const copy = path.join(dir, "nginx.conf");
  fs.writeFileSync(copy, text);
  return copy;
}

/** The main-context settings that keep nginx's pid and error log in `dir` (no root paths). */
const mainSettings = (dir: string, extra = "") => `pid ${dir}/nginx.pid; error_log ${dir}/error.log;${extra}`;

/** `nginx -t` of `file` rewritten by `rewrite`. @returns the exit code and what nginx printed. */
function testConfig(binary: string, file: string, rewrite: (text: string) => string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-t-"));
  try {
    const config = localCopy(file, dir, rewrite);
    const result = spawnSync(
      binary,
      ["-t", "-p", `${dir}/`, "-e", `${dir}/error.log`, "-c", config, "-g", mainSettings(dir)],
      { encoding: "utf8" },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The compose host `app` replaced by an address of this machine (in `server app:3000` only). */
const onThisMachine = (host: string) => (text: string) => text.replace(/\bserver app:/g, `server ${host}:`);

/** A compose service's block of compose.yaml (its indented lines), by name. */
function composeService(name: string): string {
  const match = new RegExp(`^  ${name}:\\n((?:(?:    .*)?\\n)+)`, "m").exec(read("compose.yaml"));
  if (!match) throw new Error(`compose.yaml has no service ${name}`);
  return match[1]!;
}

describe("deployment files route on readiness", () => {
  it("the image's health check asks /api/ready with node (the slim image has no curl)", () => {
    const healthcheck = /^HEALTHCHECK\b(?:.*\\\n)*.*/m.exec(read("Dockerfile"))?.[0] ?? "";
    expect(healthcheck).toContain("/api/ready");
    expect(healthcheck).not.toContain("/api/health");
    expect(healthcheck).toMatch(/CMD node -e /);
    expect(healthcheck).not.toContain("curl");
  });

  it("compose starts nginx once the app is healthy, on an image that has `resolve`", () => {
    const proxy = composeService("nginx");
    expect(proxy).toMatch(
      /depends_on:\s*\n\s+app:\s*(?:\{\s*condition:\s*service_healthy\s*\}|\n\s+condition:\s*service_healthy)/,
    );
    expect(proxy).toMatch(/- \.\/deploy\/nginx-resolve\.conf:\/etc\/nginx\/nginx\.conf:ro/);
    const image = /image:\s*nginx:(\d+)\.(\d+)(?:\.(\d+))?/.exec(proxy);
    expect(image, "compose's nginx image names its version").toBeTruthy();
    const version = [Number(image![1]), Number(image![2]), Number(image![3] ?? 99)];
    expect(atLeast(version, RESOLVE_SINCE), `nginx:${version.join(".")} has no resolve`).toBe(true);
    // The worker serves no HTTP: the image's readiness check stays off there.
    expect(composeService("worker")).toMatch(/healthcheck:\s*\n\s+disable: true/);
  });

  it("both nginx configs are the same apart from re-resolving the name", () => {
    const body = (text: string) =>
      text
        .split("\n")
        .filter((line) => !/^\s*#/.test(line) && !/^\s*resolver /.test(line) && line.trim() !== "")
        .join("\n")
        .replace(/ resolve\b/g, "");
    expect(body(read("deploy/nginx-resolve.conf"))).toBe(body(read("deploy/nginx.conf")));
    for (const file of ["deploy/nginx.conf", "deploy/nginx-resolve.conf"]) {
      const text = read(file);
      expect(text).toMatch(/server app:3000\b[^;]* max_fails=\d+ fail_timeout=\d+s;/);
      expect(text).toMatch(/^\s*proxy_next_upstream error timeout http_502 http_503 http_504;$/m);
      expect(text).toMatch(/^\s*proxy_next_upstream_tries 2;$/m);
      expect(text).not.toMatch(/^[^#]*non_idempotent/m);
    }
  });
});

describe.skipIf(!nginx)("deploy configs under this machine's nginx", () => {
  const binary = nginx!;
  const version = nginx ? versionOf(binary) : [];

  it("deploy/nginx.conf passes nginx -t (nginx 1.22+, names resolved at start)", () => {
    const result = testConfig(binary, "deploy/nginx.conf", onThisMachine("127.0.0.1"));
    expect(result.output).toContain("test is successful");
    expect(result.status, result.output).toBe(0);
  });

  it("deploy/nginx-resolve.conf needs nginx 1.27.3+: older ones refuse `resolve` and nothing else", () => {
    const result = testConfig(binary, "deploy/nginx-resolve.conf", onThisMachine("localhost"));
    if (atLeast(version, RESOLVE_SINCE)) {
      expect(result.status, result.output).toBe(0);
      return;
    }
    expect(result.status).not.toBe(0);
    const errors = result.output.split("\n").filter((line) => line.includes("[emerg]"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/invalid parameter "resolve" in .*nginx\.conf:\d+$/);
    // Without the parameter this nginx takes the file: `resolve` is the only newer part.
    const withoutResolve = testConfig(binary, "deploy/nginx-resolve.conf", (text) =>
      onThisMachine("localhost")(text).replace(/ resolve\b/g, ""),
    );
    expect(withoutResolve.status, withoutResolve.output).toBe(0);
  });

  describe("failover of deploy/nginx.conf", () => {
    let dir: string;
    let proxy: ChildProcess | undefined;
    let proxyPort: number;
    const servers: http.Server[] = [];
    /** Requests each instance got, as "METHOD /path". */
    const seen: Record<"ready" | "notReady", string[]> = { ready: [], notReady: [] };

    /** An instance answering every request with `status`. @returns its port. */
    async function instance(name: keyof typeof seen, status: number): Promise<number> {
      const server = http.createServer((request, response) => {
        request.resume();
        request.on("end", () => {
          seen[name].push(`${request.method} ${request.url}`);
          response.writeHead(status, { "content-type": "text/plain" }).end(name);
        });
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return (server.address() as net.AddressInfo).port;
    }

    beforeAll(async () => {
      const ready = await instance("ready", 200);
      const notReady = await instance("notReady", 503);
      proxyPort = await new Promise<number>((resolve) => {
        const probe = net.createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as net.AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-failover-"));
      // The not-ready instance first: round robin sends it the first request.
      const config = localCopy("deploy/nginx.conf", dir, (text) =>
        text
          .replace(
            /^(\s*)server app:3000(.*);$/m,
            `$1server 127.0.0.1:${notReady}$2;\n$1server 127.0.0.1:${ready}$2;`,
          )
          .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${proxyPort};`)
          .replace(/^worker_processes auto;$/m, "worker_processes 1;"),
      );
      proxy = spawn(
        binary,
        ["-p", `${dir}/`, "-e", `${dir}/error.log`, "-c", config, "-g", mainSettings(dir, " daemon off;")],
        { stdio: "ignore" },
      );
      const deadline = Date.now() + 10_000;
      for (;;) {
        const listening = await new Promise<boolean>((resolve) => {
          const socket = net.connect(proxyPort, "127.0.0.1");
          socket.once("connect", () => {
            socket.destroy();
            resolve(true);
          });
          socket.once("error", () => resolve(false));
        });
        if (listening) break;
        const log = fs.existsSync(`${dir}/error.log`) ? fs.readFileSync(`${dir}/error.log`, "utf8") : "";
        if (proxy.exitCode !== null || Date.now() > deadline) throw new Error(`nginx did not start: ${log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    afterAll(async () => {
      if (proxy && proxy.exitCode === null) {
        proxy.kill("SIGTERM");
        await new Promise((resolve) => proxy!.once("exit", resolve));
      }
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const send = async (method: "GET" | "POST", url: string) => {
      const response = await fetch(`http://127.0.0.1:${proxyPort}${url}`, {
        method,
        ...(method === "POST" ? { body: "message=hello", headers: { "content-type": "text/plain" } } : {}),
      });
      return { status: response.status, body: await response.text() };
    };

    it("never sends a POST to a second instance, and moves a GET off a 503 instance", async () => {
      // Two POSTs: one reaches each instance; the not-ready one's 503 goes to the client as is.
      const posts = [await send("POST", "/post-1"), await send("POST", "/post-2")];
      expect(posts.map((p) => p.status).sort()).toEqual([200, 503]);
      const postsSeen = [...seen.ready, ...seen.notReady].filter((line) => line.startsWith("POST"));
      expect(postsSeen.sort()).toEqual(["POST /post-1", "POST /post-2"]);

      // GETs are retried on the other instance: the client never sees the 503.
      for (let i = 0; i < 6; i++)
        expect(await send("GET", `/get-${i}`)).toEqual({ status: 200, body: "ready" });
      expect(seen.ready.filter((line) => line.startsWith("GET"))).toHaveLength(6);
      // Round robin alone would send it 3 of the 6; after max_fails (2) failed attempts the
      // not-ready instance is left out for fail_timeout.
      expect(seen.notReady.filter((line) => line.startsWith("GET")).length).toBeLessThanOrEqual(2);
    });
  });
});
