// `node catalog.mjs <conduit|sdk> <servers> <command> [args…]`: the tools of that many stdio
// servers (each with many) as one catalog, as each library is used for it. Conduit: one Client,
// `connectAll`, `client.tools()`. The official client: one Client per server and the catalog a
// host writes by hand on it: each server's list kept until its `list_changed`, the lists joined
// with `<serverId>_<name>` names. Reports the time of one `tools()` while every list is cached,
// and of one `tools()` after one server said its list changed (that list is fetched again).
import { performance } from "node:perf_hooks";
import { clientArg, emit } from "./emit.mjs";

const CONCURRENCY = 8;
const CACHED_CALLS = 50;
const CHANGES = 10;
const name = clientArg(["conduit", "sdk"]);
const count = Number(process.argv[3]);
const [command, ...args] = process.argv.slice(4);

let tools;
let change;
let close;
if (name === "conduit") {
  const { Client } = await import("conduit-mcp");
  const client = new Client({ name: "bench-conduit", version: "1.0.0" });
  const servers = Array.from({ length: count }, (_, i) => ({ id: `s${i}`, target: { command, args } }));
  const { failed } = await client.connectAll(servers, { concurrency: CONCURRENCY });
  if (failed.length > 0) throw new Error(`connectAll: ${failed.length} failed`);
  tools = () => client.tools();
  change = async () => {
    const heard = new Promise((resolve) => {
      const off = client.onNotification(({ method }) => method === "notifications/tools/list_changed" && (off(), resolve()));
    });
    await client.callTool("s0_change", {});
    await heard;
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
          heard?.();
        });
        await entry.client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));
      }
    }),
  );
  const listAll = async (client) => {
    const all = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return all;
  };
  tools = async () => {
    const lists = await Promise.all(entries.map((entry) => (entry.list ??= listAll(entry.client))));
    const catalog = [];
    lists.forEach((list, i) => {
      for (const tool of list) catalog.push({ ...tool, serverId: entries[i].id, qualifiedName: `${entries[i].id}_${tool.name}` });
    });
    return catalog;
  };
  change = async () => {
    const done = new Promise((resolve) => (heard = resolve));
    await entries.find((entry) => entry.id === "s0").client.callTool({ name: "change", arguments: {} });
    await done;
  };
  close = () => Promise.all(entries.map((entry) => entry.client.close()));
}

try {
  const first = await tools();
  if (first.length < count) throw new Error(`the catalog has ${first.length} tools`);
  let t0 = performance.now();
  for (let i = 0; i < CACHED_CALLS; i++) await tools();
  const cachedMs = (performance.now() - t0) / CACHED_CALLS;
  let changedMs = 0;
  for (let i = 0; i < CHANGES; i++) {
    await change();
    t0 = performance.now();
    await tools();
    changedMs += performance.now() - t0;
  }
  emit({ cachedMs, changedMs: changedMs / CHANGES, tools: first.length });
} finally {
  await close();
}
