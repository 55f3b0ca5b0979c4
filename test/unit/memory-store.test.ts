// The memory store against the Store contract, on fake timers (its expiry reads the monotonic
// clock, which the fake timers move with `performance`).
import { afterEach, beforeEach, vi } from "vitest";
import { memoryStore } from "../../src/stores/memory-store.js";
import { storeConformance } from "../helpers/store-conformance.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
});

afterEach(() => {
  vi.useRealTimers();
});

storeConformance("memoryStore", {
  make: () => {
    // One store, two names for it: in one process a memory store is its own only backing.
    const store = memoryStore();
    return Promise.resolve({ store, twin: store });
  },
  elapse: async (ms) => {
    await vi.advanceTimersByTimeAsync(ms);
  },
  shortTtlMs: 1_000,
});
