// The tools of 50 stdio servers × 100 tools as one catalog, each measurement in a fresh process
// (bench/probes/catalog.mjs): Conduit's `client.tools()` against the catalog a host writes by
// hand on the official client (one Client per server, lists kept until list_changed). Rows: one
// listing while every list is cached, and one after a server said its list changed.
import { fileURLToPath } from "node:url";
import { runProbe } from "../lib/fresh-process.mjs";

const SERVERS = 50;
const TOOLS = 100;
const SERVER = fileURLToPath(new URL("../servers/catalog-server.mjs", import.meta.url));

export default {
  id: "catalog",
  name: "catalog of 50 servers × 100 tools",
  fresh: true,
  repetitions: 3,
  clients: ["conduit", "sdk"],
  rows: [
    { key: "cachedMs", name: "tools() of 50 servers × 100 tools, cached", unit: "ms", better: "lower" },
    { key: "changedMs", name: "tools() of 50 servers × 100 tools, after one list_changed", unit: "ms", better: "lower" },
  ],

  async measure(client) {
    const { last } = await runProbe("catalog", [client, SERVERS, process.execPath, SERVER, "--tools", String(TOOLS)]);
    return { cachedMs: last.cachedMs, changedMs: last.changedMs };
  },
};
