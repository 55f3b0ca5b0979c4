// `node --expose-gc catalog.mjs <conduit|sdk> <servers> [--adapters|--search] <command> [args…]`: the
// tools of that many stdio servers (each with many) as one catalog, as each library is used for
// it. Conduit: one Client, `connectAll`, `client.tools()`. The official client: one Client per
// server and the catalog a host writes by hand on it: each server's list kept until its
// `list_changed`, the lists joined with `<serverId>_<name>` names on each call.
//
// Reports, for the catalog of every server:
//   coldMs      the first `tools()`: every server lists, the catalog is made (wall time)
//   warmCpuMs   one `tools()` while every list is cached (CPU time, the mean of many)
//   heapMiB     the heap the catalog holds, settled and collected, over what it was before it
//   changedMs   after one server's `list_changed`: from the moment the client heard it until a
//               `tools()` gave the fresh catalog (that server lists again; the median of several)
//   remade      how many tools of that fresh catalog are new objects: the tools re-made for the
//               change (the changed server's own, when only its part is rebuilt)
// With --adapters (Conduit), also the CPU time of turning the whole catalog into each model
// API's tool definitions (`conduit-mcp/adapters`, no count bound): `<adapter>CpuMs`. With
// --search (Conduit), `client.searchTools` of one question: `searchColdMs` the first search
// (every server's index made), `searchWarmCpuMs` a search over the indexes made (CPU, the mean).
import { performance } from "node:perf_hooks";
import { settle } from "../lib/memory.mjs";
import { clientArg, emit } from "./emit.mjs";

const CONCURRENCY = 8;
const CHANGES = 5;
const MiB = 1024 * 1024;
const name = clientArg(["conduit", "sdk"]);
const count = Number(process.argv[3]);
const adapters = process.argv[4] === "--adapters";
const search = process.argv[4] === "--search";
const [command, ...args] = process.argv.slice(adapters || search ? 5 : 4);
if (globalThis.gc === undefined) throw new Error("run with --expose-gc: the heap row needs collections");

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU ms of one run of `work`, the mean of as many runs as fill about `budgetMs` (3 at least). */
async function cpuPerRun(work, budgetMs = 200, most = 50) {
  await work();
  const t0 = cpuMs();
  let runs = 0;
  do {
    await work();
    runs++;
  } while (runs < 3 || (runs < most && cpuMs() - t0 < budgetMs));
  return (cpuMs() - t0) / runs;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

let client;
let tools;
/** Sends `change` to server s0; resolves with `now()` when the client heard its list changed. */
let change;
let close;
if (name === "conduit") {
  const { Client } = await import("conduit-mcp");
  client = new Client({ name: "bench-conduit", version: "1.0.0" });
  const servers = Array.from({ length: count }, (_, i) => ({ id: `s${i}`, target: { command, args } }));
  const { failed } = await client.connectAll(servers, { concurrency: CONCURRENCY });
  if (failed.length > 0) throw new Error(`connectAll: ${failed.length} failed`);
  tools = () => client.tools();
  change = async () => {
    const heard = new Promise((resolve) => {
      const off = client.onNotification(({ method }) => method === "notifications/tools/list_changed" && (off(), resolve(performance.now())));
    });
    await client.callTool("s0_change", {});
    return heard;
  };
  close = () => client.close();
} else {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([import("@modelcontextprotocol/client"), import("@modelcontextprotocol/client/stdio")]);
  const entries = [];
  let heard;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const entry = { id: `s${next++}`, client: new Client({ name: "bench-sdk", version: "1.0.0" }), list: undefined };
        entries.push(entry);
        entry.client.setNotificationHandler("notifications/tools/list_changed", () => {
          entry.list = undefined;
          heard?.(performance.now());
        });
        await entry.client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));
      }
    }),
  );
  entries.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  const listAll = async (server) => {
    const all = [];
    let cursor;
    do {
      const page = await server.listTools(cursor === undefined ? undefined : { cursor });
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return all;
  };
  tools = async () => {
    const lists = await Promise.all(entries.map((entry) => (entry.list ??= listAll(entry.client))));
    const catalog = [];
    lists.forEach((list, i) => {
      for (const tool of list) catalog.push({ serverId: entries[i].id, qualifiedName: `${entries[i].id}_${tool.name}`, ...tool });
    });
    return catalog;
  };
  change = async () => {
    const done = new Promise((resolve) => (heard = resolve));
    await entries[0].client.callTool({ name: "change", arguments: {} });
    return done;
  };
  close = () => Promise.all(entries.map((entry) => entry.client.close()));
}

async function adapterTimes(catalog) {
  const { toAiSdkTools, toAnthropicTools, toOpenAIChatTools } = await import("conduit-mcp/adapters");
  const all = { maxTools: Infinity };
  const jsonSchema = (schema) => schema;
  return {
    openaiCpuMs: await cpuPerRun(() => toOpenAIChatTools(catalog, all)),
    openaiStrictCpuMs: await cpuPerRun(() => toOpenAIChatTools(catalog, { ...all, strict: true })),
    anthropicCpuMs: await cpuPerRun(() => toAnthropicTools(catalog, all)),
    aiSdkCpuMs: await cpuPerRun(() => toAiSdkTools(catalog, client, { ...all, jsonSchema, aiVersion: 6 })),
  };
}

/** One question of a model, asked of the whole catalog: the first time, then over the indexes made. */
async function searchTimes() {
  const question = "a tool that does one thing well, number 42";
  const t0 = performance.now();
  const first = await client.searchTools(question, { limit: 10 });
  const searchColdMs = performance.now() - t0;
  if (first.length !== 10) throw new Error(`the search found ${first.length} tools`);
  return { searchColdMs, searchWarmCpuMs: await cpuPerRun(() => client.searchTools(question, { limit: 10 })) };
}

try {
  await settle();
  const heapBefore = process.memoryUsage().heapUsed;
  let t0 = performance.now();
  let catalog = await tools();
  const coldMs = performance.now() - t0;
  if (catalog.length < count) throw new Error(`the catalog has ${catalog.length} tools`);
  const total = catalog.length;
  catalog = undefined;
  await settle();
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / MiB;
  const warmCpuMs = await cpuPerRun(tools);
  const changed = [];
  let remade;
  for (let i = 0; i < CHANGES; i++) {
    const before = new Set(await tools());
    t0 = await change();
    const fresh = await tools();
    changed.push(performance.now() - t0);
    remade = fresh.reduce((sum, tool) => sum + (before.has(tool) ? 0 : 1), 0);
  }
  const extra = adapters ? await adapterTimes(await tools()) : search ? await searchTimes() : {};
  emit({ tools: total, coldMs, warmCpuMs, heapMiB, changedMs: median(changed), remade, ...extra });
} finally {
  await close();
}
