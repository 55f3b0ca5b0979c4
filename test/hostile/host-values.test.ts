// Hostile values a host hands the client or reads back from its store: a call's `meta` option
// (prototype keys, getters that throw, cycles, huge or sparse values, wrong types) and what
// another worker (or an attacker with the store's password) left in the store for the era
// verdict, the catalog's lists and kept tasks. A `meta` is refused before anything is sent; a
// stored value that is not what the client wrote is no shortcut (a probe, a listing, a "store"
// error), never trusted, never a crash.
import { describe, expect, it } from "vitest";
import { Client, InvalidArgumentError, memoryStore, type Store } from "../../src/node.js";
import { targetKey } from "../../src/era-memory.js";
import { MAX_META_BYTES, MAX_META_KEYS } from "../../src/protocol/request-meta.js";
import { startRawHttp, type RawHttpServer, type RecordedRequest } from "../helpers/raw-http.js";
import { TASKS_EXTENSION } from "../helpers/modern-tasks.js";
import type { RpcMessage } from "../helpers/raw-stdio.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { count, safetyRow } from "./safety.js";

const methodOf = (request: RecordedRequest) => (request.json as RpcMessage | undefined)?.method;
const asked = (srv: RawHttpServer, method: string) => srv.requests.filter((r) => methodOf(r) === method).length;
const client = (store: Store, logger: CapturingLogger = capturingLogger(), extra: object = {}) => track(new Client({ name: "host", version: "1", logger, store, ...extra }));

/** A 2026-07-28 server over HTTP whose tools list comes with a public hour-long hint. */
async function modernServer(): Promise<RawHttpServer> {
  const srv = track(await startRawHttp({ session: false, strictSession: false }));
  srv.handle("server/discover", () => ({
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
    ttlMs: 0,
    cacheScope: "private",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "1" } },
  }));
  srv.handle("tools/list", () => ({ resultType: "complete", tools: [{ name: "t", inputSchema: { type: "object" } }], ttlMs: 3_600_000, cacheScope: "public" }));
  srv.handle("tools/call", () => ({ resultType: "complete", content: [{ type: "text", text: "called" }] }));
  return srv;
}

describe("a call's meta option, hostile", () => {
  it("prototype keys, throwing getters, proxies, cycles, sparse and huge values, wrong types: refused, nothing sent", async (context) => {
    const srv = await modernServer();
    const c = client(memoryStore());
    const server = await c.connect("s", { url: srv.url });
    const getter = Object.defineProperty({}, "k", { enumerable: true, get: () => { throw new Error("a getter that throws"); } });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { deep };
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error("ownKeys trap"); } });
    const refused: Array<[string, unknown]> = [
      ["a JSON-made __proto__ key", JSON.parse('{"__proto__": {"x": 1}}')],
      ["a __proto__ key beside others", JSON.parse('{"app/ok": 1, "__proto__": {}}')],
      ["a value whose getter throws", getter],
      ["a cycle", cyclic],
      ["10 000 levels deep", { deep }],
      ["a sparse array of 10^9", { list: new Array(1e9) }],
      ["10 MiB in one value", { big: "x".repeat(10 * 1024 * 1024) }],
      ["100 000 keys", Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]))],
      ["a BigInt", { n: 1n }],
      ["a function", { f: () => 1 }],
      ["a Date", new Date()],
      ["a string", "app/k=1"],
      ["a number", 7],
      ["an array", [{ "app/k": 1 }]],
    ];
    for (const [what, meta] of refused) {
      const error = await server.callTool("t", {}, { meta: meta as Record<string, unknown> }).catch((e: unknown) => e);
      expect(error, what).toBeInstanceOf(InvalidArgumentError);
    }
    // The host's own object that throws as it is read: a typed refusal that quotes its throw.
    const trapped = await server.callTool("t", {}, { meta: proxy }).catch((e: unknown) => e);
    expect(trapped).toBeInstanceOf(InvalidArgumentError);
    expect((trapped as Error).message).toContain("ownKeys trap");
    expect(asked(srv, "tools/call")).toBe(0);
    // A getter that answers small when first read and big afterwards: refused, never sent (what
    // is sent is the text written once, and checked).
    let reads = 0;
    const growing = Object.defineProperty({}, "app/k", { enumerable: true, get: () => (++reads === 1 ? "small" : "x".repeat(10 * 1024 * 1024)) });
    await expect(server.callTool("t", {}, { meta: growing })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(asked(srv, "tools/call")).toBe(0);
    // Names a server would take for prototype members are keys like any other: sent as given.
    await server.callTool("t", {}, { meta: { constructor: 1, toString: "x", hasOwnProperty: [] } });
    const sent = srv.requests.map((r) => r.json as RpcMessage).filter((m) => m.method === "tools/call").pop()!;
    const meta = (sent.params as { _meta: Record<string, unknown> })._meta;
    const own = Object.fromEntries(Object.entries(meta).filter(([key]) => ["constructor", "toString", "hasOwnProperty"].includes(key)));
    expect(Object.entries(own)).toEqual([["constructor", 1], ["toString", "x"], ["hasOwnProperty", []]]);
    safetyRow(context, {
      area: "Host and store values",
      tried: `a call's \`meta\` with a \`__proto__\` key, a getter or a proxy trap that throws, a getter that grows once checked, a cycle, 10 000 levels, a sparse array of 10⁹, 10 MiB, ${count(100_000)} keys, a BigInt, a function, a Date, or no object at all`,
      over: "Streamable HTTP",
      outcome: `each an \`InvalidArgumentError\` (the proxy's and the getter's quoting their throw) before anything is sent (${count(MAX_META_KEYS)} keys, ${count(MAX_META_BYTES)} bytes, 32 levels, JSON values only); \`constructor\`, \`toString\` are keys like any other and reach the server as given`,
    });
  });
});

describe("values read back from the store, hostile", () => {
  it("an era verdict that is not one the client writes: a probe, and the connect goes on", async (context) => {
    const srv = track(await startRawHttp());
    const key = `conduit:era:${targetKey({ url: srv.url })}`;
    const values = ["LEGACY", "legacy\n", " modern", "legacy".repeat(1_000_000), '{"era":"legacy"}', "__proto__", "constructor", ""];
    let probes = 0;
    for (const value of values) {
      const store = memoryStore();
      await store.set(key, value);
      const c = client(store);
      const server = await c.connect("s", { url: srv.url });
      expect(server.era).toBe("legacy");
      expect(asked(srv, "server/discover")).toBe(++probes);
      // The probe's verdict replaces what was there.
      expect(await store.get(key)).toBe("legacy");
    }
    // A Store that breaks its contract (an object, a number for a string) is no verdict either.
    for (const odd of [{ toString: () => "legacy" }, 1, ["legacy"]]) {
      const store = memoryStore();
      const lying: Store = {
        get: () => Promise.resolve(odd as unknown as string),
        set: (key, value, options) => store.set(key, value, options),
        delete: (key) => store.delete(key),
        setIfAbsent: (key, value, options) => store.setIfAbsent(key, value, options),
      };
      await client(lying).connect("s", { url: srv.url });
      expect(asked(srv, "server/discover")).toBe(++probes);
    }
    safetyRow(context, {
      area: "Host and store values",
      tried: "the store's era verdict of a target is `LEGACY`, `legacy\\n`, 6 MB of `legacy`, JSON, `__proto__`, empty; or, from a Store that breaks its contract, an object, a number, an array",
      over: "Streamable HTTP",
      outcome: `no verdict: each connect probes (${probes} probes) and writes its own verdict over it; only the exact strings \`legacy\` and \`modern\` are read`,
    });
  });

  it("a catalog list or a kept task that is not what the client wrote: ignored with a warning (a listing) or a store error, never used", async (context) => {
    const srv = await modernServer();
    const target = targetKey({ url: srv.url });
    const key = `conduit:catalog:${target}:tools`;
    const written = { type: "conduit-mcp/catalog-list", v: 1, target, kind: "tools", scope: "public", expiresAt: Date.now() + 3_600_000 };
    const evil = { name: "evil", inputSchema: { type: "object" } };
    const values: Array<[string, string]> = [
      ["its fields under a JSON __proto__ key", JSON.stringify({ ["__proto__"]: { ...written, items: [evil] } })],
      ["a tool's name only on its __proto__", `{"type":"conduit-mcp/catalog-list","v":1,"target":"${target}","kind":"tools","scope":"public","expiresAt":${written.expiresAt},"items":[{"__proto__":{"name":"evil"},"inputSchema":{}}]}`],
      ["v as a string", JSON.stringify({ ...written, v: "1", items: [evil] })],
      ["an expiry that is a string", JSON.stringify({ ...written, expiresAt: "never", items: [evil] })],
      ["100 001 items", JSON.stringify({ ...written, items: Array.from({ length: 100_001 }, (_, i) => ({ name: `t${i}`, inputSchema: {} })) })],
      ["items an object", JSON.stringify({ ...written, items: { 0: evil, length: 1 } })],
      ["a tool whose inputSchema is an array", JSON.stringify({ ...written, items: [{ name: "evil", inputSchema: [] }] })],
    ];
    let lists = 0;
    for (const [why, value] of values) {
      const store = memoryStore();
      await store.set(key, value);
      const logger = capturingLogger();
      const c = client(store, logger, { catalogStore: true });
      await c.connect("s", { url: srv.url });
      expect((await c.tools()).map((tool) => tool.name), why).toEqual(["t"]);
      expect(asked(srv, "tools/list"), why).toBe(++lists);
      expect(logger.warnings("ignored the stored tools"), why).toHaveLength(1);
    }
    // A far expiry is held to a day, as the catalog's own cache is: it is read, and given.
    const store = memoryStore();
    await store.set(key, JSON.stringify({ ...written, expiresAt: 1e308, items: [{ name: "kept", inputSchema: {} }] }));
    const far = client(store, capturingLogger(), { catalogStore: true });
    await far.connect("s", { url: srv.url });
    expect((await far.tools()).map((tool) => tool.name)).toEqual(["kept"]);

    // Kept tasks: a record under another task's key, with a JSON __proto__, of a wrong type.
    const tasks = memoryStore();
    const kc = client(tasks);
    await kc.connect("jobs", { url: srv.url });
    const record = { type: "conduit-mcp/kept-task", v: 1, serverId: "jobs", taskId: "task-1", era: "modern", target: "x", task: { taskId: "task-1", status: "working", createdAt: new Date().toISOString() } };
    const tasksTried: string[] = [
      JSON.stringify({ ...record, taskId: "task-2", task: { ...record.task, taskId: "task-2" } }),
      JSON.stringify({ ["__proto__"]: record }),
      JSON.stringify({ ...record, task: { ...record.task, taskId: 1 } }),
      JSON.stringify({ ...record, era: "__proto__" }),
      JSON.stringify([record]),
      "x".repeat(1024 * 1024),
    ];
    for (const text of tasksTried) {
      await tasks.set("conduit:task:jobs:task-1", text);
      await expect(kc.keptTask("jobs", "task-1")).rejects.toMatchObject({ kind: "store" });
    }
    expect(asked(srv, "tasks/get")).toBe(0);
    safetyRow(context, {
      area: "Host and store values",
      tried: "a stored tools list whose fields sit under a JSON `__proto__` key, whose tool's name is only on its `__proto__`, of 100 001 items, of wrong types; a kept task under another task's id, under `__proto__`, of wrong types, 1 MiB of garbage",
      over: "Streamable HTTP",
      outcome: `a list: ignored with one warning each and the server listed (${lists} listings); an expiry of 1e308 held to a day; a task: a \`"store"\` error each, no \`tasks/get\` sent; own members only, as for a server's data`,
    });
  });
});
