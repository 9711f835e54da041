// The web server's entry point (`npm start`): reads the configuration, builds the app, listens, and shuts down gracefully on SIGTERM or SIGINT.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type App, buildApp } from "./app";
import { type AppConfig, loadConfig } from "./env";
import { onStopSignals } from "./modules/system/stop-signals";
import { reachableOrigins, startupLines } from "./startup-lines";

/** How often idle keep-alive connections are closed while draining, milliseconds. */
const DRAIN_POLL_MS = 200;

/** Entry point: `npm start`. Reads the environment, builds the server, listens. */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(String(error instanceof Error ? error.message : error));
    process.exit(1);
  }
  let server: App;
  try {
    server = await buildApp(config);
  } catch (error) {
    // One line an operator can act on (a failed migration names its backup and the restore command).
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const address = await server.app.listen({ port: config.PORT, host: config.HOST });
  stopOnSignals(server, { graceMs: config.SHUTDOWN_GRACE_MS, log: (line) => console.log(line) });
  console.log(`Companion is running at ${address.replace("0.0.0.0", "localhost")}`);
  const { port } = server.app.server.address() as AddressInfo;
  const origins = reachableOrigins({
    publicUrl: config.PUBLIC_URL ? config.publicUrl : "",
    host: config.HOST,
    port,
  });
  const lines = startupLines(origins, {
    setupPath: server.setupPath,
    demoOpen: await server.siteSettings.demoOpen(),
    demoPath: `/login/${config.DEMO_LOGIN_ID}`,
  });
  for (const line of lines) console.log(line);
}

/**
 * Graceful shutdown on SIGTERM or SIGINT: readiness answers 503 first, the listener
 * closes (new connections are refused), running requests and open reply streams get `graceMs`
 * to finish (idle keep-alive connections are closed as they fall idle), then the connections
 * left are cut and the app is closed (jobs, image worker, database), and the process exits 0.
 * A second signal exits at once with status 1. One line is logged at each step.
 */
function stopOnSignals(server: App, options: { graceMs: number; log: (line: string) => void }): void {
  const { graceMs, log } = options;
  onStopSignals(log, async (signal) => {
    server.app.lifecycle.beginShutdown();
    log(`${signal}: shutting down; /api/ready answers 503.`);
    log(`No new connections; running requests and reply streams have ${graceMs} ms to finish.`);
    const finished = await drain(server.app.server, graceMs);
    log(finished ? "Running requests finished." : "Grace period over: open connections closed.");
    await server.close();
  });
}

/**
 * Closes the listener and waits for every connection to end, closing keep-alive connections as
 * soon as they are idle; after `graceMs` cuts the ones left.
 * @returns true when all ended within the grace period.
 */
function drain(http: Server, graceMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const idle = setInterval(() => http.closeIdleConnections(), DRAIN_POLL_MS);
    const deadline = setTimeout(() => {
      clearInterval(idle);
      http.closeAllConnections();
      resolve(false);
    }, graceMs);
    http.close(() => {
      clearInterval(idle);
      clearTimeout(deadline);
      resolve(true);
    });
  });
}

void main();
