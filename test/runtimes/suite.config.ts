// The vitest config of the end-to-end files run inside Deno and Bun (suite-run.ts starts it):
// the repository's own, with the files named on the command line and a probe that proves in
// which runtime the workers ran. Its one reporter writes the JSON the outer test reads; the
// Safety table and the note of missing tools belong to the outer run. A cache of its own, so
// that two runs at once never write one file.
import { defineConfig } from "vitest/config";
import base from "../../vitest.config.js";

export default defineConfig({
  ...base,
  cacheDir: process.env.CONDUIT_SUITE_CACHE,
  test: { ...base.test, include: ["test/integration/*.test.ts", "test/runtimes/runtime.probe.ts"], reporters: ["json"] },
});
