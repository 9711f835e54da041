// Finding and starting a real nginx for tests: its configuration in front of the test cluster's instances, and waiting until it answers.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * A real nginx in front of local test servers (the cluster test and benchmark): one
 * process (`daemon off`, `master_process off`) with every path (pid, logs, temp folders) in a
 * temporary folder, so it needs no root paths, proxying like deploy/nginx.conf (no buffering,
 * long reads: streamed replies pass at once) and choosing the upstream by a request header.
 */

/** Debian's nginx (or NGINX_BIN, or `nginx` on PATH); undefined when there is none. */
export function findNginx(): string | undefined {
  const candidates = [process.env.NGINX_BIN, "/usr/sbin/nginx"];
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir) candidates.push(path.join(dir, "nginx"));
  return candidates.find((file): file is string => Boolean(file) && fs.existsSync(file!));
}

export interface ProxySettings {
  /** The temporary folder for the configuration, pid, logs and temp files. */
  dir: string;
  /** Port on 127.0.0.1 nginx listens on. */
  port: number;
  /** Upstream groups by name, each a list of ports on 127.0.0.1 (round robin within a group). */
  upstreams: Record<string, number[]>;
  /** The request header naming the group (lower case, e.g. "x-instance"). */
  routeHeader: string;
  /** The group of requests without the header or with an unknown name. */
  defaultUpstream: string;
  /** Response header nginx adds with the upstream address(es) that served the request. */
  upstreamHeader: string;
  workerConnections: number;
}

/** The configuration file's text for `settings`. */
export function nginxConfig(settings: ProxySettings): string {
  const { dir, upstreams } = settings;
  const names = Object.keys(upstreams);
  const groups = names
    .map(
      (name) =>
        `  upstream ${name} {\n${upstreams[name]!.map((port) => `    server 127.0.0.1:${port};\n`).join("")}    keepalive 64;\n  }\n`,
    )
    .join("");
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
worker_rlimit_nofile ${settings.workerConnections * 2 + 100};
events { worker_connections ${settings.workerConnections}; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  map $http_${settings.routeHeader.replaceAll("-", "_")} $pool {
    default ${settings.defaultUpstream};
${names.map((name) => `    ${name} ${name};\n`).join("")}  }
${groups}
  server {
    listen 127.0.0.1:${settings.port};
    client_max_body_size 12m;
    location = /__nginx { return 204; }
    location = /metrics { return 404; }
    location / {
      proxy_pass http://$pool;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      add_header ${settings.upstreamHeader} $upstream_addr always;
    }
  }
}
`;
}

/**
 * Writes the configuration into `settings.dir` and starts nginx; resolves when it answers.
 * @throws Error with nginx's complaints when it is missing or does not answer within 10 s.
 */
export async function startNginx(settings: ProxySettings): Promise<ChildProcess> {
  const binary = findNginx();
  if (!binary) throw new Error("nginx is not installed");
  const { dir, port } = settings;
  for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const config = path.join(dir, "nginx.conf");
  fs.writeFileSync(config, nginxConfig(settings));
  const errorLog = path.join(dir, "error.log");
  const child = spawn(binary, ["-p", dir, "-c", config, "-e", errorLog], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errors += chunk.toString("utf8");
  });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/__nginx`)).status === 204) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGKILL");
  const log = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, "utf8") : "";
  throw new Error(`nginx did not start: ${errors}${log}`);
}
