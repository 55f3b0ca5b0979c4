/**
 * Time, read one way everywhere: `now()` is monotonic (`performance.now()`), so that a step of
 * the wall clock (NTP, a suspended laptop, a user changing the date) neither times a call out
 * early nor stops a rate limit from refilling. Tests move it with fake timers that fake
 * `performance` too.
 *
 * `delay` is the one sleep. A Node timer holds at most 2³¹−1 ms; given more, Node warns and
 * fires at once, which would turn "wait a long time" into "do not wait".
 */
import { ClientError } from "./errors.js";
import { unref } from "./runtime.js";

/** Milliseconds on a monotonic clock (arbitrary origin). */
export function now(): number {
  return performance.now();
}

/** The longest delay a Node timer keeps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits `ms` milliseconds, or until `signal` aborts (then it rejects with a `"cancelled"`
 * ClientError whose cause is the signal's reason). `Infinity` waits for the signal alone; a
 * finite delay longer than one timer holds is waited in steps. With `ref` false the wait does
 * not keep the process alive.
 */
export function delay(ms: number, signal?: AbortSignal, ref = true): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(cancelled(signal));
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const done = (): void => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled(signal!));
    };
    // Steps are counted, not read off the clock: a fake clock that moves only the timers still
    // ends the wait.
    const wait = (left: number): void => {
      if (left === Infinity) return;
      timer = left <= MAX_TIMER_MS ? setTimeout(done, left) : setTimeout(() => wait(left - MAX_TIMER_MS), MAX_TIMER_MS);
      if (!ref) unref(timer);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    wait(ms);
  });
}

function cancelled(signal: AbortSignal): ClientError {
  return new ClientError("cancelled", "the wait was cancelled", { cause: signal.reason });
}

/**
 * One abort signal for a span of work that several things may end: the caller's signal, the
 * connection's life, and a time bound. Connecting and an MRTR flow each run under one.
 */
export class SpanBound {
  private readonly controller = new AbortController();
  private readonly stoppers: AbortSignal[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** True when the time bound, not a stopper, ended the span. */
  timedOut = false;
  /** When the bound passes (`now()` clock), while it runs; Infinity with none. */
  private endsAt = Infinity;
  private pauses = 0;
  private left = 0;
  private pausedAt = 0;
  /** How long the bound was paused in all, for callers that measure the span's own time. */
  pausedMs = 0;

  /**
   * @param ms the time bound: none when undefined or Infinity; longer than a timer holds, it
   *   is reached in steps
   * @param timeoutReason the abort reason when the bound passes
   */
  constructor(
    stoppers: readonly (AbortSignal | undefined)[],
    ms: number | undefined,
    private readonly timeoutReason: () => unknown,
  ) {
    for (const stopper of stoppers) {
      if (stopper === undefined) continue;
      if (stopper.aborted) this.controller.abort(stopper.reason);
      stopper.addEventListener("abort", this, { once: true });
      this.stoppers.push(stopper);
    }
    if (ms !== undefined && ms >= 0 && Number.isFinite(ms)) {
      this.endsAt = now() + ms;
      this.arm(ms);
    }
  }

  /** Stops the time bound (a person is being asked); nests. Stoppers still end the span. */
  pause(): void {
    if (this.pauses++ > 0 || this.endsAt === Infinity || this.controller.signal.aborted) return;
    this.pausedAt = now();
    this.left = Math.max(0, this.endsAt - this.pausedAt);
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Undoes one `pause()`: the bound goes on with the time it had left. */
  resume(): void {
    if (this.pauses === 0 || --this.pauses > 0 || this.endsAt === Infinity || this.controller.signal.aborted) return;
    this.pausedMs += now() - this.pausedAt;
    this.endsAt = now() + this.left;
    this.arm(this.left);
  }

  private arm(left: number): void {
    this.timer =
      left <= MAX_TIMER_MS
        ? setTimeout(() => {
            if (this.controller.signal.aborted) return;
            this.timedOut = true;
            this.controller.abort(this.timeoutReason());
          }, left)
        : setTimeout(() => this.arm(left - MAX_TIMER_MS), MAX_TIMER_MS);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A stopper aborted (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(event: Event): void {
    this.controller.abort((event.target as AbortSignal).reason);
  }

  /** The span is over: stop listening, clear the timer. */
  dispose(): void {
    clearTimeout(this.timer);
    for (const stopper of this.stoppers) stopper.removeEventListener("abort", this);
  }
}

/**
 * Waits for `promise` on `signal`: a shared piece of work (one listing several calls wait for)
 * goes on when one waiter stops waiting; that waiter alone rejects, with a `"cancelled"`.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(cancelled(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
