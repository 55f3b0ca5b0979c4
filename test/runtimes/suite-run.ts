// Runs the end-to-end suite's HTTP and stdio files with vitest inside Deno or Bun: the workers
// that import Conduit, and the servers the tests spawn with `process.execPath`, are that
// runtime (runtime.probe.ts proves it in the same run). What comes back is every test that did
// not pass, with its message, so that a failure names itself in the outer test's diff.
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { systemToolPath } from "../helpers/system-tools.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const CONFIG = fileURLToPath(new URL("suite.config.ts", import.meta.url));
export const PROBE = "test/runtimes/runtime.probe.ts";

/**
 * The files each runtime runs: Streamable HTTP in both eras, HTTP+SSE, the Handler over HTTP,
 * tasks, the official server in both eras over both transports (MRTR, elicitation, sampling,
 * progress, cancellation), and stdio against the raw server (framing, process groups, exits,
 * deadlines): some 340 tests, 20-30 s a runtime on two cores. modern-stdio and handler-stdio
 * pass too (another 70 tests, 15 s more each) but test the protocol more than the runtime.
 */
export const SUITE_FILES = [
  "test/integration/http-modern.test.ts",
  "test/integration/http-legacy.test.ts",
  "test/integration/http-sse.test.ts",
  "test/integration/handler-http.test.ts",
  "test/integration/tasks-http.test.ts",
  "test/integration/official-modern.test.ts",
  "test/integration/official-legacy.test.ts",
  "test/integration/stdio-raw.test.ts",
] as const;

export type SuiteRuntime = "deno" | "bun";

interface JsonAssertion {
  fullName: string;
  status: string;
  failureMessages: string[];
}

interface JsonReport {
  numTotalTests: number;
  numPassedTests: number;
  testResults: { name: string; status: string; message: string; assertionResults: JsonAssertion[] }[];
}

export interface SuiteOutcome {
  /** "deno 2.9.6", "bun 1.4.5": what the runtime says of itself. */
  runtime: string;
  exitCode: number | null;
  /** Each file run, relative to the repository, with its status. */
  files: Record<string, string>;
  /** The tests that did not pass (failed, skipped, todo), with the start of their message. */
  notPassed: string[];
  passed: number;
  /** The end of the runner's own output, for a run that wrote no report. */
  output: string;
}

/** The runtime's name and version, as runtime.probe.ts prints them. */
export function runtimeVersion(runtime: SuiteRuntime): string {
  const out = spawnSync(systemToolPath(runtime), ["--version"], { encoding: "utf8" }).stdout;
  const version = /(\d+\.\d+\.\d+)/.exec(out)?.[1];
  if (version === undefined) throw new Error(`${runtime} --version printed no version: ${out}`);
  return `${runtime} ${version}`;
}

function command(runtime: SuiteRuntime): string[] {
  return runtime === "deno" ? ["run", "-A", VITEST] : ["--bun", VITEST];
}

/** The environment of the inner run: the outer vitest's own variables would confuse it. */
function innerEnv(runtime: string, cacheDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("VITEST") && key !== "SAFETY_TABLE" && key !== "NODE_ENV") env[key] = value;
  return { ...env, CONDUIT_SUITE_RUNTIME: runtime, CONDUIT_SUITE_CACHE: cacheDir, NO_COLOR: "1" };
}

/** The inner run's process group, so that a test that gives up ends it and every server it spawned. */
let running: number | undefined;

export function stopSuite(): void {
  if (running === undefined) return;
  try {
    process.kill(-running, "SIGKILL");
  } catch {
    // Already gone.
  }
  running = undefined;
}

export async function runSuite(runtime: SuiteRuntime): Promise<SuiteOutcome> {
  const version = runtimeVersion(runtime);
  const dir = await mkdtemp(join(tmpdir(), `conduit-suite-${runtime}-`));
  const report = join(dir, "report.json");
  try {
    const args = [...command(runtime), "run", "--config", CONFIG, "--outputFile", report, ...SUITE_FILES, PROBE];
    const child = spawn(systemToolPath(runtime), args, { cwd: ROOT, env: innerEnv(version, join(dir, "cache")), stdio: ["ignore", "pipe", "pipe"], detached: true });
    running = child.pid;
    let output = "";
    const keep = (text: string) => (output = (output + text).slice(-6000));
    child.stdout.setEncoding("utf8").on("data", keep);
    child.stderr.setEncoding("utf8").on("data", keep);
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code) => resolve(code));
    });
    running = undefined;
    const parsed = JSON.parse(await readFile(report, "utf8").catch(() => "null")) as JsonReport | null;
    if (parsed === null) return { runtime: version, exitCode, files: {}, notPassed: [], passed: 0, output };
    const files: Record<string, string> = {};
    const notPassed: string[] = [];
    for (const file of parsed.testResults) {
      const name = file.name.slice(ROOT.length);
      files[name] = file.status;
      if (file.assertionResults.length === 0) notPassed.push(`${name}: ${file.message.slice(0, 400)}`);
      for (const test of file.assertionResults) {
        if (test.status !== "passed") notPassed.push(`${name} > ${test.fullName} (${test.status}): ${(test.failureMessages[0] ?? "").slice(0, 400)}`);
      }
    }
    return { runtime: version, exitCode, files, notPassed, passed: parsed.numPassedTests, output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
