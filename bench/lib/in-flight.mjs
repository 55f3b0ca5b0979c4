// Calls in flight on one connection, timed per call: a pool of `width` slots, each starting the
// next call as soon as its last one ends, so `width` stay outstanding until the last wave.
// Shared by the stdio scenario (in-process) and the HTTP probe (a fresh process each).
import { performance } from "node:perf_hooks";
import { ECHO_ARGS } from "./calls.mjs";

export const WIDTHS = [64, 1_000, 10_000];

/** Calls per round at `width`: `calls`, and at least three full waves of the pool. */
export const callsAt = (width, calls) => Math.max(calls, 3 * width);

/**
 * `n` echo calls with `width` outstanding; resolves with { rate, p50, p99 }: calls per second
 * over the whole round, and the quantiles of each call's own latency (ms, performance.now()
 * from just before the call to its settling).
 */
export async function timedInFlight(connection, n, width) {
  const latencies = new Float64Array(n);
  let started = 0;
  const slot = async () => {
    while (started < n) {
      const i = started++;
      const t0 = performance.now();
      await connection.call("echo", ECHO_ARGS);
      latencies[i] = performance.now() - t0;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(width, n) }, slot));
  const seconds = (performance.now() - t0) / 1_000;
  latencies.sort();
  const quantile = (q) => latencies[Math.min(n - 1, Math.ceil(q * n) - 1)];
  return { rate: n / seconds, p50: quantile(0.5), p99: quantile(0.99) };
}

/** A label for a width as the rows print it: 1 000, 10 000. */
export const widthText = (width) => width.toLocaleString("en-US").replaceAll(",", " ");

/**
 * The rows of one transport: per width, calls/s, p50 and p99, each a point of its curve.
 * `name(width)` is the row name's stem; keys are `rate64`, `p50_1000`, …
 */
export function inFlightRows(transport, name) {
  return WIDTHS.flatMap((width) => {
    const scale = (measure) => ({ curve: `in-flight-${transport}-${measure}`, x: width, xUnit: "calls in flight" });
    const stem = name(width);
    return [
      { key: `rate${width}`, name: stem, unit: "calls/s", better: "higher", scale: scale("rate") },
      { key: `p50_${width}`, name: `${stem}: p50 latency`, unit: "ms", better: "lower", scale: scale("p50") },
      { key: `p99_${width}`, name: `${stem}: p99 latency`, unit: "ms", better: "lower", scale: scale("p99") },
    ];
  });
}

/** One sample of every width, keyed as inFlightRows names them. */
export async function sampleWidths(connection, calls, widths = WIDTHS) {
  const sample = {};
  for (const width of widths) {
    const { rate, p50, p99 } = await timedInFlight(connection, callsAt(width, calls), width);
    Object.assign(sample, { [`rate${width}`]: rate, [`p50_${width}`]: p50, [`p99_${width}`]: p99 });
  }
  return sample;
}
