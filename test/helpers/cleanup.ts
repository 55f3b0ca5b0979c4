// What a test opened is closed after it, last opened first, whether the test passed or not.
// Real timers come back first: a test that faked them must not stall the closing.
import { afterEach, vi } from "vitest";

const opened: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const close of opened.splice(0).reverse()) await close();
});

/** Closes `thing` after the current test; returns it. */
export function track<T extends { close(): Promise<unknown> }>(thing: T): T {
  opened.push(() => thing.close());
  return thing;
}
