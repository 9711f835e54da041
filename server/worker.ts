// The worker's entry point (`npm run worker`): runs background jobs and the image worker from the Redis queue, without HTTP.
import { buildContainer, openDependencies } from "./container";
import { type AppConfig, loadConfig } from "./env";
import { onStopSignals } from "./modules/system/stop-signals";

/**
 * Entry point of `npm run worker`: a process without HTTP that runs the background
 * jobs (memory, mail, scheduled clean-ups from the BullMQ queue on Redis) and the image worker,
 * beside web instances started with JOB_WORKERS=0. It opens the database, storage, model and
 * Redis as the web server does, builds the same container and works until SIGTERM or SIGINT,
 * then stops claiming, lets the running jobs finish, closes everything and exits 0 (a second
 * signal exits at once with 1). Exits 1 when the configuration is invalid or has no REDIS_URL
 * (without Redis there is no queue to share with the web instances).
 */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
    if (!config.REDIS_URL) throw new Error("REDIS_URL: required by `npm run worker` (the queue it works on)");
  } catch (error) {
    console.error(String(error instanceof Error ? error.message : error));
    process.exit(1);
  }
  const quiet = config.LOG_LEVEL === "silent";
  const log = (line: string) => {
    if (!quiet) console.log(line);
  };
  const logError = (error: unknown) => {
    if (!quiet) console.error(error);
  };
  const deps = await openDependencies(config, { log, logError });
  // The worker always runs workers, whatever JOB_WORKERS says for the web instances.
  const container = buildContainer({ ...config, JOB_WORKERS: "1" }, deps);
  await container.startWorkers();
  log(`Job worker running (jobs: ${container.engines.jobs}, database: ${container.engines.database}).`);

  onStopSignals(log, async (signal) => {
    log(`${signal}: no new jobs are claimed; waiting for the running ones.`);
    await container.stopWorkers();
    await container.close();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
