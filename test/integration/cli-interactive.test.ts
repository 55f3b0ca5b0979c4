// `conduit`'s interactive mode in a real pseudo-terminal (tmux), against the demo server: a
// form with a secret field (which never appears on the screen), a URL declined, a sampling
// reply typed in, a progress bar that ends, completion, a task that asks a question, and
// leaving; notices that servers repeat told once; several servers, two on one host, one whose
// config entry cannot be used. Runs the built command (dist/cli/bin.js): `npm test` builds first.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { openTerminal, type Terminal } from "../helpers/terminal.js";
import { approve, startOAuthServers } from "../helpers/oauth-server.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { needs } from "../helpers/system-tools.js";
import { officialHttp } from "../helpers/official.js";

const BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));
const DEMO = fileURLToPath(new URL("../../examples/demo-server.mjs", import.meta.url));

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error("dist/cli/bin.js is missing: run `npm run build` (npm test does)");
});

async function conduitOnDemo(era: "legacy" | "modern" = "modern"): Promise<Terminal> {
  const terminal = await openTerminal([process.execPath, BIN, "--", process.execPath, DEMO, "--era", era], { DEMO_STEP_MS: "20" });
  await terminal.waitFor("demo-server> ");
  return terminal;
}

/** The prompt is back: the command before it has ended. */
const promptAgain = (screen: string) => screen.trimEnd().endsWith("demo-server>");

describe("conduit interactive", needs("tmux"), () => {
  for (const era of ["modern", "legacy"] as const) {
    it(`asks a form field by field, asks again after an invalid answer, and never shows the secret (${era})`, async () => {
      const t = await conduitOnDemo(era);
      await t.type("call book destination=Lisbon");
      await t.press("Enter");
      await t.waitFor("Fill in the form");
      await t.press("Enter");
      await t.waitFor("Traveller name");
      await t.type("Ada");
      await t.press("Enter");
      await t.waitFor("Cabin");
      await t.press("Down", "Down", "Enter");
      await t.waitFor("Seats");
      await t.press("C-u");
      await t.type("9");
      await t.press("Enter");
      await t.waitFor("at most 6");
      await t.press("C-u");
      await t.type("2");
      await t.press("Enter");
      await t.waitFor("Newsletter");
      await t.press("Enter");
      await t.waitFor("(hidden)");
      await t.type("hunter2-SECRET");
      // Typed, not yet sent: the screen shows nothing of it.
      expect(await t.screen()).not.toContain("hunter2");
      await t.press("Enter");
      const done = await t.waitFor("Booked 2 seats in business to Lisbon for Ada");
      expect(done).toContain("Password received (14 characters, not shown)");
      expect(done).not.toContain("hunter2");
      await t.type("quit");
      await t.press("Enter");
      expect(await t.exited()).toBe(0);
      expect(await t.screen()).not.toContain("hunter2");
    });
  }

  it("shows a URL with its host and a warning, and declines it without opening anything", async () => {
    const t = await conduitOnDemo();
    await t.type("call pay amount=12");
    await t.press("Enter");
    const asked = await t.waitFor("I will open it (accept)");
    expect(asked).toContain("https://example.com/pay?trip=lisbon&amount=12");
    expect(asked).toContain("host: example.com");
    expect(asked).toContain("warning: this is not the server's own origin");
    expect(asked).toContain("conduit never opens it");
    await t.press("Down", "Enter");
    // The menu's own "Decline" is on the screen before the choice is made: wait for the tool's result.
    const answered = await t.waitFor("Declined: the payment page was not opened.");
    expect(answered).toMatch(/Your answer Decline/);
  });

  it("shows a sampling request in full and sends the reply typed in", async () => {
    const t = await conduitOnDemo();
    await t.type("call suggest city=Porto");
    await t.press("Enter");
    const asked = await t.waitFor("Type the reply");
    expect(asked).toMatch(/system: /);
    expect(asked).toMatch(/user: .*Porto/);
    expect(asked).toContain("max tokens: 200");
    await t.press("Enter");
    await t.waitFor("Reply");
    await t.type("Walk along the Douro at dusk");
    await t.press("Enter");
    // The reply as the tool returned it, after the line where it was typed.
    const done = await t.waitFor(/Reply Walk along the Douro at dusk\n[\s\S]*Walk along the Douro at dusk[\s\S]*demo-server>\s*$/);
    expect(done).not.toMatch(/declined/);
  });

  it("draws a progress bar that ends full", async () => {
    const t = await conduitOnDemo();
    await t.type("call pack items=5 delayMs=100");
    await t.press("Enter");
    const done = await t.waitFor(/Packed 5 items/);
    expect(done).toMatch(/pack \[█{24}\] 5\/5/);
    expect(promptAgain(await t.waitFor(/demo-server>\s*$/))).toBe(true);
  });

  it("completes commands and tool names, follows a task that asks a question, and leaves on Ctrl-D", async () => {
    const t = await conduitOnDemo();
    await t.type("cal");
    await t.press("Tab");
    await t.type(" pl");
    await t.press("Tab");
    await t.waitFor("demo-server> call plan");
    await t.press("Enter");
    // No arguments typed: the tool's are asked one by one (this one is optional).
    await t.waitFor("arguments of plan:");
    await t.waitFor("destination (optional)");
    await t.press("Enter");
    await t.waitFor("Fill in the form");
    await t.press("Enter");
    await t.waitFor(/season/i);
    await t.press("Enter");
    const done = await t.waitFor("Your trip to Lisbon in spring");
    expect(done).toMatch(/task \S+: working/);
    await t.waitFor(/demo-server>\s*$/);
    await t.press("C-d");
    expect(await t.exited()).toBe(0);
  });
});

describe("conduit against a server behind OAuth", needs("tmux"), () => {
  it("shows the authorization URL, takes the redirect on its loopback port, keeps the tokens for the next run", async () => {
    const servers = await startOAuthServers();
    const home = mkdtempSync(join(tmpdir(), "conduit-oauth-"));
    try {
      const t = await openTerminal([process.execPath, BIN, servers.resourceUrl], { HOME: home, XDG_CONFIG_HOME: join(home, ".config") });
      const shown = await t.waitFor(/Open this URL in a browser:\n\s+(\S+)/);
      const url = new URL(/Open this URL in a browser:\n\s+(\S+)/.exec(shown)![1]!);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      // The person's browser: the authorization server approves, and its redirect reaches conduit.
      const back = await approve(url);
      expect(new URL(back).hostname).toBe("127.0.0.1");
      await (await fetch(back)).text();
      // The id of a URL server is its host, port and path.
      await t.waitFor(/127_0_0_1_\d+_\S*> /);
      await t.type("quit");
      await t.press("Enter");
      expect(await t.exited()).toBe(0);
      const store = join(home, ".config", "conduit", "auth.json");
      expect(statSync(store).mode & 0o077).toBe(0);
      // The next run, without a terminal, needs no person: the kept tokens do.
      const code = await new Promise<number | null>((resolve) => {
        const child = execFile(process.execPath, [BIN, "list", servers.resourceUrl], { env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), NO_COLOR: "1" } }, (error) => resolve(error === null ? 0 : typeof error.code === "number" ? error.code : null));
        child.stdin?.end();
      });
      expect(code).toBe(0);
      expect(servers.authorizations).toHaveLength(1);
      const screen = await t.screen();
      for (const secret of servers.secrets) expect(screen).not.toContain(secret);
    } finally {
      rmSync(home, { recursive: true, force: true });
      await servers.close();
    }
  });
});

describe("conduit when a server asks while the prompt waits", needs("tmux"), () => {
  it("gives the terminal to the question: the secret typed goes to the form alone", async () => {
    const raw = await startRawStdio();
    raw.autoInitialize({ capabilities: { tools: {} } });
    raw.handle("tools/list", () => ({ tools: [] }));
    try {
      const t = await openTerminal([process.execPath, BIN, "--name", "raw", "--", raw.target.command, ...raw.target.args]);
      await t.waitFor("raw> ");
      await raw.send({ jsonrpc: "2.0", id: "ask-1", method: "elicitation/create", params: { message: "Sign in again", requestedSchema: { type: "object", properties: { password: { type: "string", title: "Password" } }, required: ["password"] } } });
      await t.waitFor("Fill in the form");
      await t.press("Enter");
      await t.waitFor("(hidden)");
      await t.type("hunter2-SECRET");
      await t.press("Enter");
      const answer = await raw.next((message) => message.id === "ask-1");
      expect(answer.result).toEqual({ action: "accept", content: { password: "hunter2-SECRET" } });
      // The prompt comes back, and read none of it.
      await t.waitFor(/raw> $/m);
      await t.type("servers");
      await t.press("Enter");
      const screen = await t.waitFor(/raw \(in use\)/);
      expect(screen).not.toContain("hunter2");
      expect(screen).not.toContain("unknown command");
    } finally {
      await raw.close();
    }
  });
});

describe("conduit's notices", needs("tmux"), () => {
  it("tells a list change once until the next command, and a task's status once until it changes", async () => {
    const raw = await startRawStdio();
    raw.autoInitialize({ capabilities: { tools: { listChanged: true }, resources: {} } });
    raw.handle("tools/list", () => ({ tools: [] }));
    try {
      const t = await openTerminal([process.execPath, BIN, "--name", "raw", "--", raw.target.command, ...raw.target.args]);
      await t.waitFor("raw> ");
      const burst = async (marker: string) => {
        for (let i = 0; i < 5; i++) await raw.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
        for (let i = 0; i < 3; i++) await raw.send({ jsonrpc: "2.0", method: "notifications/tasks/status", params: { taskId: "t-1", status: "working", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttl: null } });
        // Notifications reach the Handler in order, one at a time: once this one shows, the burst has.
        await raw.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: `mem://${marker}` } });
        return t.waitFor(`resource updated: mem://${marker}`);
      };
      const first = await burst("first");
      expect(first.match(/\[raw\] its tools changed/g)).toHaveLength(1);
      expect(first.match(/task t-1: working/g)).toHaveLength(1);
      // After a command of the person's, a change is news again; the task's status is not.
      await t.type("servers");
      await t.press("Enter");
      await t.waitFor(/raw \(in use\)[\s\S]*raw> \s*$/);
      const second = await burst("second");
      expect(second.match(/\[raw\] its tools changed/g)).toHaveLength(2);
      expect(second.match(/task t-1: working/g)).toHaveLength(1);
    } finally {
      await raw.close();
    }
  });
});

describe("conduit with several servers", needs("tmux"), () => {
  it("gives two URL servers on one host two ids", async () => {
    const one = await officialHttp("legacy");
    const two = await officialHttp("legacy");
    try {
      const t = await openTerminal([process.execPath, BIN, one.url, two.url]);
      const port = (url: string) => new URL(url).port;
      const screen = await t.waitFor(/> $/m);
      expect(screen).toContain(`● 127_0_0_1_${port(one.url)}_mcp`);
      expect(screen).toContain(`● 127_0_0_1_${port(two.url)}_mcp`);
      expect(screen).not.toContain("already connected");
      await t.type("quit");
      await t.press("Enter");
      expect(await t.exited()).toBe(0);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("says which server of a config could not be used and why, and connects the others", async () => {
    const home = mkdtempSync(join(tmpdir(), "conduit-config-"));
    try {
      const config = join(home, "mcp.json");
      writeFileSync(config, JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [DEMO] }, github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${env:CONDUIT_TEST_UNSET_TOKEN}" } } } }));
      const t = await openTerminal([process.execPath, BIN, "--config", config], { HOME: home });
      const screen = await t.waitFor("demo> ");
      expect(screen).toContain("● demo");
      expect(screen).toMatch(/● github {2}server "github" in the config: "env\.GITHUB_PERSONAL_ACCESS_TOKEN" names the environment variable CONDUIT_TEST_UNSET_TOKEN, which is not set/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
