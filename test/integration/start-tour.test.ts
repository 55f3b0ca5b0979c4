// `npm start` without a terminal: the scripted tour of the demo in one-shot mode ends by itself,
// with every step's output and exit 0; in a terminal it opens the interactive mode.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openTerminal } from "../helpers/terminal.js";
import { needs } from "../helpers/system-tools.js";

const START = fileURLToPath(new URL("../../examples/start.mjs", import.meta.url));

describe("npm start", () => {
  it("runs the tour of the demo when there is no terminal, and exits 0", async () => {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, [START], { env: { ...process.env, NO_COLOR: "1", DEMO_STEP_MS: "20" }, timeout: 60_000 }, (error, out) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout: out }),
      );
      child.stdin?.end();
    });
    expect(code).toBe(0);
    expect(stdout).toContain("$ conduit list -- node examples/demo-server.mjs");
    expect(stdout).toMatch(/Booked 2 seats in business to Lisbon for Ada\. .*not shown/);
    expect(stdout).not.toContain("not-shown-anywhere");
    expect(stdout).toContain("Declined: the payment page was not opened.");
    expect(stdout).toContain("Take the 28 tram");
    expect(stdout).toMatch(/Your trip to Porto in autumn/);
    expect(stdout).toContain("That was the tour.");
  });

  it("opens the interactive mode on the demo in a terminal", needs("tmux"), async () => {
    const t = await openTerminal([process.execPath, START]);
    await t.waitFor("demo-server> ");
    await t.type("quit");
    await t.press("Enter");
    expect(await t.exited()).toBe(0);
  });
});
