// Tests that need a program from outside npm (a Redis server, a terminal multiplexer) say so
// with `needs(tool)` in their options. Where the program is missing they are skipped, and the
// run's end says which did not run and what installs them (system-tools-reporter.ts); under
// CONDUIT_REQUIRE_SYSTEM_TOOLS=1 (.ci/run sets it) a missing program fails the file instead,
// so that CI never passes by skipping.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Each program a test may need from Debian, and the package that installs it. */
export const SYSTEM_TOOLS = {
  "redis-server": "redis-server",
  tmux: "tmux",
  "chromium-headless-shell": "chromium-headless-shell",
} as const;

/**
 * The runtimes a test may need that come from npm (dev dependencies whose binaries ship as
 * optional dependencies, for some platforms only): found in node_modules/.bin, installed by
 * `npm ci` where the platform has them.
 */
export const NPM_RUNTIMES = ["deno", "bun", "workerd"] as const;

export type SystemTool = keyof typeof SYSTEM_TOOLS | (typeof NPM_RUNTIMES)[number];

const BIN = fileURLToPath(new URL("../../node_modules/.bin", import.meta.url));

export const REQUIRE_SYSTEM_TOOLS = "CONDUIT_REQUIRE_SYSTEM_TOOLS";

/** Where a run of `npm test` leaves its note of what did not run, for scripts/not-run.mjs. */
export const NOT_RUN_NOTE = fileURLToPath(new URL("../../node_modules/.cache/conduit/not-run.txt", import.meta.url));

const found = new Map<SystemTool, boolean>();

/** Whether `tool` is an executable file on the PATH (looked up once per process). */
export function hasSystemTool(tool: SystemTool): boolean {
  let has = found.get(tool);
  if (has === undefined) {
    has = isNpmRuntime(tool) ? executable(join(BIN, tool)) && binaryPresent(tool) : (process.env.PATH ?? "").split(delimiter).some((dir) => dir !== "" && executable(join(dir, tool)));
    found.set(tool, has);
  }
  return has;
}

/** The path of `tool`: an npm runtime's shim in node_modules/.bin, or the program's name. */
export function systemToolPath(tool: SystemTool): string {
  return isNpmRuntime(tool) ? join(BIN, tool) : tool;
}

function isNpmRuntime(tool: SystemTool): tool is (typeof NPM_RUNTIMES)[number] {
  return (NPM_RUNTIMES as readonly string[]).includes(tool);
}

/** The shim is there on every platform; the binary only where its optional package installed. */
function binaryPresent(tool: (typeof NPM_RUNTIMES)[number]): boolean {
  return spawnSync(join(BIN, tool), ["--version"], { stdio: "ignore", timeout: 30_000 }).status === 0;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Options for a `describe` or an `it` that cannot run without `tool`: skipped where it is
 * missing (and named at the run's end), an error where the run requires every tool.
 */
export function needs(...tools: SystemTool[]): { skip: boolean; meta: { needs: SystemTool[] } } {
  const missing = tools.filter((tool) => !hasSystemTool(tool));
  if (missing.length > 0 && process.env[REQUIRE_SYSTEM_TOOLS] === "1") {
    throw new Error(`${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not installed, and ${REQUIRE_SYSTEM_TOOLS}=1 requires every test to run: ${installCommand(missing)}`);
  }
  return { skip: missing.length > 0, meta: { needs: tools } };
}

/** The commands that install `tools`: Debian's packages, and `npm ci` for the npm runtimes. */
export function installCommand(tools: readonly SystemTool[]): string {
  const packages = [...new Set(tools.filter((tool) => !isNpmRuntime(tool)).map((tool) => SYSTEM_TOOLS[tool]))].sort();
  const commands = packages.length === 0 ? [] : [`sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}`];
  const runtimes = tools.filter(isNpmRuntime);
  if (runtimes.length > 0) commands.push(`npm ci (${runtimes.join(", ")} ${runtimes.length > 1 ? "come" : "comes"} with the dev dependencies, for linux-x64, linux-arm64, darwin and win32)`);
  return commands.join("\n  ");
}

declare module "vitest" {
  interface TaskMeta {
    /** The programs outside npm this test needs (see `needs`). */
    needs?: SystemTool[];
  }
}
