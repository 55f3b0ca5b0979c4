// An AppSession in front of a real MCP Apps server (the official server library, over stdio, in
// both eras): the view's tools/call reaches the server only for its app-visible tools, a
// model-only tool is refused before the server hears of it, resources/read passes only for
// ui://, and the end of the session cancels what the view left running at the server.
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { Client, type ServerHandle, type Tool } from "../../src/node.js";
import { AppSession } from "../../src/apps/index.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";

const APPS_SERVER = { command: process.execPath, args: [fileURLToPath(new URL("../fixtures/app-session-server.mjs", import.meta.url))] };

interface Stats {
  increments: number;
  resets: number;
  hangs: number;
  cancelled: number;
}

async function stats(server: ServerHandle): Promise<Stats> {
  return (await server.callTool("stats")).structuredContent as Stats;
}

describe.each(["2025-11-25", "2026-07-28"] as const)("an app's session against the official server at %s", (version) => {
  async function open() {
    const client = track(new Client({ name: "apps-host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("counter", APPS_SERVER, { protocolVersion: version });
    const tools = await server.listTools();
    const tool = tools.find((t) => t.name === "show_counter") as Tool;
    const sent: Record<string, unknown>[] = [];
    const logger = capturingLogger();
    const session = new AppSession({ server, tool, send: (message) => sent.push(message as Record<string, unknown>), logger });
    let nextId = 1;
    const ask = async (method: string, params: Record<string, unknown>) => {
      const id = nextId++;
      session.receive({ jsonrpc: "2.0", id, method, params });
      let reply: Record<string, unknown> | undefined;
      await vi.waitFor(() => {
        reply = sent.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
        expect(reply).toBeDefined();
      }, { timeout: 10_000 });
      return reply!;
    };
    const init = await ask("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "counter-view", version: "1.0.0" }, appCapabilities: {} });
    session.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
    /** Ends the session as the view would: it answers ui/resource-teardown at once. */
    const end = async () => {
      const ended = session.teardown();
      const teardown = sent.find((m) => m.method === "ui/resource-teardown")!;
      session.receive({ jsonrpc: "2.0", id: teardown.id, result: {} });
      await ended;
    };
    return { server, tool, session, sent, ask, init, logger, end };
  }

  it("proxies the view's calls of its app-visible tools, and refuses the model's tools before the server hears of them", async () => {
    const { server, tool, session, sent, ask, init, end } = await open();
    expect(server.era).toBe(version === "2026-07-28" ? "modern" : "legacy");
    expect(init.result).toMatchObject({ hostCapabilities: { serverTools: {}, serverResources: {}, logging: {} }, hostContext: { toolInfo: { tool: { name: "show_counter" } } } });

    // The host ran the tool: its input and result go to the view, in that order.
    const args = { start: 3 };
    session.toolInput(args);
    session.toolResult(await server.callTool(tool.name, args));
    expect(sent.filter((m) => m.method !== undefined).map((m) => m.method)).toEqual(["ui/notifications/tool-input", "ui/notifications/tool-result"]);
    expect(sent.at(-1)).toMatchObject({ params: { content: [{ type: "text", text: "the counter is at 3" }] } });

    expect(await ask("tools/call", { name: "increment", arguments: {} })).toMatchObject({ result: { content: [{ type: "text", text: "1" }] } });
    expect(await ask("tools/call", { name: "admin_reset", arguments: {} })).toMatchObject({ error: { code: -32602 } });
    expect(await ask("tools/call", { name: "stats" })).toMatchObject({ error: { code: -32602 } });
    // Visible to the model as well as the app: the host's consent is needed, and there is no hook.
    expect(await ask("tools/call", { name: "show_counter" })).toMatchObject({ error: { code: -32000 } });
    expect(await stats(server)).toEqual({ increments: 1, resets: 0, hangs: 0, cancelled: 0 });
    await end();
  });

  it("reads the server's ui:// resources for the view, and nothing else", async () => {
    const { server, ask, end } = await open();
    const read = await ask("resources/read", { uri: "ui://counter/view.html" });
    expect(read).toMatchObject({ result: { contents: [{ uri: "ui://counter/view.html", mimeType: "text/html;profile=mcp-app" }] } });
    expect(((read.result as { contents: { text: string }[] }).contents[0]!.text)).toContain("<p id=count>");
    expect(await ask("resources/read", { uri: "file:///secret.txt" })).toMatchObject({ error: { code: -32602 } });
    // A ui:// resource the server does not have is the server's own error, passed to its view.
    const missing = await ask("resources/read", { uri: "ui://counter/missing.html" });
    expect((missing.error as { code: number }).code).toBeLessThan(0);
    expect(server.state).toBe("ready");
    await end();
  });

  it("cancels at the server what the view left running when the session ends", async () => {
    const { server, session, sent } = await open();
    session.receive({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "hang", arguments: {} } });
    await vi.waitFor(async () => expect((await stats(server)).hangs).toBe(1), { timeout: 10_000 });
    const ended = session.teardown("the user closed it");
    const teardown = sent.find((m) => m.method === "ui/resource-teardown")!;
    expect(teardown.params).toEqual({ reason: "the user closed it" });
    session.receive({ jsonrpc: "2.0", id: teardown.id, result: {} });
    await ended;
    expect(session.state).toBe("closed");
    await vi.waitFor(async () => expect((await stats(server)).cancelled).toBe(1), { timeout: 10_000 });
    // The view's call was cut by the end: it gets no answer from a closed session.
    expect(sent.find((m) => m.id === 99)).toBeUndefined();
  });
});
