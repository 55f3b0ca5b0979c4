// One catalog across servers: real notes servers with the same tool names, and raw servers
// whose names clash once qualified or are too long; qualified names valid for model APIs and
// the same whatever else is listed, in whatever order; calls routed by them, and names that
// stand for no tool refused without a listing; lists cached until the server says they changed.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const NOTES = { command: process.execPath, args: [fileURLToPath(new URL("../../examples/servers/notes-server.mjs", import.meta.url))] };
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

async function rawWithTools(names: string[] | (() => string[]), tag = ""): Promise<RawStdioServer> {
  const raw = track(await startRawStdio());
  raw.autoInitialize({ capabilities: { tools: { listChanged: true } } });
  raw.handle("tools/list", () => ({ tools: (typeof names === "function" ? names() : names).map((name) => ({ name, inputSchema: { type: "object" } })) }));
  raw.handle("tools/call", (m) => ({ content: [{ type: "text", text: `${tag}called ${String(m.params?.["name"])}` }] }));
  return raw;
}

const sent = (raw: RawStdioServer, method: string) => (raw.messages as RpcMessage[]).filter((m) => m.method === method).length;
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

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
    await expect(client.callTool("c_nothing", {})).rejects.toMatchObject({ kind: "unsupported" });
  });

  it("names a tool by its server and its name alone: the same names in either order of connecting, and while another server's list fails", async () => {
    const long = "x".repeat(80);
    /** Two clients' catalogs of the same servers, named by (server, tool). */
    const namesOf = (tools: Array<{ serverId: string; name: string; qualifiedName: string }>) => new Map(tools.map((t) => [`${t.serverId}/${t.name}`, t.qualifiedName]));

    // Client 1: a_b, whose first listing fails, then a. Asked while a_b's list fails, a's "b_c"
    // must not take the name a_b's "c" would have, or the name would change owner later.
    const first = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    let listings = 0;
    const aB = track(await startRawStdio());
    aB.autoInitialize({ capabilities: { tools: {} } });
    aB.handle("tools/list", () => (listings++ === 0 ? { error: { code: -32603, message: "not ready yet" } } : { tools: ["c", long].map((name) => ({ name, inputSchema: { type: "object" } })) }));
    aB.handle("tools/call", (m) => ({ content: [{ type: "text", text: `a_b called ${String(m.params?.["name"])}` }] }));
    await first.connect("a_b", aB.target);
    await first.connect("a", (await rawWithTools(["b_c", "weird name!", "weird name?"], "a ")).target);
    const whileFailing = namesOf(await first.tools());
    expect([...whileFailing.keys()]).toEqual(["a/b_c", "a/weird name!", "a/weird name?"]);
    const handedOut = whileFailing.get("a/b_c")!;
    const tools = await first.tools();
    expect(listings).toBe(2);
    const after = namesOf(tools);
    for (const [tool, name] of whileFailing) expect(after.get(tool)).toBe(name);
    for (const tool of tools) expect(tool.qualifiedName).toMatch(VALID);
    expect(new Set(after.values()).size).toBe(after.size);
    expect(after.get("a/b_c")).toBe("a_b_c");
    expect(after.get("a_b/c")).not.toBe("a_b_c");
    expect(after.get("a/weird name!")).not.toBe(after.get("a/weird name?"));

    // Client 2: the same servers connected the other way round, every list good at once.
    const second = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    await second.connect("a", (await rawWithTools(["b_c", "weird name!", "weird name?"], "a ")).target);
    await second.connect("a_b", (await rawWithTools(["c", long], "a_b ")).target);
    expect(namesOf(await second.tools())).toEqual(after);

    // The name handed out first still reaches a's b_c; a_b's c has its own.
    expect(textOf(await first.callTool(handedOut, {}))).toBe("a called b_c");
    expect(textOf(await first.callTool(after.get("a_b/c")!, {}))).toBe("a_b called c");
    expect(textOf(await first.callTool(after.get("a/weird name?")!, {}))).toBe("a called weird name?");
  });

  it("keeps the first tool of a name a server lists twice: one name is one tool", async () => {
    const logger = capturingLogger();
    const client = track(new Client({ name: "host", version: "1", logger }));
    const raw = track(await startRawStdio());
    raw.autoInitialize({ capabilities: { tools: {} } });
    raw.handle("tools/list", () => ({ tools: [1, 2, 3].map((n) => ({ name: "dup", description: `copy ${n}`, inputSchema: { type: "object" } })) }));
    await client.connect("s", raw.target);
    const tools = await client.tools();
    expect(tools.map((tool) => [tool.qualifiedName, tool.description])).toEqual([["s_dup", "copy 1"]]);
    expect(logger.warnings('server "s" listed 2 tools under a name it had listed before')).toHaveLength(1);
  });

  it("refuses a tool its server no longer lists as unsupported, naming it, without listing or calling", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    let names = ["kept", "gone"];
    const raw = await rawWithTools(() => names);
    await client.connect("s", raw.target);
    expect((await client.tools()).map((tool) => tool.qualifiedName)).toEqual(["s_kept", "s_gone"]);
    names = ["kept"];
    const delivered = new Promise<void>((resolve) => client.onNotification(({ method }) => method === "notifications/tools/list_changed" && resolve()));
    await raw.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await delivered;
    expect((await client.tools()).map((tool) => tool.qualifiedName)).toEqual(["s_kept"]);
    const failure = await client.callTool("s_gone", {}).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: "unsupported", serverId: "s" });
    expect((failure as Error).message).toContain("s_gone");
    // The list was not asked again, and the server never saw a call of it.
    expect(textOf(await client.callTool("s_kept", {}))).toBe("called kept");
    expect(sent(raw, "tools/list")).toBe(2);
    expect((raw.messages as RpcMessage[]).filter((m) => m.method === "tools/call").map((m) => m.params?.["name"])).toEqual(["kept"]);
  });

  it("lists no server when a model calls unknown names in a loop, whatever the servers' lists do", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const good = await rawWithTools(["t"]);
    // One whose list always fails, one modern without a cache hint (its list is stale at once).
    const failing = track(await startRawStdio());
    failing.autoInitialize({ capabilities: { tools: {} } });
    failing.handle("tools/list", () => ({ error: { code: -32603, message: "no list today" } }));
    const stale = track(await startRawStdio());
    stale.handle("server/discover", () => ({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      ttlMs: 0,
      cacheScope: "private",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "1" } },
    }));
    stale.handle("tools/list", () => ({ resultType: "complete", tools: [{ name: "m", inputSchema: { type: "object" } }] }));
    for (const raw of [good, failing]) raw.handle("ping", () => ({}));
    await client.connect("good", good.target);
    await client.connect("failing", failing.target);
    await client.connect("stale", stale.target);
    expect((await client.tools()).map((tool) => tool.qualifiedName)).toEqual(["good_t", "stale_m"]);
    const before = [sent(good, "tools/list"), sent(failing, "tools/list"), sent(stale, "tools/list")];
    expect(before).toEqual([1, 1, 1]);
    const unknown = ["good_nope", "nobody_t", "t", "good t", "x".repeat(100_000), "good_t__0000000000000z", "_good_t"];
    for (let round = 0; round < 10; round++) {
      for (const name of unknown) await expect(client.callTool(name, {})).rejects.toMatchObject({ kind: "unsupported" });
    }
    // Round trips on each pipe prove the client wrote nothing before them.
    await client.server("good")!.ping();
    await client.server("failing")!.ping();
    // The modern one has no ping: a listing of its own is the round trip (and the one listing).
    await client.server("stale")!.listTools();
    expect([sent(good, "tools/list"), sent(failing, "tools/list"), sent(stale, "tools/list")]).toEqual([1, 1, 2]);
    expect([good, failing, stale].map((raw) => sent(raw, "tools/call"))).toEqual([0, 0, 0]);
  });

  it("gives the same items again while no list changed, in a new array, and keeps a server's own serverId field out", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const raw = track(await startRawStdio());
    raw.autoInitialize({ capabilities: { tools: {} } });
    raw.handle("tools/list", () => ({ tools: [{ name: "t", serverId: "forged", qualifiedName: "forged_t", restarting: true, inputSchema: { type: "object" } }] }));
    await client.connect("real", raw.target);
    const first = await client.tools();
    expect(first).toEqual([expect.objectContaining({ name: "t", serverId: "real", qualifiedName: "real_t" })]);
    expect(first[0]).not.toHaveProperty("restarting");
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

  it("re-makes only the tools of the server whose list changed: every other tool stays the same object", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    let version = 1;
    const changing = await rawWithTools(() => ["x", "y"].map((name) => `${name}${version}`));
    await client.connect("a", (await rawWithTools(["one", "two"])).target);
    await client.connect("b", changing.target);
    await client.connect("c", (await rawWithTools(["three"])).target);
    const before = await client.tools();
    version = 2;
    const delivered = new Promise<void>((resolve) => client.onNotification(({ serverId, method }) => serverId === "b" && method === "notifications/tools/list_changed" && resolve()));
    await changing.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await delivered;
    const after = await client.tools();
    expect(after.map((tool) => tool.qualifiedName)).toEqual(["a_one", "a_two", "b_x2", "b_y2", "c_three"]);
    const kept = new Set<unknown>(before);
    expect(after.map((tool) => kept.has(tool))).toEqual([true, true, false, false, true]);
    expect(sent(changing, "tools/list")).toBe(2);
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
