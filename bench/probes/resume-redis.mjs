// `node resume-redis.mjs conduit <calls>`: one elicitation round per call (2026-07-28, the raw
// stdio server's `ask`), answered two ways by one Client in one process:
//   inProcessRate  the Handler answers (the whole input pipeline, as in the MRTR row)
//   resumedRate    the call parks (`inputRequired: "return"`), its PendingInput goes through
//                  JSON text, and `client.resume` answers it with the claim in a real Redis on
//                  loopback (`conduit-mcp/redis` on node-redis): what a host on many workers pays
// Needs `redis-server` on the PATH (started here, in a temporary folder, no persistence).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createClient } from "redis";
import { Client, isPendingInput } from "conduit-mcp";
import { redisStore } from "conduit-mcp/redis";
import { rawStdioServer } from "../lib/targets.mjs";
import { clientArg, emit } from "./emit.mjs";

clientArg(["conduit"]);
const calls = Number(process.argv[3] ?? 500);
const UNBOUNDED = { perSecond: 1e9, burst: 1e9 };
const ANSWER = { action: "accept", content: { ok: true } };

const port = await new Promise((resolve) => {
  const probe = net.createServer().listen(0, "127.0.0.1", () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const dir = mkdtempSync(join(tmpdir(), "bench-redis-"));
const redisServer = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], { stdio: "ignore" });
const spawnFailed = new Promise((_, reject) => redisServer.once("error", (error) => reject(new Error(`redis-server could not start: ${error.message}`))));
spawnFailed.catch(() => {});
const redis = createClient({ url: `redis://127.0.0.1:${port}` });
redis.on("error", () => {});
try {
  for (let attempt = 0; ; attempt++) {
    try {
      await Promise.race([redis.connect(), spawnFailed]);
      break;
    } catch (error) {
      if (attempt > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const handler = { handleElicitation: () => ANSWER };
  const client = new Client({ name: "bench-resume", version: "1.0.0", handler, inputRateLimit: UNBOUNDED, store: redisStore(redis, { prefix: "bench:" }) });
  const server = await client.connect("bench", rawStdioServer("modern"), { protocolVersion: "2026-07-28" });

  const inProcess = async (n) => {
    for (let i = 0; i < n; i++) await server.callTool("ask", {});
  };
  const resumed = async (n) => {
    for (let i = 0; i < n; i++) {
      const pending = await server.callTool("ask", {}, { inputRequired: "return" });
      if (!isPendingInput(pending)) throw new Error("the call did not park");
      const carried = JSON.parse(JSON.stringify(pending));
      const responses = Object.fromEntries(Object.keys(carried.inputRequests).map((key) => [key, ANSWER]));
      const result = await client.resume(carried, { responses });
      if (isPendingInput(result)) throw new Error("the server asked again");
    }
  };
  await inProcess(200);
  await resumed(200);
  const rate = async (run) => {
    const t0 = performance.now();
    await run(calls);
    return calls / ((performance.now() - t0) / 1000);
  };
  const inProcessRate = await rate(inProcess);
  const resumedRate = await rate(resumed);
  emit({ inProcessRate, resumedRate, resumedShare: resumedRate / inProcessRate });
  await client.close();
} finally {
  await redis.quit().catch(() => {});
  redisServer.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
