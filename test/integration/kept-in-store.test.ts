// What a Client keeps in its `store` for another worker: two Clients in this process, each with
// its own HTTP connection to one real loopback server, share one store as two host processes
// would share Redis. The era verdict spares the second its probe, the catalog's lists spare it a
// listing while the server's hint allows, and a task kept by the first is followed to its end
// by the second. A store that fails costs a probe or a listing and a warning, never a connect.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, memoryStore, type Store, type TaskHandle } from "../../src/node.js";
import { targetKey } from "../../src/era-memory.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { startRawHttp, type RawHttpServer, type RecordedRequest } from "../helpers/raw-http.js";
import { TASKS_EXTENSION, done, scriptTasks } from "../helpers/modern-tasks.js";
import { track } from "../helpers/cleanup.js";
import type { JsonObject, RpcMessage } from "../helpers/raw-stdio.js";

afterEach(() => vi.useRealTimers());

/** A memory store whose keys written and read are recorded. */
function recordingStore(): Store & { written: string[]; read: string[] } {
  const inner = memoryStore();
  const written: string[] = [];
  const read: string[] = [];
  return {
    written,
    read,
    get: (key) => {
      read.push(key);
      return inner.get(key);
    },
    set: (key, value, options) => {
      written.push(key);
      return inner.set(key, value, options);
    },
    delete: (key) => inner.delete(key),
    setIfAbsent: (key, value, options) => inner.setIfAbsent(key, value, options),
  };
}

/** A store whose every method rejects, as a Redis that went away would. */
const failingStore = (): Store => {
  const down = () => Promise.reject(new Error("connection to the store refused"));
  return { get: down, set: down, delete: down, setIfAbsent: down };
};

const methodOf = (request: RecordedRequest) => (request.json as RpcMessage | undefined)?.method;
const count = (srv: RawHttpServer, method: string) => srv.requests.filter((r) => methodOf(r) === method).length;
const client = (store: Store | undefined, logger: CapturingLogger = capturingLogger(), extra: object = {}) =>
  track(new Client({ name: "host", version: "1", logger, ...(store === undefined ? {} : { store }), ...extra }));

describe("the era verdict in the store", () => {
  it("spares a second Client the probe: it goes straight to initialize; the key holds the target's hash, never its token", async () => {
    const srv = track(await startRawHttp());
    const store = recordingStore();
    const url = `${srv.url}?token=query-secret-1234`;
    await (await client(store).connect("a", { url })).close();
    expect(count(srv, "server/discover")).toBe(1);
    expect(store.written).toEqual([`conduit:era:${targetKey({ url })}`]);
    expect(store.written.join()).not.toContain("query-secret-1234");
    expect(await store.get(store.written[0]!)).toBe("legacy");

    const before = srv.requests.length;
    const second = await client(store).connect("b", { url });
    const methods = srv.requests.slice(before).map(methodOf);
    expect(methods).toContain("initialize");
    expect(methods).not.toContain("server/discover");
    expect(second.era).toBe("legacy");
  });

  it("is forgotten in the store too when a connect on it fails: the next Client probes", async () => {
    const srv = track(await startRawHttp());
    const store = recordingStore();
    await (await client(store).connect("a", { url: srv.url })).close();
    const key = `conduit:era:${targetKey({ url: srv.url })}`;
    expect(await store.get(key)).toBe("legacy");
    // Now the server refuses every initialize: the remembered verdict fails, and the connect with it.
    srv.handle("initialize", () => ({ error: { code: -32603, message: "down for maintenance" } }));
    await expect(client(store).connect("b", { url: srv.url })).rejects.toBeDefined();
    await vi.waitFor(async () => expect(await store.get(key)).toBeUndefined());
  });

  it("costs a probe and one warning when the store fails, never the connect", async () => {
    const srv = track(await startRawHttp());
    const logger = capturingLogger();
    const server = await client(failingStore(), logger).connect("a", { url: srv.url });
    expect(server.era).toBe("legacy");
    expect(count(srv, "server/discover")).toBe(1);
    await server.close();
    expect(logger.warnings("store")).toHaveLength(1);
    expect(logger.warnings("store")[0]).toContain("connection to the store refused");
  });
});

/** A 2026-07-28 server over HTTP whose tools/list carries the hint and scope given. */
async function modernServer(hint: { ttlMs: number; cacheScope: "public" | "private" }, listChanged = false): Promise<RawHttpServer> {
  const srv = track(await startRawHttp({ session: false, strictSession: false }));
  srv.handle("server/discover", () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: listChanged ? { listChanged: true } : {}, extensions: { [TASKS_EXTENSION]: {} } },
    ttlMs: 0,
    cacheScope: "private",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "1" } },
  }));
  srv.handle("tools/list", () => ({ resultType: "complete", tools: [{ name: "t", inputSchema: { type: "object" } }], ...hint }));
  return srv;
}

/** The modern server above, whose one tool a search can find by its words. */
async function weatherServer(hint: { ttlMs: number; cacheScope: "public" | "private" }): Promise<RawHttpServer> {
  const srv = await modernServer(hint);
  const forecast = { name: "forecast", description: "The weather forecast for a city", inputSchema: { type: "object" } };
  srv.handle("tools/list", () => ({ resultType: "complete", tools: [forecast], ...hint }));
  return srv;
}

describe("the catalog's lists in the store (catalogStore)", () => {
  it("spares a fresh Client's first tools() the listing while the hint allows, and lists once it has passed", async () => {
    // Only the clocks are faked (the sockets run on real timers): the wall clock the stored
    // expiry is read on, and the monotonic one of the memory store and the catalog.
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    const srv = await modernServer({ ttlMs: 60_000, cacheScope: "public" });
    const store = recordingStore();
    const first = client(store, capturingLogger(), { catalogStore: true });
    await first.connect("s", { url: srv.url });
    expect((await first.tools()).map((tool) => tool.name)).toEqual(["t"]);
    expect(count(srv, "tools/list")).toBe(1);
    expect(store.written).toContain(`conduit:catalog:${targetKey({ url: srv.url })}:tools`);

    const second = client(store, capturingLogger(), { catalogStore: true });
    await second.connect("s", { url: srv.url });
    expect((await second.tools()).map((tool) => [tool.name, tool.qualifiedName])).toEqual([["t", "s_t"]]);
    expect(count(srv, "tools/list")).toBe(1);
    vi.advanceTimersByTime(59_000);
    await second.tools();
    expect(count(srv, "tools/list")).toBe(1);
    vi.advanceTimersByTime(1_000);
    await second.tools();
    expect(count(srv, "tools/list")).toBe(2);
  });

  it("writes nothing without the option, nothing for a list without a hint, and looks for none again on that connection", async () => {
    const hinted = await modernServer({ ttlMs: 60_000, cacheScope: "public" });
    const store = recordingStore();
    const plain = client(store);
    await plain.connect("s", { url: hinted.url });
    await plain.tools();
    const unhinted = await modernServer({ ttlMs: 0, cacheScope: "public" });
    const opted = client(store, capturingLogger(), { catalogStore: true });
    await opted.connect("s", { url: unhinted.url });
    await opted.tools();
    await opted.tools();
    expect(count(unhinted, "tools/list")).toBe(2);
    expect(store.written.filter((key) => key.startsWith("conduit:catalog:"))).toEqual([]);
    expect(store.read.filter((key) => key.startsWith("conduit:catalog:"))).toEqual([`conduit:catalog:${targetKey({ url: unhinted.url })}:tools`]);
  });

  it("does not share a private list by default; does when the store is the user's own", async () => {
    const srv = await modernServer({ ttlMs: 3_600_000, cacheScope: "private" });
    const shared = recordingStore();
    for (const _ of [1, 2]) {
      const c = client(shared, capturingLogger(), { catalogStore: true });
      await c.connect("s", { url: srv.url });
      await c.tools();
    }
    expect(count(srv, "tools/list")).toBe(2);
    expect(shared.written.filter((key) => key.startsWith("conduit:catalog:"))).toEqual([]);
    const own = memoryStore();
    for (const _ of [1, 2]) {
      const c = client(own, capturingLogger(), { catalogStore: { privateLists: true } });
      await c.connect("s", { url: srv.url });
      await c.tools();
    }
    expect(count(srv, "tools/list")).toBe(3);
  });

  it("drops the stored list when the server says it changed: the next Client lists", async () => {
    const srv = await modernServer({ ttlMs: 3_600_000, cacheScope: "public" }, true);
    srv.handle("subscriptions/listen", () => undefined);
    const store = memoryStore();
    const key = `conduit:catalog:${targetKey({ url: srv.url })}:tools`;
    const first = client(store, capturingLogger(), { catalogStore: true });
    await first.connect("s", { url: srv.url });
    const listing = first.tools();
    const listen = await srv.nextPending("subscriptions/listen");
    const tag = { "io.modelcontextprotocol/subscriptionId": listen.id };
    listen.write({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: tag } });
    await listing;
    expect(await store.get(key)).toBeDefined();
    const heard = new Promise<void>((resolve) => first.onNotification(({ method }) => method === "notifications/tools/list_changed" && resolve()));
    listen.write({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tag } });
    await heard;
    await vi.waitFor(async () => expect(await store.get(key)).toBeUndefined());
    const second = client(store, capturingLogger(), { catalogStore: true });
    await second.connect("s", { url: srv.url });
    await second.tools();
    expect(count(srv, "tools/list")).toBe(2);
  });

  it("ignores a corrupt or foreign stored value with a warning, and lists", async () => {
    const srv = await modernServer({ ttlMs: 3_600_000, cacheScope: "public" });
    const target = targetKey({ url: srv.url });
    const key = `conduit:catalog:${target}:tools`;
    const written = { type: "conduit-mcp/catalog-list", v: 1, target, kind: "tools", scope: "public", expiresAt: Date.now() + 3_600_000 };
    const corrupt: Array<[string, string]> = [
      ["not JSON", "{not json"],
      ["not a list the catalog wrote", JSON.stringify({ tools: [] })],
      ["another target", JSON.stringify({ ...written, target: "0000000000000000", items: [] })],
      ["item 1", JSON.stringify({ ...written, items: [{ name: "ok", inputSchema: { type: "object" } }, { name: "evil" }] })],
    ];
    let lists = 0;
    for (const [why, value] of corrupt) {
      const store = memoryStore();
      await store.set(key, value);
      const logger = capturingLogger();
      const c = client(store, logger, { catalogStore: true });
      await c.connect("s", { url: srv.url });
      expect((await c.tools()).map((tool) => tool.name)).toEqual(["t"]);
      expect(count(srv, "tools/list")).toBe(++lists);
      expect(logger.warnings("ignored the stored tools")).toHaveLength(1);
      expect(logger.warnings("ignored the stored tools")[0]).toContain(why);
    }
  });

  it("lets a search find a lazy server's tools without starting it, and starts it on the first call of one found", async () => {
    const srv = await weatherServer({ ttlMs: 3_600_000, cacheScope: "public" });
    srv.handle("tools/call", () => ({ resultType: "complete", content: [{ type: "text", text: "called" }] }));
    const store = memoryStore();
    const first = client(store, capturingLogger(), { catalogStore: true });
    await first.connect("s", { url: srv.url });
    await first.tools();
    await first.close();
    const before = srv.requests.length;

    const second = client(store, capturingLogger(), { catalogStore: true });
    const lazy = await second.connect("s", { url: srv.url }, { lazy: true });
    const hits = await second.searchTools("weather forecast");
    expect(hits.map((hit) => hit.tool.qualifiedName)).toEqual(["s_forecast"]);
    expect((await second.tools()).map((tool) => tool.qualifiedName)).toEqual(["s_forecast"]);
    expect(lazy.state).toBe("idle");
    expect(srv.requests.length).toBe(before);

    const result = await second.callTool("s_forecast", {});
    expect(result).toMatchObject({ content: [{ type: "text", text: "called" }] });
    expect(lazy.state).toBe("ready");
    expect(srv.requests.slice(before).map(methodOf)).toEqual(expect.arrayContaining(["server/discover", "tools/call"]));
    expect(count(srv, "tools/list")).toBe(1);
  });

  it("starts a lazy server to list it when the store holds no fresh list of it, or the option is off", async () => {
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    const srv = await weatherServer({ ttlMs: 60_000, cacheScope: "public" });
    const store = memoryStore();
    const first = client(store, capturingLogger(), { catalogStore: true });
    await first.connect("s", { url: srv.url });
    await first.tools();
    const off = client(store);
    const notKept = await off.connect("s", { url: srv.url }, { lazy: true });
    expect((await off.searchTools("weather forecast")).map((hit) => hit.tool.qualifiedName)).toEqual(["s_forecast"]);
    expect(notKept.state).toBe("ready");

    vi.advanceTimersByTime(60_000);
    const late = client(store, capturingLogger(), { catalogStore: true });
    const expired = await late.connect("s", { url: srv.url }, { lazy: true });
    expect((await late.searchTools("weather forecast")).map((hit) => hit.tool.qualifiedName)).toEqual(["s_forecast"]);
    expect(expired.state).toBe("ready");
  });

  it("lists, with a warning, when the store fails", async () => {
    const srv = await modernServer({ ttlMs: 3_600_000, cacheScope: "public" });
    const logger = capturingLogger();
    const c = client(failingStore(), logger, { catalogStore: true });
    await c.connect("s", { url: srv.url });
    expect((await c.tools()).map((tool) => tool.name)).toEqual(["t"]);
    expect(count(srv, "tools/list")).toBe(1);
    expect(logger.warnings("the catalog lists the server instead").length).toBeGreaterThanOrEqual(1);
  });
});

describe("tasks kept in the store", () => {
  it("2026-07-28: a task kept by one Client is followed by a second once the first has gone, under a lease, and forgotten at its end", async () => {
    const srv = await modernServer({ ttlMs: 0, cacheScope: "public" });
    const script = scriptTasks(srv, [{ status: "working" }]);
    const store = memoryStore();
    const first = client(store);
    const a = await first.connect("jobs", { url: srv.url });
    const handle = (await a.callTool("t", {}, { task: { keep: true } })) as TaskHandle;
    expect(handle).toMatchObject({ serverId: "jobs", taskId: "task-1", status: "working" });
    expect(JSON.parse((await store.get("conduit:task:jobs:task-1"))!)).toMatchObject({ serverId: "jobs", taskId: "task-1", era: "modern" });
    // The first follows it; while it does, the lease keeps a second follower out.
    const following = a.awaitTask(handle).catch((error: unknown) => error);
    await script.polled(1);
    const second = client(store);
    await second.connect("jobs", { url: srv.url });
    const picked = await second.keptTask("jobs", "task-1");
    expect(picked).toMatchObject({ serverId: "jobs", taskId: "task-1", createdAt: handle.createdAt, ttlMs: handle.ttlMs });
    await expect(second.server("jobs")!.awaitTask(picked)).rejects.toMatchObject({ kind: "usage", message: expect.stringContaining("another worker") });
    await first.close();
    expect(await following).toMatchObject({ kind: "closed" });
    // The first has gone: the second follows the task to its end.
    const gets = script.gets.length;
    const result = second.server("jobs")!.awaitTask(picked);
    await script.polled(gets + 1);
    script.steps = [done("picked up")];
    expect((await result).content).toEqual([{ type: "text", text: "picked up" }]);
    expect(await store.get("conduit:task:jobs:task-1")).toBeUndefined();
    expect(await store.get("conduit:task-lease:jobs:task-1")).toBeUndefined();
    await expect(second.keptTask("jobs", "task-1")).rejects.toMatchObject({ kind: "usage", message: expect.stringContaining("no task") });
  });

  it("2025-11-25: a kept task is picked up by a second Client on its own session and followed through tasks/result", async () => {
    const capabilities = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
    const srv = track(await startRawHttp({ protocolVersion: "2025-11-25", capabilities }));
    const task = (status: string): JsonObject => ({ taskId: "t-1", status, createdAt: new Date().toISOString(), ttl: 60_000, pollInterval: 10 });
    let status = "working";
    srv.handle("tools/list", () => ({ tools: [{ name: "job", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }] }));
    srv.handle("tools/call", () => ({ task: task("working") }));
    srv.handle("tasks/get", () => task(status));
    srv.handle("tasks/result", () => ({ content: [{ type: "text", text: "legacy done" }], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t-1" } } }));
    const store = memoryStore();
    const first = client(store);
    const a = await first.connect("jobs", { url: srv.url });
    expect(a.protocolVersion).toBe("2025-11-25");
    const handle = (await a.callTool("job", {}, { task: { keep: true, ttlMs: 60_000 } })) as TaskHandle;
    const tasksCall = srv.requests.map((r) => r.json as RpcMessage | undefined).find((m) => m?.method === "tools/call")!;
    // `keep` is the client's own: the server is asked for the ttl alone.
    expect(tasksCall.params?.["task"]).toEqual({ ttl: 60_000 });
    await first.close();
    const second = client(store);
    await second.connect("jobs", { url: srv.url });
    const picked = await second.keptTask("jobs", handle.taskId);
    status = "completed";
    expect((await second.server("jobs")!.awaitTask(picked)).content).toEqual([{ type: "text", text: "legacy done" }]);
    expect(await store.get("conduit:task:jobs:t-1")).toBeUndefined();
    // The two Clients had sessions of their own.
    expect(new Set(srv.requests.map((r) => r.headers["mcp-session-id"]).filter((id) => id !== undefined)).size).toBe(2);
  });

  it("says clearly when no server of the id is connected, when nothing is kept, and when keeping fails", async () => {
    const srv = await modernServer({ ttlMs: 0, cacheScope: "public" });
    scriptTasks(srv, [{ status: "working" }]);
    const store = memoryStore();
    const c = client(store);
    await expect(c.keptTask("jobs", "task-1")).rejects.toMatchObject({ kind: "usage", message: expect.stringContaining('no server "jobs"') });
    await c.connect("jobs", { url: srv.url });
    await expect(c.keptTask("jobs", "task-1")).rejects.toMatchObject({ kind: "usage", message: expect.stringContaining("no task") });
    await store.set("conduit:task:jobs:task-1", JSON.stringify({ type: "conduit-mcp/kept-task", v: 1, serverId: "jobs", taskId: "task-1", era: "modern", target: "x", task: { taskId: "task-1", status: "bogus" } }));
    await expect(c.keptTask("jobs", "task-1")).rejects.toMatchObject({ kind: "store", message: expect.stringContaining("not a kept task") });

    const failing = client(failingStore());
    const s = await failing.connect("jobs", { url: srv.url });
    const error = await s.callTool("t", {}, { task: { keep: true } }).catch((e: unknown) => e);
    // The task was made: its handle comes with the error, to follow or cancel.
    expect(error).toMatchObject({ kind: "store", data: { taskId: "task-1", serverId: "jobs" } });
  });
});
