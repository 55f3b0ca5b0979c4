/**
 * A request's deadline: `timeout` ms that can be paused (while a related server request runs,
 * the user is busy answering it) and restarted (on progress), bounded by `maxTotal` ms from
 * the start, which no pause or restart extends.
 *
 * Clocks come from `setTimeout` and `Date.now()`, so fake timers move them in tests.
 */
export type ExpiryReason = "timeout" | "maxTotalTimeout";

/** Delays beyond this overflow Node's timer (it fires at once): treat them as "no deadline". */
const MAX_TIMER_MS = 2 ** 31 - 1;

function usable(ms: number | undefined): ms is number {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms <= MAX_TIMER_MS;
}

export class Deadline {
  private timer: NodeJS.Timeout | undefined;
  private totalTimer: NodeJS.Timeout | undefined;
  private pauses = 0;
  private segmentStart = 0;
  private segmentLength = 0;
  private remaining = 0;
  private expired = false;

  constructor(
    private readonly timeout: number,
    maxTotal: number | undefined,
    private readonly onExpire: (reason: ExpiryReason) => void,
  ) {
    if (usable(timeout)) this.arm(timeout);
    if (usable(maxTotal)) this.totalTimer = setTimeout(() => this.fire("maxTotalTimeout"), maxTotal);
  }

  get paused(): boolean {
    return this.pauses > 0;
  }

  /** Stops the per-request clock; nests. The total bound keeps running. */
  pause(): void {
    if (this.expired || this.pauses++ > 0 || !usable(this.timeout)) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remaining = Math.max(0, this.segmentLength - (Date.now() - this.segmentStart));
  }

  /** Undoes one `pause()`; the clock goes on with the time that was left. */
  resume(): void {
    if (this.pauses === 0) return;
    this.pauses -= 1;
    if (this.expired || this.pauses > 0 || !usable(this.timeout)) return;
    this.arm(this.remaining);
  }

  /** Progress arrived: the per-request clock starts over (or will, when resumed). */
  restart(): void {
    if (this.expired || !usable(this.timeout)) return;
    if (this.pauses > 0) {
      this.remaining = this.timeout;
      return;
    }
    this.arm(this.timeout);
  }

  clear(): void {
    clearTimeout(this.timer);
    clearTimeout(this.totalTimer);
    this.timer = undefined;
    this.totalTimer = undefined;
  }

  private arm(ms: number): void {
    if (this.timer === undefined) this.timer = setTimeout(() => this.fire("timeout"), ms);
    else {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.fire("timeout"), ms);
    }
    this.segmentStart = Date.now();
    this.segmentLength = ms;
  }

  private fire(reason: ExpiryReason): void {
    if (this.expired) return;
    this.expired = true;
    this.clear();
    this.onExpire(reason);
  }
}
