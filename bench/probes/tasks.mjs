// `node --expose-gc tasks.mjs conduit <era> <tasks> [--listen] <command> [args…]`: that many
// tasks at once against the bundled research server (examples/servers/research-server.mjs),
// each with one input round that the Handler answers, followed to their ends; with --listen the
// server honours listens for `notifications/tasks` (2026-07-28) and pushes every status. Reports:
//   cpuMs          this process's CPU time over the batch, per task
//   cpuPerTaskSec  the same per second each task lived (creation to end, the server's clocks):
//                  flat when following costs the same per task whatever their number
//   pollRatio      polls per task against the poll intervals the tasks lived (the server counts
//                  both: a client that polls once per interval and never earlier makes about
//                  one poll per interval)
//   heapPerTask, rssPerTask  bytes the followed tasks hold, settled and collected while every
//                  task is in its first step, over what the process held before the batch
//   listenIdsPerTask  task ids the client's listens named, per task (--listen): 1 when each
//                  task is asked for once, and growing with the count when listens are re-made
//
// Conduit's per-server inputRateLimit (default 10/s, burst 20) and, in 2025-11-25, its cap of 8
// server requests at once would refuse most of the inputs that come at once: both are raised out
// of reach, and both are still consulted on every input.
import { Client } from "conduit-mcp";
import { measure } from "../lib/measure.mjs";
import { rss, settle } from "../lib/memory.mjs";
import { clientArg, emit } from "./emit.mjs";

/** The server's step and poll interval: a task lives two steps and an input round. */
export const STEP_MS = 1_000;
export const POLL_MS = 200;
const WARMUP_TASKS = 10;

clientArg(["conduit"]);
const era = process.argv[3];
const tasks = Number(process.argv[4]);
const listen = process.argv[5] === "--listen";
const [command, ...args] = process.argv.slice(listen ? 6 : 5);
if (!(Number.isInteger(tasks) && tasks > 0)) throw new Error(`the count of tasks must be a positive integer, got ${process.argv[4]}`);
if (globalThis.gc === undefined) throw new Error("run with --expose-gc: the memory rows need collections");
const handler = { handleElicitation: () => ({ action: "accept", content: { angle: "science" } }) };
const client = new Client({ name: "bench-tasks", version: "1.0.0", handler, inputRateLimit: { perSecond: 1e9, burst: 1e9 }, maxServerRequests: 1e6 });

/** Starts `count` tasks, follows them to their ends; `during` runs once all are followed. */
async function batch(server, count, during = async () => {}) {
  const started = await Promise.all(Array.from({ length: count }, (_, i) => server.callTool("research", { topic: `t${i}` }, { task: true })));
  const following = started.map((task) => server.awaitTask(task));
  await during();
  const results = await Promise.all(following);
  for (const result of results) if (!String(result.content?.[0]?.text).endsWith("angle of science.")) throw new Error("a task ended without its answered report");
}

const counts = async (server) => (await server.callTool("stats", {})).structuredContent;

try {
  const server = await client.connect("research", { command, args, env: { RESEARCH_STEP_MS: String(STEP_MS), RESEARCH_POLL_MS: String(POLL_MS), RESEARCH_LISTEN: listen ? "1" : "0" } }, { protocolVersion: era });
  await batch(server, WARMUP_TASKS);
  const before = await counts(server);
  await settle();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = rss();
  let held;
  const { cpuMicros } = await measure(() =>
    batch(server, tasks, async () => {
      // Within the first step (STEP_MS) every task is working and followed.
      await settle(2);
      held = { heap: process.memoryUsage().heapUsed - heap0, rss: rss() - rss0 };
    }),
  );
  const after = await counts(server);
  if (after.tasks - before.tasks !== tasks) throw new Error(`the server saw ${after.tasks - before.tasks} tasks end, not ${tasks}`);
  const polls = (after.polls - before.polls) / tasks;
  const intervals = (after.intervals - before.intervals) / tasks;
  const taskSeconds = ((after.intervals - before.intervals) * POLL_MS) / 1000;
  emit({ tasks, cpuMs: cpuMicros / 1000 / tasks, cpuPerTaskSec: cpuMicros / 1000 / taskSeconds, polls, intervals, pollRatio: polls / intervals, heapPerTask: held.heap / tasks, rssPerTask: held.rss / tasks, listenIdsPerTask: (after.listenedIds - before.listenedIds) / tasks });
} finally {
  await client.close();
}
