// Stopping on SIGTERM or SIGINT once for `npm start` and `npm run worker`; a second signal exits at once.
/**
 * Runs `shutdown` once on the first SIGTERM or SIGINT, logs "Stopped: jobs, workers and database
 * closed." and exits 0; a second signal while it runs exits at once with status 1 (one
 * rule for `npm start` and `npm run worker`).
 */
export function onStopSignals(
  log: (line: string) => void,
  shutdown: (signal: NodeJS.Signals) => Promise<void>,
): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    await shutdown(signal);
    log("Stopped: jobs, workers and database closed.");
    process.exit(0);
  };
  process.on("SIGINT", (signal) => void stop(signal));
  process.on("SIGTERM", (signal) => void stop(signal));
}
