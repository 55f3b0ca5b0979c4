// Tasks followed at once, 10, 100 and 1 000 of them, each with one input round, each
// measurement in a fresh process (bench/probes/tasks.mjs) against the bundled research server
// (a step of 1 s, a poll interval of 200 ms): the host's CPU per task and second lived (flat when
// following costs the same per task whatever their number), the polls against the poll
// intervals the tasks lived (about 1 when the client polls at the server's interval and never
// earlier; below 1 when polls come late), the heap and RSS per task followed, and with a server
// that pushes statuses (2026-07-28 `notifications/tasks`), the task ids the client's listens
// named per task. Conduit alone: the official client has no tasks, and the bare loop none either.
import { fileURLToPath } from "node:url";
import { runProbe } from "../lib/fresh-process.mjs";

const SERVER = fileURLToPath(new URL("../../examples/servers/research-server.mjs", import.meta.url));
const SIZES = [10, 100, 1_000];
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

/** One row per size of what `field` of the probe's report says, in `run`. */
const sized = (run, field, curve, name, row) =>
  SIZES.map((tasks) => ({ key: `${run}.${field}@${tasks}`, name: name(`${tasks.toLocaleString("en-US").replace(/,/g, " ")} tasks at once`), ...row, scale: { curve, x: tasks, xUnit: "tasks" } }));

const RUNS = { modern: [MODERN], listen: [MODERN, "--listen"], legacy: [LEGACY] };
const KIB = 1024;

export default {
  id: "tasks",
  name: "10 to 1 000 tasks at once, one input round each",
  fresh: true,
  repetitions: 3,
  clients: ["conduit"],
  rows: [
    ...sized("modern", "cpuPerTaskSec", "tasks-cpu-modern", (size) => `${size} (${MODERN}): host CPU per task per second`, { unit: "ms", better: "lower" }),
    ...sized("modern", "pollRatio", "tasks-polls", (size) => `${size} (${MODERN}): polls per poll interval lived`, { unit: "×", better: "lower", target: { max: 1.2, text: "≤ 1.2 (never early)" } }),
    ...sized("modern", "heapPerTask", "tasks-heap-modern", (size) => `${size} (${MODERN}): heap per task followed`, { unit: "KiB", better: "lower" }),
    ...sized("modern", "rssPerTask", "tasks-rss-modern", (size) => `${size} (${MODERN}): RSS per task followed`, { unit: "KiB", better: "lower" }),
    ...sized("listen", "listenIdsPerTask", "tasks-listen-ids", (size) => `${size} (${MODERN}, statuses pushed): task ids listened for per task`, { unit: "ids", better: "lower" }),
    ...sized("legacy", "cpuPerTaskSec", "tasks-cpu-legacy", (size) => `${size} (${LEGACY}): host CPU per task per second`, { unit: "ms", better: "lower" }),
    ...sized("legacy", "heapPerTask", "tasks-heap-legacy", (size) => `${size} (${LEGACY}): heap per task followed`, { unit: "KiB", better: "lower" }),
  ],

  async measure(client) {
    const sample = {};
    for (const [run, args] of Object.entries(RUNS)) {
      for (const tasks of SIZES) {
        const { last } = await runProbe("tasks", [client, args[0], tasks, ...args.slice(1), process.execPath, SERVER], { nodeArgs: ["--expose-gc"] });
        for (const [field, value] of Object.entries(last)) sample[`${run}.${field}@${tasks}`] = /PerTask$/.test(field) && field !== "listenIdsPerTask" ? value / KIB : value;
      }
    }
    return sample;
  },
};
