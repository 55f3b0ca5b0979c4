// One catalog across servers: real notes servers with the same tool names, and raw servers
// whose names clash once qualified or are too long; qualified names valid for model APIs and
// stable; calls routed by them; lists cached until the server says they changed.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client } from "../../src/index.js";
import { qualify } from "../../src/host/catalog.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const NOTES = { command: process.execPath, args: [fileURLToPath(new URL("../../examples/servers/notes-server.mjs", import.meta.url))] };
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

async function rawWithTools(names: string[]): Promise<RawStdioServer> {
  const raw = track(await startRawStdio());
  raw.autoInitialize({ capabilities: { tools: { listChanged: true } } });
  raw.handle("tools/list", () => ({ tools: names.map((name) => ({ name, inputSchema: { type: "object" } })) }));
  raw.handle("tools/call", (m) => ({ content: [{ type: "text", text: `called ${String(m.params?.["name"])}` }] }));
  return raw;
}

describe("the catalog", () => {
  it("gives every ready server's tools with their serverId, distinct qualified names, and routes calls by them", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    await client.connect("a", NOTES);
    await client.connect("b", NOTES);
    const tools = await client.tools();
    const names = tools.map((t) => t.qualifiedName);
    expect(names).toContain("a_add_note");
    expect(names).toContain("b_add_note");
    expect(new Set(names).size).toBe(names.length);
    expect(tools.find((t) => t.qualifiedName === "b_word_count")).toMatchObject({ serverId: "b", name: "word_count" });
    const saved = await client.callTool("b_add_note", { title: "x", body: "only on b" });
    expect(saved.content).toEqual([{ type: "text", text: 'saved "x" (2 notes)' }]);
    expect((await client.resources()).map((r) => r.serverId).sort()).toEqual(["a", "b"]);
    expect((await client.prompts()).map((p) => `${p.serverId}:${p.name}`)).toEqual(["a:summarise", "b:summarise"]);
    await expect(client.callTool("c_nothing", {})).rejects.toMatchObject({ kind: "usage" });
  });

  it("shortens names that are too long or clash with a stable hash, never merging two tools", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const long = "x".repeat(80);
    await client.connect("a_b", (await rawWithTools(["c", long])).target);
    await client.connect("a", (await rawWithTools(["b_c", "weird name!"])).target);
    const tools = await client.tools();
    for (const tool of tools) expect(tool.qualifiedName).toMatch(VALID);
    const byServer = (id: string, name: string) => tools.find((t) => t.serverId === id && t.name === name)!.qualifiedName;
    expect(byServer("a_b", "c")).toBe("a_b_c");
    expect(byServer("a", "b_c")).not.toBe("a_b_c");
    expect(byServer("a", "b_c")).toMatch(/^a_b_c_[0-9a-f]{8}$/);
    expect(byServer("a", "weird name!")).toBe("a_weird_name_");
    expect(byServer("a_b", long)).toHaveLength(64);
    // Stable: the same server and name, the same name, run after run.
    expect(qualify("a", "b_c", new Set(["a_b_c"]))).toBe(byServer("a", "b_c"));
    expect((await client.callTool(byServer("a", "b_c"), {})).content).toEqual([{ type: "text", text: "called b_c" }]);
  });

  it("gives a name a server lists three times three qualified names, each routed", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    await client.connect("s", (await rawWithTools(["dup", "dup", "dup"])).target);
    const names = (await client.tools()).map((tool) => tool.qualifiedName);
    expect(names[0]).toBe("s_dup");
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(VALID);
  });

  it("gives the same items again while no list changed, in a new array, and keeps a server's own serverId field out", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const raw = track(await startRawStdio());
    raw.autoInitialize({ capabilities: { tools: {} } });
    raw.handle("tools/list", () => ({ tools: [{ name: "t", serverId: "forged", qualifiedName: "forged_t", inputSchema: { type: "object" } }] }));
    await client.connect("real", raw.target);
    const first = await client.tools();
    expect(first).toEqual([expect.objectContaining({ name: "t", serverId: "real", qualifiedName: "real_t" })]);
    const second = await client.tools();
    expect(second).not.toBe(first);
    expect(second[0]).toBe(first[0]);
    second.pop();
    expect(await client.tools()).toHaveLength(1);
  });

  it("keeps a server's list until it says the list changed, or the host asks afresh", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const raw = await rawWithTools(["t"]);
    await client.connect("s", raw.target);
    const lists = () => (raw.messages as Array<{ method?: string }>).filter((m) => m.method === "tools/list").length;
    await client.tools();
    await client.tools();
    expect(lists()).toBe(1);
    // The catalog listens from its first use; a listener added now runs after it, in the same queue.
    const delivered = new Promise<void>((resolve) => client.onNotification(({ method }) => method === "notifications/tools/list_changed" && resolve()));
    await raw.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await delivered;
    await client.tools();
    expect(lists()).toBe(2);
    await client.tools({ refresh: true });
    expect(lists()).toBe(3);
  });

  describe("of a modern server", () => {
    afterEach(() => vi.useRealTimers());

    async function modern(ttlMs: number | undefined, listChanged: boolean): Promise<RawStdioServer> {
      const raw = track(await startRawStdio());
      raw.handle("server/discover", () => ({
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: listChanged ? { listChanged: true } : {} },
        ttlMs: 0,
        cacheScope: "private",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "1" } },
      }));
      raw.handle("tools/list", () => ({ resultType: "complete", tools: [{ name: "t", inputSchema: { type: "object" } }], ...(ttlMs === undefined ? {} : { ttlMs, cacheScope: "private" }) }));
      return raw;
    }
    const lists = (raw: RawStdioServer) => (raw.messages as RpcMessage[]).filter((m) => m.method === "tools/list").length;

    it("keeps a list for its ttlMs, and lists again once it passed", async () => {
      // Only the monotonic clock is faked: the raw server's sockets run on real timers.
      vi.useFakeTimers({ toFake: ["performance"] });
      const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
      const raw = await modern(60_000, false);
      await client.connect("s", raw.target);
      await client.tools();
      await client.tools();
      expect(lists(raw)).toBe(1);
      vi.advanceTimersByTime(59_000);
      await client.tools();
      expect(lists(raw)).toBe(1);
      vi.advanceTimersByTime(1_000);
      await client.tools();
      expect(lists(raw)).toBe(2);
      // Nothing declared to change: the catalog opened no subscription (it would have come
      // before the listings, on the same pipe).
      expect((raw.messages as RpcMessage[]).some((m) => m.method === "subscriptions/listen")).toBe(false);
    });

    it("takes a missing or negative ttlMs as 0: lists every time", async () => {
      for (const ttl of [undefined, -5]) {
        const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
        const raw = await modern(ttl, false);
        await client.connect("s", raw.target);
        await client.tools();
        await client.tools();
        expect(lists(raw)).toBe(2);
      }
    });

    it("watches the lists the server says may change, and drops a list when it changed", async () => {
      const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
      const raw = await modern(3_600_000, true);
      await client.connect("s", raw.target);
      const first = client.tools();
      const listen = await raw.next("subscriptions/listen");
      expect((listen.params as { notifications: unknown }).notifications).toEqual({ toolsListChanged: true });
      const tag = { "io.modelcontextprotocol/subscriptionId": listen.id };
      await raw.send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: tag } });
      await first;
      await client.tools();
      expect(lists(raw)).toBe(1);
      const delivered = new Promise<void>((resolve) => client.onNotification(({ method }) => method === "notifications/tools/list_changed" && resolve()));
      await raw.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tag } });
      await delivered;
      await client.tools();
      expect(lists(raw)).toBe(2);
      // One subscription per connection, however many listings.
      expect((raw.messages as RpcMessage[]).filter((m) => m.method === "subscriptions/listen").length).toBe(1);
      // When the subscription ends the catalog may have missed a change: it lists again.
      await raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: listen.id } });
      await vi.waitFor(async () => {
        await client.tools();
        expect(lists(raw)).toBeGreaterThanOrEqual(3);
      });
    });
  });
});
