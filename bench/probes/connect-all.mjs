// `node --expose-gc connect-all.mjs <conduit|sdk> <servers> <command> [args…]`: connects that
// many stdio servers at once, eight at a time, as each library is naturally used for it: Conduit
// with one Client and `connectAll`; the official client with one Client and transport per
// server, connected in parallel the same way. Reports the wall time until all are ready and the
// resident set size they added, per server, settled; then closes everything.
import { performance } from "node:perf_hooks";
import { rss, settle } from "../lib/memory.mjs";
import { clientArg, emit } from "./emit.mjs";

const CONCURRENCY = 8;
const name = clientArg(["conduit", "sdk"]);
const count = Number(process.argv[3]);
const [command, ...args] = process.argv.slice(4);

/** Runs `connect(i)` for every i, `CONCURRENCY` at a time. */
async function inParallel(connect) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await connect(i);
      }
    }),
  );
  return results;
}

let close;
let measure;
if (name === "conduit") {
  const { Client } = await import("conduit-mcp");
  const client = new Client({ name: "bench-conduit", version: "1.0.0" });
  measure = async () => {
    const servers = Array.from({ length: count }, (_, i) => ({ id: `s${i}`, target: { command, args } }));
    const { ready, failed } = await client.connectAll(servers, { concurrency: CONCURRENCY });
    if (failed.length > 0 || ready.length !== count) throw new Error(`connectAll: ${failed.length} failed`);
  };
  close = () => client.close();
} else {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([import("@modelcontextprotocol/client"), import("@modelcontextprotocol/client/stdio")]);
  const clients = [];
  measure = async () => {
    await inParallel(async () => {
      const client = new Client({ name: "bench-sdk", version: "1.0.0" });
      clients.push(client);
      await client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));
    });
  };
  close = () => Promise.all(clients.map((client) => client.close()));
}

try {
  await settle();
  const baseline = rss();
  const t0 = performance.now();
  await measure();
  const ms = performance.now() - t0;
  await settle();
  emit({ ms, perServer: (rss() - baseline) / count });
} finally {
  await close();
}
