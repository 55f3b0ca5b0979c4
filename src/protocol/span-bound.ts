/**
 * One abort signal for a span of work that several things may end: the caller's signal, the
 * connection's life, and a time bound. Connecting and an MRTR flow each run under one.
 */
import { fitsTimer } from "../rpc/deadline.js";

export class SpanBound {
  private readonly controller = new AbortController();
  private readonly stoppers: AbortSignal[] = [];
  private readonly timer: NodeJS.Timeout | undefined;
  /** True when the time bound, not a stopper, ended the span. */
  timedOut = false;

  /**
   * @param ms the time bound; none when it does not fit a timer (Infinity)
   * @param timeoutReason the abort reason when the bound passes
   */
  constructor(stoppers: readonly (AbortSignal | undefined)[], ms: number | undefined, timeoutReason: () => unknown) {
    for (const stopper of stoppers) {
      if (stopper === undefined) continue;
      if (stopper.aborted) this.controller.abort(stopper.reason);
      stopper.addEventListener("abort", this, { once: true });
      this.stoppers.push(stopper);
    }
    this.timer = fitsTimer(ms)
      ? setTimeout(() => {
          if (this.controller.signal.aborted) return;
          this.timedOut = true;
          this.controller.abort(timeoutReason());
        }, ms)
      : undefined;
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
