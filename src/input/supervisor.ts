/**
 * Runs a Handler callback apart from the connection: with its own abort signal, a deadline,
 * and the caller's signal linked in. Whatever happens first settles the outcome; a callback
 * that finishes later is ignored (it cannot be killed, but its answer is never sent). An
 * outcome settled before the callback did (a timeout, an abort) carries `running`, which
 * settles when the callback does, so that what the callback holds can stay held until then.
 *
 * The callback's signal is made only if the callback reads it; the deadline (counted from the
 * call), the outer signal's listener and a promise of the outcome only if it returns a promise;
 * the deadline rides on a shared `DeadlineQueue` instead of a timer of its own. A callback that
 * answers at once gets its outcome back as a value, in the same turn.
 */
import { Deadline, type DeadlineOwner, type DeadlineQueue } from "../rpc/deadline.js";
import { type Awaitable, isThenable } from "../util/awaitable.js";
import { now } from "../util/time.js";

export type Supervised<T> =
  | { status: "ok"; value: T }
  | { status: "threw"; error: unknown }
  | { status: "timeout"; ms: number; running: Promise<void> }
  | { status: "aborted"; reason: unknown; running: Promise<void> };

export class HandlerTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`the handler did not answer within ${ms} ms`);
  }
}

/** What the callback sees of its supervision: a signal, made when first read. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

/** What `running` is for a callback that has nothing left to run. */
const SETTLED: Promise<void> = Promise.resolve();

class Supervision<T> implements DeadlineOwner, SignalSource {
  private controller: AbortController | undefined;
  /** Why the callback's signal aborts (once settled by a timeout or the outer signal). */
  private abortedWith: unknown = undefined;
  private done = false;
  private deadline: Deadline | undefined;
  private promise!: Promise<Supervised<T>>;
  private resolve: ((outcome: Supervised<T>) => void) | undefined;
  /** Settles when the callback does (set before `watch`, which may settle at once). */
  running: Promise<void> = SETTLED;

  constructor(
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal | undefined,
  ) {}

  /**
   * The callback returned a promise: from now on its deadline (`leftMs` of it remain) and the
   * outer signal can settle the outcome first.
   */
  watch(queue: DeadlineQueue, leftMs: number): Promise<Supervised<T>> {
    this.promise = new Promise((resolve) => (this.resolve = resolve));
    this.deadline = new Deadline(queue, Math.max(0, leftMs), undefined, this);
    this.outer?.addEventListener("abort", this, { once: true });
    // The outer signal may have aborted while the callback's synchronous part ran.
    if (this.outer?.aborted === true) this.handleEvent();
    return this.promise;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith);
    }
    return this.controller.signal;
  }

  settle(outcome: Supervised<T>, abortReason?: unknown): void {
    if (this.done) return;
    this.done = true;
    if (this.deadline !== undefined) {
      this.deadline.clear();
      this.outer?.removeEventListener("abort", this);
    }
    if (abortReason !== undefined) {
      this.abortedWith = abortReason;
      this.controller?.abort(abortReason);
    }
    // Unwatched (answered at once), the outcome goes back as the return value instead.
    this.resolve?.(outcome);
  }

  /** The deadline passed. */
  expired(): void {
    this.settle({ status: "timeout", ms: this.timeoutMs, running: this.running }, new HandlerTimeoutError(this.timeoutMs));
  }

  /** The outer signal aborted (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(): void {
    const reason = this.outer?.reason as unknown;
    this.settle({ status: "aborted", reason, running: this.running }, reason ?? new Error("aborted"));
  }
}

export function supervise<T>(
  run: (source: SignalSource) => T | Promise<T>,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  /** The client's deadline timer (shared with its requests). */
  queue: DeadlineQueue,
): Awaitable<Supervised<T>> {
  if (outer?.aborted === true) return { status: "aborted", reason: outer.reason as unknown, running: SETTLED };
  const supervision = new Supervision<T>(timeoutMs, outer);
  const started = now();
  let value: T | Promise<T>;
  try {
    value = run(supervision);
  } catch (error) {
    return { status: "threw", error };
  }
  if (!isThenable(value)) {
    // Answered at once (a policy, a test, a cached answer): there was nothing to time or to
    // withdraw, and no deadline, listener or promise is made for it. The request may have been
    // withdrawn while the callback ran (TypeScript cannot know a call changed the signal).
    if (!abortedNow(outer)) return { status: "ok", value };
    const outcome: Supervised<T> = { status: "aborted", reason: outer.reason as unknown, running: SETTLED };
    supervision.settle(outcome, outcome.reason ?? new Error("aborted"));
    return outcome;
  }
  // `running` first: the outer signal may already have aborted, and `watch` then settles with it.
  supervision.running = Promise.resolve(value).then(
    (settled) => supervision.settle({ status: "ok", value: settled }),
    (error: unknown) => supervision.settle({ status: "threw", error }),
  );
  return supervision.watch(queue, timeoutMs - (now() - started));
}

function abortedNow(signal: AbortSignal | undefined): signal is AbortSignal {
  return signal?.aborted === true;
}
