/**
 * Request deadlines: `timeout` ms that can be paused (while a related server request runs, the
 * user is busy answering it) and restarted (on progress), bounded by `maxTotal` ms from the
 * start, which no pause or restart extends.
 *
 * All the deadlines of a client share one timer (`DeadlineQueue`), armed for the earliest one
 * and left armed when a request settles, since most requests settle long before their deadline
 * and a timer per request is work per request. When it fires, the queue expires what is due and
 * re-arms for the next. Time is the monotonic `now()`.
 *
 * The queue links its deadlines through themselves (a list, not a `Set`): a request that comes and
 * goes adds and removes an entry, and a Set that empties after each one shrinks and grows its
 * table again every time, an allocation and a rehash a request.
 */
import { MAX_TIMER_MS, now } from "../util/time.js";
import { ref, unref } from "../util/runtime.js";

export type ExpiryReason = "timeout" | "maxTotalTimeout";

/** Who is told when a deadline passes (an object, so that no closure is made per request). */
export interface DeadlineOwner {
  expired(reason: ExpiryReason): void;
}

export class DeadlineQueue {
  /** The watched deadlines, in the order they were watched. */
  private first: Deadline | undefined;
  private last: Deadline | undefined;
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;

  /** @internal */
  watch(deadline: Deadline): void {
    if (this.first === undefined) ref(this.timer);
    deadline.previous = this.last;
    deadline.next = undefined;
    if (this.last === undefined) this.first = deadline;
    else this.last.next = deadline;
    this.last = deadline;
    this.due(deadline.dueAt);
  }

  /** @internal */
  unwatch(deadline: Deadline): void {
    if (!this.holds(deadline)) return;
    this.remove(deadline);
    // An armed timer with nothing to watch must not keep the process alive.
    if (this.first === undefined) unref(this.timer);
  }

  /** @internal A deadline moved to `at`: make sure the timer fires by then. */
  due(at: number): void {
    if (at < this.armedFor) this.arm(at);
  }

  /** Whether `deadline` is on the list (a deadline has one queue; one that left has no links). */
  private holds(deadline: Deadline): boolean {
    return deadline.previous !== undefined || this.first === deadline;
  }

  private remove(deadline: Deadline): void {
    const { previous, next } = deadline;
    if (previous === undefined) this.first = next;
    else previous.next = next;
    if (next === undefined) this.last = previous;
    else next.previous = previous;
    // A deadline left behind holds none of the others alive.
    deadline.previous = undefined;
    deadline.next = undefined;
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedFor = at;
    // A deadline further off than a timer holds is reached in steps: the timer fires early,
    // finds nothing due, and arms again.
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(0, at - now()), MAX_TIMER_MS));
    if (this.first === undefined) unref(this.timer);
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const at = now();
    let next = Infinity;
    let expiring: Deadline[] | undefined;
    for (let deadline = this.first; deadline !== undefined; deadline = deadline.next) {
      const due = deadline.dueAt;
      if (due <= at) (expiring ??= []).push(deadline);
      else if (due < next) next = due;
    }
    // An owner told of its expiry may settle other deadlines (they leave the list, and are not
    // expired here), move them, or make new ones (their own `due` or `watch` arms the timer).
    for (const deadline of expiring ?? []) {
      if (!this.holds(deadline)) continue;
      // Moved on meanwhile (a restart on progress): it waits for its new time.
      if (deadline.dueAt > at) {
        this.due(deadline.dueAt);
        continue;
      }
      this.remove(deadline);
      // One owner's fault must not leave every other deadline without a timer.
      try {
        deadline.expire(at);
      } catch {
        // The owner's own error handling is its business; the queue goes on.
      }
    }
    this.due(next);
  }
}

export class Deadline {
  /** When the deadline falls (on the `now()` clock), Infinity when none runs. */
  dueAt = Infinity;
  /** @internal The queue's links: its neighbours on the list, none when it is not on it. */
  previous: Deadline | undefined = undefined;
  /** @internal */
  next: Deadline | undefined = undefined;
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
    const start = now();
    this.totalAt = isBound(maxTotal) ? start + maxTotal : Infinity;
    if (isBound(timeout)) this.clockAt = start + timeout;
    this.dueAt = Math.min(this.clockAt, this.totalAt);
    if (this.dueAt !== Infinity) queue.watch(this);
  }

  /** Stops the per-request clock; nests. The total bound keeps running. */
  pause(): void {
    if (this.done || this.pauses++ > 0 || this.clockAt === Infinity) return;
    this.left = Math.max(0, this.clockAt - now());
    this.clockAt = Infinity;
    this.dueAt = this.totalAt;
  }

  /** Undoes one `pause()`; the clock goes on with the time that was left. */
  resume(): void {
    if (this.pauses === 0) return;
    this.pauses -= 1;
    if (this.done || this.pauses > 0 || !isBound(this.timeout)) return;
    this.moveClock(now() + this.left);
  }

  /** Progress arrived: the per-request clock starts over (or will, when resumed). */
  restart(): void {
    if (this.done || !isBound(this.timeout)) return;
    if (this.pauses > 0) this.left = this.timeout;
    else this.moveClock(now() + this.timeout);
  }

  clear(): void {
    this.done = true;
    this.queue.unwatch(this);
  }

  /** @internal Called by the queue once `dueAt` has passed. */
  expire(at: number): void {
    if (this.done) return;
    this.done = true;
    this.owner.expired(this.totalAt <= at ? "maxTotalTimeout" : "timeout");
  }

  private moveClock(at: number): void {
    this.clockAt = at;
    const due = Math.min(at, this.totalAt);
    // A later deadline needs nothing: the timer fires earlier, finds nothing due, re-arms.
    this.dueAt = due;
    this.queue.due(due);
  }
}

/** A bound in ms: a finite number of 0 or more (Infinity, and an absent one, are no bound). */
function isBound(ms: number | undefined): ms is number {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0;
}
