import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadline, DeadlineQueue, type ExpiryReason } from "../../src/rpc/deadline.js";

describe("Deadline", () => {
  let expired: ExpiryReason[];
  beforeEach(() => {
    vi.useFakeTimers();
    expired = [];
  });
  afterEach(() => vi.useRealTimers());
  let queue: DeadlineQueue;
  beforeEach(() => {
    queue = new DeadlineQueue();
  });
  const make = (timeout: number, total?: number) => new Deadline(queue, timeout, total, { expired: (r) => expired.push(r) });

  it("expires after the timeout, once", () => {
    make(100);
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual(["timeout"]);
  });

  it("does not tick while paused, and resumes with the time that was left", () => {
    const d = make(100);
    vi.advanceTimersByTime(60);
    d.pause();
    vi.advanceTimersByTime(10_000);
    expect(expired).toEqual([]);
    d.resume();
    vi.advanceTimersByTime(39);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["timeout"]);
  });

  it("nests pauses: only the last resume restarts the clock", () => {
    const d = make(100);
    d.pause();
    d.pause();
    d.resume();
    vi.advanceTimersByTime(500);
    expect(expired).toEqual([]);
    d.resume();
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(["timeout"]);
  });

  it("never lets a pause outlast maxTotalTimeout", () => {
    const d = make(100, 250);
    vi.advanceTimersByTime(50);
    d.pause();
    vi.advanceTimersByTime(199);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["maxTotalTimeout"]);
  });

  it("restarts on progress, also while paused", () => {
    const d = make(100);
    vi.advanceTimersByTime(90);
    d.restart();
    vi.advanceTimersByTime(90);
    expect(expired).toEqual([]);
    d.pause();
    d.restart();
    d.resume();
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["timeout"]);
  });

  it("treats Infinity as no per-request deadline, and clear() stops everything", () => {
    make(Infinity);
    vi.advanceTimersByTime(10 ** 9);
    expect(expired).toEqual([]);
    const d = make(100, 200);
    d.clear();
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual([]);
  });

  it("shares one timer: many deadlines, each expiring at its own time", () => {
    const order: string[] = [];
    const at = (name: string, ms: number) => new Deadline(queue, ms, undefined, { expired: () => order.push(name) });
    at("c", 300);
    at("a", 100);
    const b = at("b", 200);
    at("d", 400).clear();
    vi.advanceTimersByTime(150);
    expect(order).toEqual(["a"]);
    b.restart();
    vi.advanceTimersByTime(150);
    expect(order).toEqual(["a", "c"]);
    vi.advanceTimersByTime(49);
    expect(order).toEqual(["a", "c"]);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(["a", "c", "b"]);
    vi.advanceTimersByTime(50);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("expires each due deadline once, whatever its owner does to the others meanwhile", () => {
    const order: string[] = [];
    const deadlines = new Map<string, Deadline>();
    const at = (name: string, ms: number, onExpiry: () => void = () => {}) => {
      const deadline = new Deadline(queue, ms, undefined, {
        expired: () => {
          order.push(name);
          onExpiry();
        },
      });
      deadlines.set(name, deadline);
      return deadline;
    };
    // Four due together: the first one's owner settles the third (never expired), restarts the
    // fourth (expired at its new time) and makes a deadline due at once.
    at("first", 100, () => {
      deadlines.get("third")!.clear();
      deadlines.get("fourth")!.restart();
      at("made", 0);
    });
    at("second", 100);
    at("third", 100);
    at("fourth", 100);
    at("later", 500);
    // Gone from the middle of the list before anything fires.
    at("cleared", 100).clear();
    vi.advanceTimersByTime(100);
    expect(order.slice(0, 2)).toEqual(["first", "second"]);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(["first", "second", "made"]);
    vi.advanceTimersByTime(98);
    expect(order).toEqual(["first", "second", "made"]);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(["first", "second", "made", "fourth"]);
    vi.advanceTimersByTime(300);
    expect(order).toEqual(["first", "second", "made", "fourth", "later"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves its timer armed but unreferenced when nothing is watched", () => {
    const d = make(10_000);
    d.clear();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(expired).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("a call whose timeout restarts on progress", () => {
  it("gets a total bound of 10 minutes unless it names one", async () => {
    const { PendingCall, PROGRESS_TOTAL_DEFAULT } = await import("../../src/rpc/pending-call.js");
    const host = { deadlines: new DeadlineQueue(), requestTimeout: 1000, expire: () => {}, abort: () => {} };
    expect(PROGRESS_TOTAL_DEFAULT).toBe(600_000);
    expect(new PendingCall(1, "tools/call", { resetTimeoutOnProgress: true }, host, true).maxTotalTimeout).toBe(600_000);
    expect(new PendingCall(2, "tools/call", { resetTimeoutOnProgress: true, maxTotalTimeout: 5 }, host, true).maxTotalTimeout).toBe(5);
    expect(new PendingCall(3, "tools/call", {}, host, true).maxTotalTimeout).toBeUndefined();
  });
});
