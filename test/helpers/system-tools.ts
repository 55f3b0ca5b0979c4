// Tests that need a program from outside npm (a Redis server, a terminal multiplexer) say so
// with `needs(tool)` in their options. Where the program is missing they are skipped, and the
// run's end says which did not run and what installs them (system-tools-reporter.ts); under
// CONDUIT_REQUIRE_SYSTEM_TOOLS=1 (.ci/run sets it) a missing program fails the file instead,
// so that CI never passes by skipping.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Each program a test may need, and the Debian package that installs it. */
export const SYSTEM_TOOLS = {
  "redis-server": "redis-server",
  tmux: "tmux",
} as const;

export type SystemTool = keyof typeof SYSTEM_TOOLS;

export const REQUIRE_SYSTEM_TOOLS = "CONDUIT_REQUIRE_SYSTEM_TOOLS";

/** Where a run of `npm test` leaves its note of what did not run, for scripts/not-run.mjs. */
export const NOT_RUN_NOTE = fileURLToPath(new URL("../../node_modules/.cache/conduit/not-run.txt", import.meta.url));

const found = new Map<SystemTool, boolean>();

/** Whether `tool` is an executable file on the PATH (looked up once per process). */
export function hasSystemTool(tool: SystemTool): boolean {
  let has = found.get(tool);
  if (has === undefined) {
    has = (process.env.PATH ?? "").split(delimiter).some((dir) => dir !== "" && executable(join(dir, tool)));
    found.set(tool, has);
  }
  return has;
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

/** The one command that installs `tools` on Debian or Ubuntu. */
export function installCommand(tools: readonly SystemTool[]): string {
  const packages = [...new Set(tools.map((tool) => SYSTEM_TOOLS[tool]))].sort();
  return `sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}`;
}

declare module "vitest" {
  interface TaskMeta {
    /** The programs outside npm this test needs (see `needs`). */
    needs?: SystemTool[];
  }
}
