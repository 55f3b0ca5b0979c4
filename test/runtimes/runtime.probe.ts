// Run inside the Deno and Bun suites (suite.config.ts), never by the repository's own run: it
// fails unless the worker, and the servers the tests spawn with `process.execPath`, are the
// runtime that suite-run.ts named.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const PRINT_RUNTIME = fileURLToPath(new URL("print-runtime.mjs", import.meta.url));

const expected = process.env.CONDUIT_SUITE_RUNTIME;

function runtimeOfThisProcess(): string {
  if (process.versions.bun !== undefined) return `bun ${process.versions.bun}`;
  const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
  if (deno !== undefined) return `deno ${deno.version.deno}`;
  return `node ${process.versions.node}`;
}

it("runs in the runtime the suite was started with", () => {
  expect(expected).toMatch(/^(deno|bun) /);
  expect(runtimeOfThisProcess()).toBe(expected);
});

it("spawns the tests' servers with that runtime too", () => {
  const child = spawnSync(process.execPath, [PRINT_RUNTIME], { encoding: "utf8" });
  expect(child.stdout.trim()).toBe(expected);
});
