// The pure parts of what the client keeps in a store, on fake clocks: a store call that hangs is
// given up at its bound, and a task's lease outlives its TTL while it is renewed, not after.
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryStore } from "../../src/node.js";
import { KeptTasks, TASK_LEASE_MS } from "../../src/kept-tasks.js";
import { STORE_CALL_BOUND_MS, storeCall } from "../../src/util/store-bound.js";
import { capturingLogger } from "../helpers/logger.js";

afterEach(() => vi.useRealTimers());

describe("a store call the client makes for itself", () => {
  it("is a \"store\" error naming its step when the store does not answer within the bound", async () => {
    vi.useFakeTimers();
    const outcome = storeCall("reading the era of a target", () => new Promise<never>(() => {})).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(STORE_CALL_BOUND_MS - 1);
    let settled = false;
    void outcome.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ kind: "store", message: expect.stringContaining("reading the era of a target") });
  });

  it("is a \"store\" error with the store's own as its cause when the store rejects or throws", async () => {
    const refused = new Error("refused");
    await expect(storeCall("writing", () => Promise.reject(refused))).rejects.toMatchObject({ kind: "store", cause: refused });
    await expect(
      storeCall("writing", () => {
        throw refused;
      }),
    ).rejects.toMatchObject({ kind: "store", cause: refused });
  });
});

describe("the lease on following a kept task", () => {
  it("keeps a second follower out while it is renewed, past its TTL, and lets one in once released", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const store = memoryStore();
    const kept = new KeptTasks(store, capturingLogger(), "jobs", "0123456789abcdef");
    const lease = await kept.lease("task-1");
    await expect(kept.lease("task-1")).rejects.toMatchObject({ kind: "usage" });
    await vi.advanceTimersByTimeAsync(TASK_LEASE_MS * 3);
    await expect(kept.lease("task-1")).rejects.toMatchObject({ kind: "usage" });
    await lease.release();
    const next = await kept.lease("task-1");
    await next.release();
  });

  it("of a worker that stopped renewing it expires with its TTL", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const store = memoryStore();
    await store.setIfAbsent("conduit:task-lease:jobs:task-1", "a worker that died", { ttlMs: TASK_LEASE_MS });
    const kept = new KeptTasks(store, capturingLogger(), "jobs", "0123456789abcdef");
    await expect(kept.lease("task-1")).rejects.toMatchObject({ kind: "usage" });
    vi.advanceTimersByTime(TASK_LEASE_MS);
    const lease = await kept.lease("task-1");
    await lease.release();
  });
});
