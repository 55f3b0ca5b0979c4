// Memory as a process sees its own: resident set size now, and the kernel's high-water mark.
// Used inside the probes (bench/probes/), each a fresh process, so no other client's heap is in
// what they read.
import { setTimeout as sleep } from "node:timers/promises";

export const MB = 1024 * 1024;

/** Resident set size now, in bytes. */
export const rss = () => process.memoryUsage.rss();

/** The most this process has been resident so far, in bytes (getrusage's ru_maxrss). */
export const maxRss = () => process.resourceUsage().maxRSS * 1024;

/**
 * Full collections until the heap stops shrinking, with pauses for the finalizers of sockets
 * and buffers: what remains is what is really held. Needs --expose-gc; without it, only waits.
 */
export async function settle(rounds = 3) {
  for (let i = 0; i < rounds; i++) {
    globalThis.gc?.();
    await sleep(20);
  }
}

/**
 * The peak resident set size over a stretch of work: sampled on a timer and whenever `sample()`
 * is called (the timer starves while the event loop is busy), and the kernel's high-water mark
 * when it rose during the stretch (it then holds the true peak, whatever the sampling missed).
 */
export class PeakRss {
  constructor(intervalMs = 5) {
    this.maxBefore = maxRss();
    this.peak = rss();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample() {
    const now = rss();
    if (now > this.peak) this.peak = now;
  }

  stop() {
    clearInterval(this.timer);
    this.sample();
    const maxAfter = maxRss();
    if (maxAfter > this.maxBefore && maxAfter > this.peak) this.peak = maxAfter;
    return this.peak;
  }
}
