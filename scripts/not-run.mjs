#!/usr/bin/env node
// The last words of `npm test`: which tests did not run for want of a program outside npm, and
// the command that installs it (written by test/system-tools-reporter.ts during the run).
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const note = fileURLToPath(new URL("../node_modules/.cache/conduit/not-run.txt", import.meta.url));
try {
  process.stdout.write(readFileSync(note, "utf8"));
  rmSync(note, { force: true });
} catch (error) {
  if (error?.code !== "ENOENT") throw error;
}
