/**
 * Request deadlines: `timeout` ms that can be paused (while a related server request runs, the
 * user is busy answering it) and restarted (on progress), bounded by `maxTotal` ms from the
 * start, which no pause or restart extends.
 *
 * All the deadlines of a peer share one timer (`DeadlineQueue`), armed for the earliest one and
 * left armed when a request settles: arming and clearing a Node timer per request cost about a
 * tenth of the client's CPU per sequential call, while most requests settle long before their
 * deadline. When it fires, the queue expires what is due and re-arms for the next.
 *
 * Time comes from `setTimeout` and `Date.now()`, so fake timers move it in tests.
 */
export type ExpiryReason = "timeout" | "maxTotalTimeout";

/** Who is told when a deadline passes (an object, so that no closure is made per request). */
export interface DeadlineOwner {
  expired(reason: ExpiryReason): void;
}

/** Delays beyond this overflow Node's timer (it fires at once): treat them as "no deadline". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Whether `ms` is a delay a Node timer keeps; anything else (Infinity, too long) is no bound at all. */
export function fitsTimer(ms: number | undefined): ms is number {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms <= MAX_TIMER_MS;
}

export class DeadlineQueue {
  private readonly live = new Set<Deadline>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;
  /** The `setTimeout` the timer was armed with. */
  private clock: typeof setTimeout | undefined;

  /** @internal */
  watch(deadline: Deadline): void {
    if (this.live.size === 0) this.timer?.ref();
    this.live.add(deadline);
    this.due(deadline.dueAt);
  }

  /** @internal */
  unwatch(deadline: Deadline): void {
    this.live.delete(deadline);
    // An armed timer with nothing to watch must not keep the process alive.
    if (this.live.size === 0) this.timer?.unref();
  }

  /** @internal A deadline moved to `at`: make sure the timer fires by then. */
  due(at: number): void {
    // A fake clock (tests) replaces setTimeout: a timer armed on the other clock would not fire
    // on this one, so a change of clock re-arms.
    if (at < this.armedFor || this.clock !== setTimeout) this.arm(at);
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedFor = at;
    this.clock = setTimeout;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
    if (this.live.size === 0) this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const deadline of this.live) {
      const at = deadline.dueAt;
      if (at <= now) {
        this.live.delete(deadline);
        deadline.expire(now);
      } else if (at < next) next = at;
    }
    if (next !== Infinity) this.arm(next);
  }
}

export class Deadline {
  /** When the deadline falls (ms since the epoch), Infinity when none runs. */
  dueAt = Infinity;
  private readonly totalAt: number;
  private pauses = 0;
  /** While running: when the per-request clock ends; while paused: the time it had left. */
  private clockAt = Infinity;
  private left = 0;
  private done = false;

  constructor(
    private readonly queue: DeadlineQueue,
    private readonly timeout: number,
    maxTotal: number | undefined,
    private readonly owner: DeadlineOwner,
  ) {
    const now = Date.now();
    this.totalAt = fitsTimer(maxTotal) ? now + maxTotal : Infinity;
    if (fitsTimer(timeout)) this.clockAt = now + timeout;
    this.dueAt = Math.min(this.clockAt, this.totalAt);
    if (this.dueAt !== Infinity) queue.watch(this);
  }

  /** Stops the per-request clock; nests. The total bound keeps running. */
  pause(): void {
    if (this.done || this.pauses++ > 0 || this.clockAt === Infinity) return;
    this.left = Math.max(0, this.clockAt - Date.now());
    this.clockAt = Infinity;
    this.dueAt = this.totalAt;
  }

  /** Undoes one `pause()`; the clock goes on with the time that was left. */
  resume(): void {
    if (this.pauses === 0) return;
    this.pauses -= 1;
    if (this.done || this.pauses > 0 || !fitsTimer(this.timeout)) return;
    this.moveClock(Date.now() + this.left);
  }

  /** Progress arrived: the per-request clock starts over (or will, when resumed). */
  restart(): void {
    if (this.done || !fitsTimer(this.timeout)) return;
    if (this.pauses > 0) this.left = this.timeout;
    else this.moveClock(Date.now() + this.timeout);
  }

  clear(): void {
    this.done = true;
    this.queue.unwatch(this);
  }

  /** @internal Called by the queue once `dueAt` has passed. */
  expire(now: number): void {
    if (this.done) return;
    this.done = true;
    this.owner.expired(this.totalAt <= now ? "maxTotalTimeout" : "timeout");
  }

  private moveClock(at: number): void {
    this.clockAt = at;
    const due = Math.min(at, this.totalAt);
    // A later deadline needs nothing: the timer fires earlier, finds nothing due, re-arms.
    this.dueAt = due;
    this.queue.due(due);
  }
}
