import { defineConfig } from "vitest/config";

/** Every test of the project on the embedded default (SQLite, local disk, in-process state). */
const EMBEDDED = [
  "server/**/*.test.ts",
  "common/**/*.test.ts",
  "web/**/*.test.ts",
  "security/**/*.test.ts",
  "cluster/**/*.test.ts",
];

/** The browser tests (Chromium against the built server), also on the embedded default. */
const BROWSER = ["e2e/**/*.test.ts"];

/**
 * the API suites again on PostgreSQL + Redis + S3 (TEST_STACK=shared; each test app
 * fails when an engine fell back to the embedded one). Only where both servers are given.
 */
const SHARED = ["server/modules/**/*.test.ts", "security/**/*.test.ts"];
const sharedStack = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
if (!sharedStack) {
  console.warn(
    "Skipping the shared-stack run (PostgreSQL + Redis + S3): set TEST_DATABASE_URL and TEST_REDIS_URL",
  );
}

export default defineConfig({
  test: {
    pool: "forks",
    // A browser test on a loaded 2-core runner can pass 30 s while nothing is wrong (each of its
    // steps waits for the page); 60 s a test, unless a test sets its own limit.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits 1 s by default: a browser on a loaded 2-core runner can take longer to
    // load a list, so a poll waits up to 10 s (it still ends as soon as the condition holds).
    expect: { poll: { timeout: 10_000 } },
    // Two cores: run files one or two at a time so the model and argon2 do not starve each other.
    maxWorkers: 2,
    // In CI a test that fails is run once more: a 2-core runner under the whole suite can miss a
    // frame or a timer (browser tests most of all). A failure that repeats still fails the run, and
    // every retry is printed ("retry x1"). Locally there is no retry, so a flaky test shows.
    retry: process.env.CI ? 1 : 0,
    projects: [
      { extends: true as const, test: { name: "embedded", include: EMBEDDED } },
      { extends: true as const, test: { name: "browser", include: BROWSER } },
      ...(sharedStack
        ? [
            {
              extends: true as const,
              test: { name: "shared", include: SHARED, env: { TEST_STACK: "shared" } },
            },
          ]
        : []),
    ],
  },
});
