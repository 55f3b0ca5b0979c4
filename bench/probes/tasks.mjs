// `node tasks.mjs conduit <era> <command> [args…]`: 100 tasks at once against the bundled
// research server (examples/servers/research-server.mjs), each with one input round that the
// Handler answers, followed to their ends. Reports this process's CPU time per task, and the
// polls per task against the poll intervals the tasks lived (the server counts both: a client
// that polls once per interval and never earlier makes about one poll per interval).
//
// Conduit's per-server inputRateLimit (default 10/s, burst 20) and, in 2025-11-25, its cap of 8
// server requests at once would refuse most of 100 inputs that come at once: both are raised out
// of reach, and both are still consulted on every input.
import { Client } from "conduit-mcp";
import { measure } from "../lib/measure.mjs";
import { clientArg, emit } from "./emit.mjs";

const TASKS = 100;
const WARMUP_TASKS = 10;

clientArg(["conduit"]);
const era = process.argv[3];
const [command, ...args] = process.argv.slice(4);
const handler = { handleElicitation: () => ({ action: "accept", content: { angle: "science" } }) };
const client = new Client({ name: "bench-tasks", version: "1.0.0", handler, inputRateLimit: { perSecond: 1e9, burst: 1e9 }, maxServerRequests: 1000 });

async function batch(server, count) {
  const started = await Promise.all(Array.from({ length: count }, (_, i) => server.callTool("research", { topic: `t${i}` }, { task: true })));
  const results = await Promise.all(started.map((task) => server.awaitTask(task)));
  for (const result of results) if (!String(result.content?.[0]?.text).endsWith("angle of science.")) throw new Error("a task ended without its answered report");
}

const counts = async (server) => (await server.callTool("stats", {})).structuredContent;

try {
  const server = await client.connect("research", { command, args, env: { RESEARCH_STEP_MS: "200", RESEARCH_POLL_MS: "50" } }, { protocolVersion: era });
  await batch(server, WARMUP_TASKS);
  const before = await counts(server);
  const { cpuMicros } = await measure(() => batch(server, TASKS));
  const after = await counts(server);
  const polls = (after.polls - before.polls) / TASKS;
  const intervals = (after.intervals - before.intervals) / TASKS;
  emit({ cpuMs: cpuMicros / 1000 / TASKS, polls, intervals, pollRatio: polls / intervals });
} finally {
  await client.close();
}
