// What wakes a process up while it should be idle: every callback the event loop runs, counted by
// kind over a window, with the CPU time the process spent meanwhile. An idle host with servers
// connected should run nothing at all: a timer per server (a keep-alive, a poll) is CPU that
// grows with the servers and keeps a laptop awake.
//
// Counted with an async_hooks `before` hook: it runs before each callback of a timer, an
// immediate, a socket or pipe read, an HTTP parser, … including Node's own internal timers
// (socket timeouts, the HTTP agent's), which a patch of the global setTimeout would miss, and
// including an interval each time it fires (it is made once but runs many times). Promise
// reactions are not counted: they only run inside some other callback.
import { createHook, executionAsyncResource } from "node:async_hooks";
import { setTimeout as sleep } from "node:timers/promises";

const TIMER_KINDS = new Set(["Timeout", "Immediate"]);

const kindOf = (resource) => resource?.constructor?.name ?? "unknown";

/** A timer by its period and its callback's name: enough to find where it is armed. */
const timerOf = (resource) => `${resource._idleTimeout} ms ${resource._onTimeout?.name || "(anonymous)"}`;

/**
 * Watches for `ms` milliseconds. Resolves with { cpuMsPerS, timersPerS, wakeupsPerS, kinds,
 * timers }: process CPU (user + system) per second of window, timer and immediate callbacks per
 * second, all callbacks per second, the count per kind, and the timers that fired, by period and
 * callback. The window's own sleep is one timer, taken
 * off the counts.
 */
export async function watchIdle(ms) {
  const kinds = {};
  const timerCounts = {};
  const hook = createHook({
    before() {
      const resource = executionAsyncResource();
      const kind = kindOf(resource);
      if (kind === "PromiseWrap" || kind === "Promise") return;
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      if (kind === "Timeout") timerCounts[timerOf(resource)] = (timerCounts[timerOf(resource)] ?? 0) + 1;
    },
  });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  hook.enable();
  await sleep(ms);
  hook.disable();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (kinds.Timeout > 0) kinds.Timeout -= 1; // the window's own sleep
  let timers = 0;
  let wakeups = 0;
  for (const [kind, count] of Object.entries(kinds)) {
    wakeups += count;
    if (TIMER_KINDS.has(kind)) timers += count;
  }
  return { cpuMsPerS: (cpu.user + cpu.system) / 1000 / seconds, timersPerS: timers / seconds, wakeupsPerS: wakeups / seconds, kinds, timers: timerCounts };
}
