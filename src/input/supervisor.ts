/**
 * Runs a Handler callback apart from the connection: with its own abort signal, a deadline,
 * and the caller's signal linked in. Whatever happens first settles the outcome; a callback
 * that finishes later is ignored (it cannot be killed, but its answer is never sent).
 *
 * The callback's signal is made only if the callback reads it (an AbortController costs more
 * than the rest of the supervision together), and the deadline rides on a shared
 * `DeadlineQueue` instead of a timer of its own.
 */
import { Deadline, DeadlineQueue, type DeadlineOwner } from "../rpc/deadline.js";

export type Supervised<T> =
  | { status: "ok"; value: T }
  | { status: "threw"; error: unknown }
  | { status: "timeout"; ms: number }
  | { status: "aborted"; reason: unknown };

export class HandlerTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`the handler did not answer within ${ms} ms`);
  }
}

/** What the callback sees of its supervision: a signal, made when first read. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

const sharedQueue = new DeadlineQueue();

class Supervision<T> implements DeadlineOwner, SignalSource {
  private controller: AbortController | undefined;
  /** Why the callback's signal aborts (once settled by a timeout or the outer signal). */
  private abortedWith: unknown = undefined;
  private done = false;
  private readonly deadline: Deadline;
  promise: Promise<Supervised<T>>;
  private resolve!: (outcome: Supervised<T>) => void;

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
    this.settle({ status: "timeout", ms: this.timeoutMs }, new HandlerTimeoutError(this.timeoutMs));
  }

  /** The outer signal aborted (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(): void {
    const reason = this.outer?.reason as unknown;
    this.settle({ status: "aborted", reason }, reason ?? new Error("aborted"));
  }
}

export function supervise<T>(
  run: (source: SignalSource) => T | Promise<T>,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  queue: DeadlineQueue = sharedQueue,
): Promise<Supervised<T>> {
  if (outer?.aborted === true) return Promise.resolve({ status: "aborted", reason: outer.reason as unknown });
  const supervision = new Supervision<T>(timeoutMs, outer, queue);
  try {
    Promise.resolve(run(supervision)).then(
      (value) => supervision.settle({ status: "ok", value }),
      (error: unknown) => supervision.settle({ status: "threw", error }),
    );
  } catch (error) {
    supervision.settle({ status: "threw", error });
  }
  return supervision.promise;
}
