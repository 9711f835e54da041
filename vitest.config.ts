import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "server/**/*.test.ts",
      "common/**/*.test.ts",
      "web/**/*.test.ts",
      "e2e/**/*.test.ts",
      "security/**/*.test.ts",
    ],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: run files one or two at a time so the model and argon2 do not starve each other.
    maxWorkers: 2,
  },
});
