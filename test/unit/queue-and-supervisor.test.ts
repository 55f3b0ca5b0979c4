// The input pipeline's bounds: the notification queue (src/input/notification-queue.ts), the
// supervised callback (src/input/supervisor.ts), the input budget (src/input/budget.ts) and
// the log gate (src/input/logs.ts). Time is a fake clock wherever it matters.
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NotificationQueue } from "../../src/input/notifications.js";
import { HandlerTimeoutError, supervise, type Supervised } from "../../src/input/supervisor.js";
import { InputBudget } from "../../src/input/budget.js";
import { LogGate } from "../../src/input/notifications.js";
import { INPUT_DEFAULTS } from "../../src/input/options.js";
import { DeadlineQueue } from "../../src/rpc/deadline.js";
import { capturingLogger } from "../helpers/logger.js";
import { deferred } from "../helpers/raw-stdio.js";

/** Lets every pending microtask and promise callback run (real timers only). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tracks whether a promise has settled, without awaiting it. */
function track<T>(promise: T | Promise<T>): { settled: boolean; value: T | undefined } {
  const state: { settled: boolean; value: T | undefined } = { settled: false, value: undefined };
  void Promise.resolve(promise).then((value) => {
    state.settled = true;
    state.value = value;
  });
  return state;
}

afterEach(() => {
  vi.useRealTimers();
});

// ---- NotificationQueue --------------------------------------------------------------------------

describe("NotificationQueue", () => {
  it("runs jobs one at a time in push order", async () => {
    const queue = new NotificationQueue(10, capturingLogger());
    const ran: number[] = [];
    for (let i = 1; i <= 5; i++) queue.push(() => ran.push(i));
    await queue.idle();
    expect(ran).toEqual([1, 2, 3, 4, 5]);
  });

  it("lets go of a job, and what it holds, once the job has run", async () => {
    v8.setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const queue = new NotificationQueue(10, capturingLogger());
    const refs: WeakRef<object>[] = [];
    for (let i = 0; i < 3; i++) {
      const params = { data: "x".repeat(1000) };
      refs.push(new WeakRef(params));
      queue.push(() => params.data.length);
    }
    await queue.idle();
    // WeakRef targets live to the end of the current turn: collect on a later one.
    await new Promise<void>((resolve) => setImmediate(resolve));
    collect();
    expect(refs.map((ref) => ref.deref())).toEqual([undefined, undefined, undefined]);
  });

  it("never starts a job synchronously inside push()", async () => {
    const queue = new NotificationQueue(10, capturingLogger());
    const ran: string[] = [];
    expect(queue.push(() => ran.push("job"))).toBe(true);
    ran.push("after push");
    expect(ran).toEqual(["after push"]);
    await queue.idle();
    expect(ran).toEqual(["after push", "job"]);
  });

  it("awaits an async job's promise before it starts the next", async () => {
    const queue = new NotificationQueue(10, capturingLogger());
    const gate = deferred<void>();
    const events: string[] = [];
    queue.push(async () => {
      events.push("first started");
      await gate.promise;
      events.push("first done");
    });
    queue.push(() => events.push("second"));
    await settle();
    await settle();
    expect(events).toEqual(["first started"]);
    gate.resolve();
    await queue.idle();
    expect(events).toEqual(["first started", "first done", "second"]);
  });

  it("logs a job that throws or rejects, and runs the next", async () => {
    const logger = capturingLogger();
    const queue = new NotificationQueue(10, logger);
    const ran: string[] = [];
    const boom = new Error("boom");
    queue.push(() => {
      throw boom;
    });
    queue.push(() => ran.push("after throw"));
    queue.push(() => Promise.reject(new Error("async boom")));
    queue.push(() => ran.push("after reject"));
    await queue.idle();
    expect(ran).toEqual(["after throw", "after reject"]);
    const warnings = logger.entries.filter((e) => e.level === "warn");
    expect(warnings.map((e) => e.message)).toEqual(["a notification hook threw; skipped", "a notification hook threw; skipped"]);
    expect(warnings[0]!.fields).toEqual({ error: boom });
    expect((warnings[1]!.fields!.error as Error).message).toBe("async boom");
  });

  it("accepts 1000 waiting jobs and drops the 1001st, counting it", async () => {
    expect(INPUT_DEFAULTS.maxQueuedNotifications).toBe(1000);
    const logger = capturingLogger();
    const queue = new NotificationQueue(INPUT_DEFAULTS.maxQueuedNotifications, logger);
    let ran = 0;
    const accepted = Array.from({ length: 1001 }, () => queue.push(() => void (ran += 1)));
    expect(accepted.slice(0, 1000).every(Boolean)).toBe(true);
    expect(accepted[1000]).toBe(false);
    expect(queue.dropped).toBe(1);
    expect(queue.waiting).toBe(1000);
    expect(logger.warnings("notification queue full")).toEqual(["notification queue full: 1 notification(s) dropped so far"]);
    await queue.idle();
    expect(ran).toBe(1000);
    expect(queue.waiting).toBe(0);
  });

  it("counts only waiting jobs against the bound, not the one running", async () => {
    const queue = new NotificationQueue(2, capturingLogger());
    const gate = deferred<void>();
    const ran: string[] = [];
    queue.push(async () => {
      ran.push("a");
      await gate.promise;
    });
    await settle();
    expect(ran).toEqual(["a"]);
    expect(queue.push(() => ran.push("b"))).toBe(true);
    expect(queue.push(() => ran.push("c"))).toBe(true);
    expect(queue.push(() => ran.push("d"))).toBe(false);
    expect(queue.dropped).toBe(1);
    gate.resolve();
    await queue.idle();
    expect(ran).toEqual(["a", "b", "c"]);
  });

  it("accepts jobs again once the queue has drained", async () => {
    const queue = new NotificationQueue(1, capturingLogger());
    const ran: string[] = [];
    expect(queue.push(() => ran.push("a"))).toBe(true);
    expect(queue.push(() => ran.push("b"))).toBe(false);
    await queue.idle();
    expect(queue.push(() => ran.push("c"))).toBe(true);
    await queue.idle();
    expect(ran).toEqual(["a", "c"]);
    expect(queue.dropped).toBe(1);
  });

  it("warns on the 1st, 10th, 100th, … drop, not on each", () => {
    const logger = capturingLogger();
    const queue = new NotificationQueue(0, logger);
    for (let i = 0; i < 2500; i++) queue.push(() => undefined);
    expect(queue.dropped).toBe(2500);
    expect(logger.warnings("notification queue full")).toEqual([
      "notification queue full: 1 notification(s) dropped so far",
      "notification queue full: 10 notification(s) dropped so far",
      "notification queue full: 100 notification(s) dropped so far",
      "notification queue full: 1000 notification(s) dropped so far",
    ]);
  });

  it("when full, drops the newest of the server holding the most, never a quieter server's", async () => {
    const queue = new NotificationQueue(4, capturingLogger());
    const flood = { dropped: 0 };
    const quiet = { dropped: 0 };
    const gate = deferred<void>();
    const ran: string[] = [];
    queue.push(() => gate.promise, flood);
    await settle();
    for (let i = 1; i <= 6; i++) queue.push(() => ran.push(`flood ${i}`), flood);
    // Full with flood 1–4: the quiet server's two take the places of flood 4 and 3.
    expect(queue.push(() => ran.push("quiet 1"), quiet)).toBe(true);
    expect(queue.push(() => ran.push("quiet 2"), quiet)).toBe(true);
    // Two each: the one that holds no more than the heaviest loses its own.
    expect(queue.push(() => ran.push("quiet 3"), quiet)).toBe(false);
    expect(queue.push(() => ran.push("flood 7"), flood)).toBe(false);
    expect(queue.waiting).toBe(4);
    expect(flood.dropped).toBe(5);
    expect(quiet.dropped).toBe(1);
    expect(queue.dropped).toBe(6);
    gate.resolve();
    await queue.idle();
    expect(ran).toEqual(["flood 1", "flood 2", "quiet 1", "quiet 2"]);
    // Places freed are everyone's again.
    for (let i = 0; i < 4; i++) expect(queue.push(() => undefined, flood)).toBe(true);
  });

  it("keeps nothing of a server once none of its jobs waits, evicted ones included", async () => {
    const queue = new NotificationQueue(2, capturingLogger());
    const gate = deferred<void>();
    const servers = Array.from({ length: 1000 }, () => ({ dropped: 0 }));
    queue.push(() => gate.promise, servers[0]);
    await settle();
    queue.push(() => undefined, servers[0]);
    queue.push(() => undefined, servers[0]);
    // Each new server takes the newest place of the heaviest, then loses it to the next.
    for (const server of servers.slice(1)) queue.push(() => undefined, server);
    expect(queue.waiting).toBe(2);
    expect(queue.sources).toBeLessThanOrEqual(2);
    gate.resolve();
    await queue.idle();
    expect(queue.sources).toBe(0);
  });

  it("keeps each server's order across compactions of a long queue", async () => {
    const queue = new NotificationQueue(5000, capturingLogger());
    const a = { dropped: 0 };
    const b = { dropped: 0 };
    const ran: number[] = [];
    for (let i = 0; i < 4000; i++) queue.push(() => ran.push(i), i % 2 === 0 ? a : b);
    await queue.idle();
    expect(ran).toEqual(Array.from({ length: 4000 }, (_, i) => i));
    expect(queue.waiting).toBe(0);
    expect(queue.sources).toBe(0);
  });

  it("runs a job pushed by a running job after it, in order", async () => {
    const queue = new NotificationQueue(10, capturingLogger());
    const ran: string[] = [];
    queue.push(() => {
      ran.push("a");
      queue.push(() => ran.push("c"));
    });
    queue.push(() => ran.push("b"));
    await queue.idle();
    expect(ran).toEqual(["a", "b", "c"]);
  });

  it("resolves idle() at once when empty, and only once drained otherwise", async () => {
    const queue = new NotificationQueue(10, capturingLogger());
    await expect(queue.idle()).resolves.toBeUndefined();
    const gate = deferred<void>();
    queue.push(() => gate.promise);
    const idle = track(queue.idle());
    await settle();
    expect(idle.settled).toBe(false);
    gate.resolve();
    await settle();
    expect(idle.settled).toBe(true);
  });
});

// ---- supervise ----------------------------------------------------------------------------------

describe("supervise", () => {
  const live = () => new AbortController().signal;
  // A queue per test: made before a test fakes the clock, it holds no timer of the real one.
  let queue: DeadlineQueue;
  beforeEach(() => {
    queue = new DeadlineQueue();
  });

  it("returns a sync value as ok in the same turn, and an async one as ok once it settles", async () => {
    // A callback that answers at once gets its outcome as a value, not a promise: an MRTR round a
    // policy answers costs no turn of the microtask queue.
    expect(supervise(() => 42, 1000, live(), queue)).toEqual({ status: "ok", value: 42 });
    const later = supervise(() => Promise.resolve("v"), 1000, live(), queue);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toEqual({ status: "ok", value: "v" });
  });

  it("reports as aborted a request withdrawn while the callback's synchronous part ran, whether it answered at once or later", async () => {
    for (const answer of [() => "now", () => new Promise<string>(() => {})]) {
      const outer = new AbortController();
      let inner: AbortSignal | undefined;
      const outcome = await supervise(
        (source) => {
          inner = source.signal;
          outer.abort("withdrawn");
          return answer();
        },
        1000,
        outer.signal,
        queue,
      );
      expect(outcome).toEqual({ status: "aborted", reason: "withdrawn", running: expect.any(Promise) });
      expect(inner!.aborted).toBe(true);
    }
  });

  it("leaves the outer signal without a listener once a callback answered, at once or later", async () => {
    const outer = new AbortController();
    let listeners = 0;
    const add = outer.signal.addEventListener.bind(outer.signal);
    const remove = outer.signal.removeEventListener.bind(outer.signal);
    outer.signal.addEventListener = (...args: Parameters<AbortSignal["addEventListener"]>) => {
      listeners += 1;
      add(...args);
    };
    outer.signal.removeEventListener = (...args: Parameters<AbortSignal["removeEventListener"]>) => {
      listeners -= 1;
      remove(...args);
    };
    await supervise(() => 1, 1000, outer.signal, queue);
    expect(listeners).toBe(0);
    const later = supervise(() => Promise.resolve(2), 1000, outer.signal, queue);
    expect(listeners).toBe(1);
    await expect(later).resolves.toEqual({ status: "ok", value: 2 });
    expect(listeners).toBe(0);
  });

  it("reports a sync throw and an async rejection as threw, with the error", async () => {
    const error = new Error("sync");
    expect(
      supervise(() => {
        throw error;
      }, 1000, live(), queue),
    ).toEqual({ status: "threw", error });
    const rejection = new Error("async");
    await expect(supervise(() => Promise.reject(rejection), 1000, live(), queue)).resolves.toEqual({ status: "threw", error: rejection });
    await expect(supervise(async () => Promise.reject("a string"), 1000, live(), queue)).resolves.toEqual({ status: "threw", error: "a string" });
  });

  it("times out at the deadline exactly, aborts the inner signal, and ignores a late answer", async () => {
    vi.useFakeTimers();
    const answer = deferred<string>();
    let inner: AbortSignal | undefined;
    const outcome = track(
      supervise(
        (source) => {
          inner = source.signal;
          return answer.promise;
        },
        1000,
        live(),
        queue,
      ),
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(outcome.settled).toBe(false);
    expect(inner!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.settled).toBe(true);
    expect(outcome.value).toEqual({ status: "timeout", ms: 1000, running: expect.any(Promise) });
    expect(inner!.aborted).toBe(true);
    expect(inner!.reason).toBeInstanceOf(HandlerTimeoutError);
    expect((inner!.reason as HandlerTimeoutError).ms).toBe(1000);
    expect((inner!.reason as HandlerTimeoutError).message).toBe("the handler did not answer within 1000 ms");
    answer.resolve("too late");
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome.value).toEqual({ status: "timeout", ms: 1000, running: expect.any(Promise) });
  });

  it("uses the seed's deadlines: 5 minutes for elicitation, 60 seconds otherwise", async () => {
    expect(INPUT_DEFAULTS.handlerTimeout).toEqual({ default: 60_000, elicitation: 300_000 });
    vi.useFakeTimers();
    for (const ms of [INPUT_DEFAULTS.handlerTimeout.elicitation, INPUT_DEFAULTS.handlerTimeout.default]) {
      const outcome = track(supervise(() => new Promise<never>(() => {}), ms, live(), queue));
      await vi.advanceTimersByTimeAsync(ms - 1);
      expect(outcome.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome.value).toEqual({ status: "timeout", ms, running: expect.any(Promise) });
    }
  });

  // Regression: Node fires a timer whose delay is above 2^31-1 ms (or Infinity) after 1 ms, so a
  // handlerTimeout of Infinity or 30 days once timed every callback out at once.
  it("does not time out at once when the deadline is beyond Node's timer range", async () => {
    vi.useFakeTimers();
    for (const ms of [Number.POSITIVE_INFINITY, 2 ** 31, 30 * 24 * 3_600_000]) {
      const outcome = track(supervise(() => new Promise<never>(() => {}), ms, live(), queue));
      await vi.advanceTimersByTimeAsync(1000);
      expect(outcome.settled).toBe(false);
    }
  });

  it("leaves nothing to fire once the callback answers", async () => {
    vi.useFakeTimers();
    const result = await supervise(() => Promise.resolve(1), 60_000, live(), queue);
    expect(result).toEqual({ status: "ok", value: 1 });
    // The shared deadline timer may stay armed (unreferenced); when it fires it finds nothing due.
    vi.advanceTimersByTime(60_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("aborts the inner signal with the outer reason when the outer signal aborts", async () => {
    vi.useFakeTimers();
    const outer = new AbortController();
    const answer = deferred<string>();
    let inner: AbortSignal | undefined;
    const outcome = track(
      supervise(
        (source) => {
          inner = source.signal;
          return answer.promise;
        },
        60_000,
        outer.signal,
        queue,
      ),
    );
    await vi.advanceTimersByTimeAsync(10);
    expect(inner!.aborted).toBe(false);
    outer.abort("cancelled by the server");
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome.value).toEqual({ status: "aborted", reason: "cancelled by the server", running: expect.any(Promise) });
    expect(inner!.aborted).toBe(true);
    expect(inner!.reason).toBe("cancelled by the server");
    answer.resolve("late");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(outcome.value).toEqual({ status: "aborted", reason: "cancelled by the server", running: expect.any(Promise) });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("does not run the callback when the outer signal is already aborted", async () => {
    const outer = new AbortController();
    outer.abort("gone");
    const run = vi.fn(() => 1);
    const result: Supervised<number> = await supervise(run, 1000, outer.signal, queue);
    expect(result).toEqual({ status: "aborted", reason: "gone", running: expect.any(Promise) });
    expect(run).not.toHaveBeenCalled();
  });

  it("leaves the inner signal alone after an answer, even if the outer signal aborts later", async () => {
    const outer = new AbortController();
    let inner: AbortSignal | undefined;
    const result = await supervise(
      (source) => {
        inner = source.signal;
        return "done";
      },
      1000,
      outer.signal,
      queue,
    );
    outer.abort("later");
    expect(result).toEqual({ status: "ok", value: "done" });
    expect(inner!.aborted).toBe(false);
  });
});

// ---- InputBudget --------------------------------------------------------------------------------

describe("InputBudget", () => {
  const newBudget = () => new InputBudget(INPUT_DEFAULTS.inputRateLimit, INPUT_DEFAULTS.maxServerRequests);

  it("allows a burst of 20 inputs and refuses the 21st", () => {
    expect(INPUT_DEFAULTS.inputRateLimit).toEqual({ perSecond: 10, burst: 20 });
    vi.useFakeTimers();
    const budget = newBudget();
    const taken = Array.from({ length: 21 }, () => budget.take());
    expect(taken.slice(0, 20).every(Boolean)).toBe(true);
    expect(taken[19]).toBe(true);
    expect(taken[20]).toBe(false);
    expect(budget.refused).toBe(1);
  });

  it("refills at 10 per second, up to the burst", () => {
    vi.useFakeTimers();
    const budget = newBudget();
    for (let i = 0; i < 20; i++) budget.take();
    vi.advanceTimersByTime(99);
    expect(budget.take()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(Array.from({ length: 11 }, () => budget.take()).filter(Boolean)).toHaveLength(10);
    vi.advanceTimersByTime(3_600_000);
    expect(Array.from({ length: 21 }, () => budget.take()).filter(Boolean)).toHaveLength(20);
    expect(budget.refused).toBe(4);
  });

  it("lets 8 server requests run at once and refuses the 9th until one leaves", () => {
    expect(INPUT_DEFAULTS.maxServerRequests).toBe(8);
    const budget = newBudget();
    const entered = Array.from({ length: 8 }, () => budget.enter());
    expect(entered.every(Boolean)).toBe(true);
    expect(budget.active).toBe(8);
    expect(budget.enter()).toBe(false);
    expect(budget.active).toBe(8);
    budget.leave();
    expect(budget.active).toBe(7);
    expect(budget.enter()).toBe(true);
    expect(budget.enter()).toBe(false);
  });

  it("never counts below zero on extra leaves", () => {
    const budget = newBudget();
    budget.leave();
    budget.leave();
    expect(budget.active).toBe(0);
    expect(Array.from({ length: 9 }, () => budget.enter()).filter(Boolean)).toHaveLength(8);
  });

  it("keeps the rate and the concurrency apart", () => {
    vi.useFakeTimers();
    const budget = newBudget();
    for (let i = 0; i < 8; i++) budget.enter();
    expect(budget.take()).toBe(true);
    for (let i = 0; i < 30; i++) budget.take();
    budget.leave();
    expect(budget.enter()).toBe(true);
  });
});

// ---- LogGate ------------------------------------------------------------------------------------

describe("LogGate", () => {
  const entry = (i: number) => ({ level: "info", data: `line ${i}` });

  it("admits a burst of 100 log lines and drops the 101st", () => {
    expect(INPUT_DEFAULTS.logRateLimit).toEqual({ perSecond: 50, burst: 100 });
    vi.useFakeTimers();
    const gate = new LogGate(INPUT_DEFAULTS.logRateLimit);
    const admitted = Array.from({ length: 101 }, (_, i) => gate.admit(entry(i + 1)));
    expect(admitted[99]).toEqual({ level: "info", data: "line 100" });
    expect(admitted.slice(0, 100).every((e) => e !== undefined)).toBe(true);
    expect(admitted[100]).toBeUndefined();
    expect(gate.dropped).toBe(1);
  });

  it("refills at 50 per second, up to the burst", () => {
    vi.useFakeTimers();
    const gate = new LogGate(INPUT_DEFAULTS.logRateLimit);
    for (let i = 0; i < 100; i++) gate.admit(entry(i));
    vi.advanceTimersByTime(19);
    expect(gate.admit(entry(1))).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(gate.admit(entry(2))).toEqual({ level: "info", data: "line 2" });
    expect(gate.admit(entry(3))).toBeUndefined();
    vi.advanceTimersByTime(1000);
    expect(Array.from({ length: 51 }, (_, i) => gate.admit(entry(i))).filter((e) => e !== undefined)).toHaveLength(50);
    vi.advanceTimersByTime(60_000);
    expect(Array.from({ length: 101 }, (_, i) => gate.admit(entry(i))).filter((e) => e !== undefined)).toHaveLength(100);
    expect(gate.dropped).toBe(4);
  });

  it("sanitises what it admits", () => {
    vi.useFakeTimers();
    const gate = new LogGate({ perSecond: 1, burst: 1 });
    expect(gate.admit({ level: "loud", logger: "x\u001b[31m", data: { "k\u202e": "v\r\n" }, extra: 1 })).toEqual({
      level: "info",
      logger: "x",
      data: { k: "v  " },
    });
  });
});
