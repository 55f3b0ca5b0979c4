/**
 * Runs a Handler callback apart from the connection: with its own abort signal, a deadline,
 * and the caller's signal linked in. Whatever happens first settles the outcome; a callback
 * that finishes later is ignored (it cannot be killed, but its answer is never sent). An
 * outcome settled before the callback did (a timeout, an abort) carries `running`, which
 * settles when the callback does, so that what the callback holds can stay held until then.
 *
 * The callback's signal is made only if the callback reads it, and the deadline rides on a
 * shared `DeadlineQueue` instead of a timer of its own.
 */
import { Deadline, type DeadlineOwner, type DeadlineQueue } from "../rpc/deadline.js";

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

class Supervision<T> implements DeadlineOwner, SignalSource {
  private controller: AbortController | undefined;
  /** Why the callback's signal aborts (once settled by a timeout or the outer signal). */
  private abortedWith: unknown = undefined;
  private done = false;
  private readonly deadline: Deadline;
  promise: Promise<Supervised<T>>;
  private resolve!: (outcome: Supervised<T>) => void;
  /** Settles when the callback does. */
  running: Promise<void> = Promise.resolve();

  constructor(
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal | undefined,
    queue: DeadlineQueue,
  ) {
    this.promise = new Promise((resolve) => (this.resolve = resolve));
    this.deadline = new Deadline(queue, timeoutMs, undefined, this);
    outer?.addEventListener("abort", this, { once: true });
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
    this.deadline.clear();
    this.outer?.removeEventListener("abort", this);
    if (abortReason !== undefined) {
      this.abortedWith = abortReason;
      this.controller?.abort(abortReason);
    }
    this.resolve(outcome);
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
): Promise<Supervised<T>> {
  if (outer?.aborted === true) return Promise.resolve({ status: "aborted", reason: outer.reason as unknown, running: Promise.resolve() });
  const supervision = new Supervision<T>(timeoutMs, outer, queue);
  try {
    supervision.running = Promise.resolve(run(supervision)).then(
      (value) => supervision.settle({ status: "ok", value }),
      (error: unknown) => supervision.settle({ status: "threw", error }),
    );
  } catch (error) {
    supervision.settle({ status: "threw", error });
  }
  return supervision.promise;
}
