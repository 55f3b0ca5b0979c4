// Runs scenarios.mjs with Deno or Bun from a host folder of the built package (package-link.ts)
// and reads back its JSON lines.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { systemToolPath } from "../helpers/system-tools.js";
import { OFFICIAL_SERVER } from "../helpers/official.js";
import { hostFolder } from "./package-link.js";
import type { SuiteRuntime } from "./suite-run.js";

const SCENARIOS = fileURLToPath(new URL("scenarios.mjs", import.meta.url));

export interface ScenarioServers {
  /** A Streamable HTTP server of both eras. */
  http: string;
}

/**
 * Each scenario's line, in the order asked; the runner's stderr where a line is missing. `flags`
 * go to the runtime: Deno's permissions (a host's own choice; none is implied), `--conditions`.
 */
export async function runScenarios(
  runtime: SuiteRuntime,
  names: readonly string[],
  servers: ScenarioServers,
  flags: readonly string[] = [],
): Promise<{ lines: unknown[]; stderr: string }> {
  const host = await hostFolder([SCENARIOS]);
  try {
    const args = [...(runtime === "deno" ? ["run"] : []), ...flags, "scenarios.mjs", ...names];
    // The stdio servers are Node processes, as a host's usually are (`npx`, `node`).
    const env = { ...process.env, CONDUIT_SCENARIO: JSON.stringify({ node: process.execPath, official: OFFICIAL_SERVER, ...servers }) };
    const child = spawn(systemToolPath(runtime), args, { cwd: host.dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    await new Promise<void>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", () => resolve());
    });
    const lines = stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as unknown);
    return { lines, stderr };
  } finally {
    await host.remove();
  }
}
