// What the hostile tests measure in their own process: memory while a flood runs, the latency
// of calls to another server meanwhile, and what the client logged, counted rather than kept.
import type { Logger } from "../../src/node.js";

/** The heaviest the process got while sampling, above where it started (bytes). */
export interface MemoryPeak {
  rss: number;
  heapUsed: number;
}

/** Samples memory every few milliseconds until `stop()`; the peak is above the first sample. */
export function sampleMemory(everyMs = 20): { stop(): MemoryPeak } {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  const peak: MemoryPeak = { rss: 0, heapUsed: 0 };
  const sample = (): void => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss - base.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed - base.heapUsed);
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Calls `call` `count` times, one after the other; resolves with the slowest (ms). */
export async function slowestOf(count: number, call: () => Promise<unknown>): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}

/**
 * Calls `call` one after the other until `stop()`; reports how many ran and the slowest (ms).
 * A call that fails ends the loop, and `stop()` rejects with its error (never unhandled: a test
 * that fails before `stop()` closes the server under the loop).
 */
export function probeLatency(call: () => Promise<unknown>): { stop(): Promise<{ calls: number; slowest: number }> } {
  let running = true;
  let calls = 0;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await call();
      slowest = Math.max(slowest, performance.now() - started);
      calls += 1;
    }
  })();
  const failed = loop.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  return {
    async stop() {
      running = false;
      const failure = await failed;
      if (failure !== undefined) throw failure.error;
      return { calls, slowest };
    },
  };
}

export interface CountingLogger extends Logger {
  /** Entries at warn or error. */
  readonly warnings: number;
  /** The first few warning messages, for the failure message. */
  readonly firstWarnings: string[];
}

/** A logger that counts: a host's logger must not be what a flood fills. */
export function countingLogger(): CountingLogger {
  const first: string[] = [];
  let warnings = 0;
  const warn = (message: string): void => {
    warnings += 1;
    if (first.length < 5) first.push(message);
  };
  return {
    debug: () => {},
    info: () => {},
    warn,
    error: warn,
    get warnings() {
      return warnings;
    },
    firstWarnings: first,
  };
}

export const MB = 1024 * 1024;
/** A connection's `maxMessageBytes` when the host gives none (CONNECT_DEFAULTS). */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * MB;

/** Generous: a call on a quiet server takes a few ms; a stalled event loop takes seconds. */
export const LATENCY_BOUND_MS = 2_000;

/**
 * Bounds on the waits of a flood, for a loaded 2-core machine (two battery runs at once took the
 * fetch backend's 2 000 POSTs past 10 s, and a million log lines over HTTP to some 10 s): bounds
 * on a wait, not measures, and nothing asserts them.
 */
export const FLOOD_WAIT_MS = 45_000;
export const FLOOD_TEST_TIMEOUT_MS = 60_000;
