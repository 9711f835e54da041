// The operator commands' configuration: read as the server reads it, or one line and an exit.
import { type AppConfig, loadConfig } from "../env";

/**
 * The configuration of an operator command (`npm run users`, `backup`, `restore`), read from the
 * environment as the server does (server/env.ts). A bad setting prints its message to stderr and
 * ends the process with `exitCode` (the commands' "wrong usage" code).
 */
export function configOrExit(exitCode: number): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(exitCode);
  }
}
