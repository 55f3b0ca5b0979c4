// Says at the end of a run which tests did not run for want of a program outside npm, and the
// one command that installs what they need (see test/helpers/system-tools.ts).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { NOT_RUN_NOTE, hasSystemTool, installCommand, type SystemTool } from "./helpers/system-tools.js";

export default class SystemToolsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped = new Map<SystemTool, number>();
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        if (test.result().state !== "skipped") continue;
        for (const tool of test.meta().needs ?? []) {
          if (!hasSystemTool(tool)) skipped.set(tool, (skipped.get(tool) ?? 0) + 1);
        }
      }
    }
    rmSync(NOT_RUN_NOTE, { force: true });
    if (skipped.size === 0) return;
    const tools = [...skipped.keys()].sort();
    const counts = tools.map((tool) => `${skipped.get(tool)} need ${tool}`).join(", ");
    const note =
      `\nNot run, for want of a program on this machine: ${counts}.\n` +
      `Install what they need with:\n  ${installCommand(tools)}\n` +
      `(.ci/run installs them and sets CONDUIT_REQUIRE_SYSTEM_TOOLS=1, under which they fail instead of skipping.)\n`;
    // Under `npm test` the package check runs after vitest: scripts/not-run.mjs says it last.
    if (process.env.npm_lifecycle_event === "test") {
      mkdirSync(dirname(NOT_RUN_NOTE), { recursive: true });
      writeFileSync(NOT_RUN_NOTE, note);
    } else process.stdout.write(note);
  }
}
