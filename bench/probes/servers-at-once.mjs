// `node --expose-gc --max-semi-space-size=1 servers-at-once.mjs <client> <stdio|http> <count>`:
// connects `count` servers at once, eight at a time, each library as it is naturally used
// (clients.mjs): over stdio, children of the awk server (servers/tiny-stdio-server.awk); over
// Streamable HTTP (legacy), connections to one idle-http-server in its own process, each with
// its standalone GET stream open. Reports, for those `count`:
//
//   ms            wall time from the first connect to the last one ready
//   heap, external, arrayBuffers, rss
//                 what they added to the process, per server, in bytes: V8's used heap, the
//                 memory outside it that V8 knows of (Buffers and other ArrayBuffers:
//                 `external` includes `arrayBuffers`), and the resident set size
//   cpuMsPerS, timersPerS, wakeupsPerS, kinds
//                 over an idle window after they are up (wakeups.mjs)
//
// Memory is read after full collections (lib/memory.mjs settle), from a baseline taken once
// WARM servers are connected and have answered a call each: lazy compilation, tiering and the
// modules a first connection loads are paid once, not per server, and must not be divided by
// `count`. Used heap is exact after a full collection; RSS is not (V8 keeps freed pages, malloc
// keeps freed memory, both in chunks of their own choosing), so at 10 servers its per-server
// figure is mostly noise and only at 100 and 1 000 does it say something. Run it with the
// young generation pinned small (--max-semi-space-size=1): V8 otherwise grows it with the
// allocation rate of connecting, a transient of several MiB that lands on whichever batch
// triggers it and that no connection holds.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { tinyStdioServer } from "../lib/targets.mjs";
import { settle } from "../lib/memory.mjs";
import { firstText, httpFactory, stdioFactory } from "./clients.mjs";
import { clientArg, emit } from "./emit.mjs";
import { watchIdle } from "./wakeups.mjs";

const WARM = 24;
const CONCURRENCY = 8;
const SETTLE_MS = 500;
const IDLE_MS = 2_000;

const name = clientArg();
const transport = process.argv[3];
const count = Number(process.argv[4]);
if (transport !== "stdio" && transport !== "http") throw new Error("transport must be stdio or http");
if (!Number.isInteger(count) || count < 1) throw new Error("count must be a whole number");

/** idle-http-server in its own process (its memory and CPU are not the host's). */
async function startHttpServer() {
  const serverPath = fileURLToPath(new URL("../servers/idle-http-server.mjs", import.meta.url));
  const child = spawn(process.execPath, [serverPath], { stdio: ["pipe", "pipe", "inherit"] });
  const { url } = JSON.parse(await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`idle-http-server exited (${code})`)));
  }));
  return { target: url, stop: () => child.stdin.end() };
}

/** Runs `connect()` `n` times, CONCURRENCY at a time, as connectAll does. */
async function connectMany(n, connect) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n) }, async () => {
    while (next < n) {
      next += 1;
      await connect();
    }
  }));
}

const memory = () => {
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  return { heap: heapUsed, external, arrayBuffers, rss };
};

const server = transport === "http" ? await startHttpServer() : { target: tinyStdioServer(), stop() {} };
const factory = transport === "http" ? await httpFactory(name) : await stdioFactory(name);
try {
  // Connected the way the measured ones are (eight at a time), so that the code of that path
  // is compiled and tiered before the baseline.
  await connectMany(WARM, async () => {
    const connection = await factory.connect(server.target);
    if (firstText(await connection.call("echo", { text: "warm" })) !== "warm") throw new Error("echo failed");
  });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await settle();
  const before = memory();

  const t0 = performance.now();
  await connectMany(count, () => factory.connect(server.target));
  const ms = performance.now() - t0;

  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await settle();
  const after = memory();
  const perServer = Object.fromEntries(Object.keys(after).map((key) => [key, (after[key] - before[key]) / count]));
  const idle = await watchIdle(IDLE_MS);
  // Asked only now: fetch loads its own HTTP stack, which must not be in the numbers above.
  const held = transport === "http" ? await (await fetch(new URL("/stats", server.target))).json() : {};
  emit({ ms, ...perServer, ...idle, open: WARM + count, before, after, ...held });
} finally {
  await factory.close();
  server.stop();
}
