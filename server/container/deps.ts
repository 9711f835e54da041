// What the composition root is built from: the opened database, storage, model, loggers and Redis.
import type { DbHandle } from "../db/index";
import type { ManagedLlm } from "../providers/llm/index";
import type { RedisHandle } from "../providers/redis/redis";
import type { FileStorage } from "../providers/storage/storage";

/** What the container is built from: the opened database, storage and model, and the loggers. */
export interface ContainerDeps {
  db: DbHandle;
  storage: FileStorage;
  llm: ManagedLlm;
  /** A plain line for the operator (silent under LOG_LEVEL=silent). */
  log: (line: string) => void;
  /** Whether `llm` was given to openDependencies (tests, benchmarks) rather than configured. */
  llmInjected?: boolean;
  /** Where background failures go (the server's logger). */
  logError: (error: unknown) => void;
  /** The shared Redis (REDIS_URL); undefined: one instance, everything in memory. */
  redis?: RedisHandle;
}
