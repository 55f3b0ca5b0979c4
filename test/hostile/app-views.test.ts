// Hostile app views (MCP Apps): an AppSession in front of a real server (the official library
// over stdio, test/fixtures/app-session-server.mjs) takes what a view's frame could post — a
// flood of calls, a message too deep or too large, values JSON cannot hold, calls of the model's
// tools by a thousand names, links of every dangerous scheme — and the server hears only what
// the view may ask, every request is answered, and the host is never shown a refused link.
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { Client, type ServerHandle, type Tool } from "../../src/node.js";
import { AppSession } from "../../src/apps/index.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { count, safetyRow } from "./safety.js";

const APPS_SERVER = { command: process.execPath, args: [fileURLToPath(new URL("../fixtures/app-session-server.mjs", import.meta.url))] };

interface Stats {
  increments: number;
  resets: number;
}

async function stats(server: ServerHandle): Promise<Stats> {
  return (await server.callTool("stats")).structuredContent as Stats;
}

async function openView(onOpenLink?: (link: { url: string }) => boolean) {
  const client = track(new Client({ name: "apps-host", version: "1", logger: capturingLogger() }));
  const server = await client.connect("counter", APPS_SERVER);
  const tool = (await server.listTools()).find((t) => t.name === "show_counter") as Tool;
  const sent: Record<string, unknown>[] = [];
  const session = new AppSession({ server, tool, send: (message) => sent.push(message as Record<string, unknown>), logger: capturingLogger(), ...(onOpenLink === undefined ? {} : { onOpenLink }) });
  const replyTo = (id: number) => sent.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
  const answered = async (ids: number[]) => {
    await vi.waitFor(() => expect(ids.every((id) => replyTo(id) !== undefined)).toBe(true), { timeout: 30_000 });
    return ids.map((id) => replyTo(id)!);
  };
  session.receive({ jsonrpc: "2.0", id: 0, method: "ui/initialize", params: { protocolVersion: "2026-01-26", appInfo: { name: "hostile", version: "1" }, appCapabilities: {} } });
  await answered([0]);
  session.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
  return { server, session, answered };
}

describe("hostile app views", () => {
  it("a flood of the view's tool calls: every one answered, few reach the server", async (context) => {
    const { server, session, answered } = await openView();
    // The calls in flight all listen to the session's life: that is bounded, not a leak to warn of.
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on("warning", onWarning);
    const n = 5_000;
    const ids = Array.from({ length: n }, (_, i) => i + 1);
    for (const id of ids) session.receive({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "increment", arguments: {} } });
    const replies = await answered(ids);
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
    const served = replies.filter((reply) => reply.result !== undefined).length;
    const { increments } = await stats(server);
    expect(increments).toBe(served);
    // The call rate's burst is 20 and its rate 5/s: a few seconds of refill at most.
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(200);
    expect(replies.filter((reply) => (reply.error as { code?: number } | undefined)?.code === -32000).length).toBe(n - served);
    safetyRow(context, {
      area: "Apps",
      tried: `a view posts ${count(n)} \`tools/call\` requests of its app-only tool at once`,
      over: "stdio",
      outcome: `every one answered; at most 200 reach the server (the view's call rate and in-flight bound), the rest refused with -32000`,
    });
  });

  it("a message too deep, too large, or of values JSON cannot hold: refused, nothing reaches the server", async (context) => {
    const { server, session, answered } = await openView();
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { deep };
    session.receive({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "increment", arguments: deep } });
    session.receive({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "increment", arguments: { text: "x".repeat(5 * 1024 * 1024) } } });
    const cyclic: Record<string, unknown> = { name: "increment" };
    cyclic.arguments = cyclic;
    expect(() => session.receive({ jsonrpc: "2.0", id: 3, method: "tools/call", params: cyclic })).not.toThrow();
    session.receive({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "increment", arguments: { when: new Map([[1, 2]]) } } });
    const replies = await answered([1, 2, 3, 4]);
    for (const reply of replies) expect((reply.error as { code: number }).code).toBe(-32600);
    expect((await stats(server)).increments).toBe(0);
    safetyRow(context, {
      area: "Apps",
      tried: "a view posts a message 10 000 levels deep, one of 5 MiB, a cyclic one and one holding a Map",
      over: "stdio",
      outcome: "each refused with -32600 (bounds: 64 levels, 4 MiB, JSON values only) before any of it is read further; the server hears nothing",
    });
  });

  it("calls of the model's tools and of tools the server never listed, by a thousand names: one answer for all, none sent", async (context) => {
    const { server, session, answered } = await openView();
    const names = ["admin_reset", "stats", ...Array.from({ length: 998 }, (_, i) => `made-up-${i}`)];
    names.forEach((name, i) => session.receive({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name, arguments: {} } }));
    const replies = await answered(names.map((_, i) => i + 1));
    const codes = new Set(replies.map((reply) => (reply.error as { code?: number } | undefined)?.code));
    // Refused over the rate or as unknown: never a result, and never which of the two it was.
    expect(replies.every((reply) => reply.result === undefined)).toBe(true);
    expect([...codes].every((code) => code === -32602 || code === -32000)).toBe(true);
    expect((await stats(server)).resets).toBe(0);
    safetyRow(context, {
      area: "Apps",
      tried: `a view calls the model's tools and ${count(998)} names the server never listed`,
      over: "stdio",
      outcome: "no call sent; a model-only tool and an unknown one get the same -32602 (a view cannot probe the model's tools), or -32000 over the rate",
    });
  });

  it("links of dangerous schemes: refused, never shown to the host", async (context) => {
    const shown: string[] = [];
    const { session, answered } = await openView((link) => {
      shown.push(link.url);
      return true;
    });
    const urls = ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "https://user:secret@example.com/", "vbscript:msgbox", " javascript:alert(1)", "http://example.com/"];
    urls.forEach((url, i) => session.receive({ jsonrpc: "2.0", id: i + 1, method: "ui/open-link", params: { url } }));
    const replies = await answered(urls.map((_, i) => i + 1));
    for (const reply of replies) expect(reply.error).toBeDefined();
    expect(shown).toEqual([]);
    session.receive({ jsonrpc: "2.0", id: 99, method: "ui/open-link", params: { url: "https://example.com/docs" } });
    await answered([99]);
    expect(shown).toEqual(["https://example.com/docs"]);
    safetyRow(context, {
      area: "Apps",
      tried: "a view asks to open `javascript:`, `data:`, `file:`, `vbscript:`, plain-http and credentialed links",
      over: "stdio",
      outcome: "each refused by the URL elicitation's vetting and never shown to the host; an https link is shown (Conduit opens none)",
    });
  });
});
