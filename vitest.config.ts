import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["./test/setup-node-runtime.ts"],
    // Tests spawn real servers; forks keep each file's children apart and their exits clean.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: more workers only queue on the child processes.
    maxWorkers: 2,
    // The README's Safety table is what the hostile battery's run proves (see the reporter).
    reporters: ["default", "./test/hostile/safety-reporter.ts", "./test/system-tools-reporter.ts"],
  },
});
