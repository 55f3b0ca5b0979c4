// The "servers connected at once" scale rows, for one transport: at 10, 100 and 1 000 servers,
// each measurement a fresh process (probes/servers-at-once.mjs), five rows per size.
//
// Memory per server is the used V8 heap plus the memory outside it that V8 accounts for
// (Buffers and other ArrayBuffers), read after full collections, over a baseline taken once 24
// servers are up (connected eight at a time, as the measured ones) and have answered a call:
// the objects, closures, maps, timers and buffers a connection holds. That is the row with the
// target. RSS is beside it and is not the measure: it moves by whole heap pages and malloc
// arenas, and so with the free room each library's import happened to leave in its heap (the
// old 50-server RSS row gave 1.3x and 3.1x the official client's on runs of the same code). A
// whole-process RSS divided by the servers counts each library's import as memory per server,
// which is how an earlier figure made Conduit look 0.46x the official client's: after its import
// the official client's process is some 17 MB larger, 170 KiB per server at 100. The native
// part of a connection that only RSS sees (pipe and socket handles) is the same for every
// client on one transport, but for Conduit's third pipe (the stderr it keeps a tail of).
import { runProbe } from "./fresh-process.mjs";

export const SIZES = [10, 100, 1000];
const KIB = 1024;

/** The scenario object for `transport` ("stdio" | "http"); `what(n)` names n servers. */
export function serversAtOnce({ id, transport, what, target }) {
  const curve = (metric) => `servers-${transport}-${metric}`;
  const rows = SIZES.flatMap((n) => {
    const scale = (metric) => ({ curve: curve(metric), x: n, xUnit: transport === "http" ? "connections" : "servers" });
    const name = `${what(n)}`;
    const memoryTarget = n === 100 ? { target } : {};
    return [
      { key: `ms${n}`, name: `${name}: connect time`, unit: "ms", better: "lower", scale: scale("connect-ms") },
      { key: `memory${n}`, name: `${name}: heap + buffers per server`, unit: "KiB", better: "lower", scale: scale("memory"), ...memoryTarget },
      { key: `rss${n}`, name: `${name}: RSS per server (noisy)`, unit: "KiB", better: "lower", scale: scale("rss") },
      { key: `cpu${n}`, name: `${name}: CPU while idle`, unit: "ms/s", better: "lower", scale: scale("idle-cpu") },
      { key: `timers${n}`, name: `${name}: timers while idle`, unit: "/s", better: "lower", scale: scale("idle-timers") },
    ];
  });

  return {
    id,
    name: what("N"),
    fresh: true,
    repetitions: 3,
    // The probe warms itself up (its first 24 servers are not measured).
    warmup: false,
    rows,

    async measure(client) {
      const sample = {};
      for (const n of SIZES) {
        const { last } = await runProbe("servers-at-once", [client, transport, n], {
          nodeArgs: ["--expose-gc", "--max-semi-space-size=1"],
          timeout: 180_000,
        });
        if (transport === "http" && last.streams !== last.open) throw new Error(`${last.streams} of ${last.open} GET streams were open`);
        sample[`ms${n}`] = last.ms;
        sample[`memory${n}`] = (last.heap + last.external) / KIB;
        sample[`rss${n}`] = last.rss / KIB;
        sample[`cpu${n}`] = last.cpuMsPerS;
        sample[`timers${n}`] = last.timersPerS;
      }
      return sample;
    },
  };
}
