/**
 * Notifications on their way to the host's hooks.
 *
 * A server's log entries (`notifications/message`) pass a `LogGate`: at most `logRateLimit`
 * per connection (the rest dropped and counted), and what passes sanitised: only `level`,
 * `logger` and `data` kept, every string cleaned by `safeText`, a level outside RFC 5424's set
 * read as "info".
 *
 * The client's one `NotificationQueue` runs the hooks (`handleNotification`, `handleLog`,
 * `onNotification` subscribers): jobs one at a time in arrival order, each awaited before the
 * next, never on the connection's path. A job that throws is logged and skipped. Beyond `max`
 * waiting jobs, new ones are dropped and counted: a flooding server costs a bounded amount of
 * memory. The queue is one, the servers many: when it is full, the server holding the most
 * loses its newest, so that one server's flood never drops another's notifications.
 */
import { LOGGING_LEVELS, type LogParams, type LoggingLevel } from "../protocol/types/index.js";
import { safeText, safeValue } from "../util/sanitize.js";
import { TokenBucket, type RateLimit } from "../util/token-bucket.js";
import { worthLogging } from "../util/sparse-log.js";
import type { Logger } from "../util/logger.js";

export class LogGate {
  /** Made with the first entry: many servers never log. */
  private bucket: TokenBucket | undefined;

  constructor(private readonly rate: RateLimit) {}

  /** The sanitised entry, or undefined when over the rate. */
  admit(params: Record<string, unknown>): LogParams | undefined {
    this.bucket ??= new TokenBucket(this.rate);
    return this.bucket.take() ? sanitizeLog(params) : undefined;
  }

  /** Entries dropped for the rate since the connection started. */
  get dropped(): number {
    return this.bucket?.refused ?? 0;
  }
}

export function sanitizeLog(params: Record<string, unknown>): LogParams {
  const level = LOGGING_LEVELS.includes(params.level as LoggingLevel) ? (params.level as LoggingLevel) : "info";
  const entry: LogParams = { level, data: safeValue(params.data) };
  if (typeof params.logger === "string") entry.logger = safeText(params.logger, 256);
  return entry;
}

type Job = () => unknown;

/** Who queued a job: the client gives each server's binding one, which counts its drops. */
export interface NotificationSource {
  dropped: number;
}

/** A queued job and the server it came from (`undefined` once it ran or was dropped). */
interface Entry {
  job: Job;
  source: NotificationSource | undefined;
}

/**
 * One server's jobs in the queue, oldest first, by their place in it (absolute positions).
 * Only a server with jobs waiting has one: a client that saw thousands of servers come and go
 * keeps none of theirs, and a full queue looks at the servers waiting, no more.
 */
interface Holding {
  source: NotificationSource | undefined;
  places: number[];
  head: number;
}

export class NotificationQueue {
  private readonly jobs: (Entry | undefined)[] = [];
  /** The absolute position of `jobs[0]`: positions stay valid when the array is compacted. */
  private base = 0;
  private head = 0;
  private running = false;
  private idleWaiters: (() => void)[] = [];
  private readonly holdings = new Map<NotificationSource | undefined, Holding>();
  private waitingCount = 0;
  /** Jobs dropped because the queue was full. */
  dropped = 0;

  constructor(
    private readonly max: number,
    private readonly logger: Logger,
  ) {}

  get waiting(): number {
    return this.waitingCount;
  }

  /** How many servers have jobs waiting. */
  get sources(): number {
    return this.holdings.size;
  }

  /**
   * Queues a job of `source`; false when the job was dropped. When the queue is full, the newest
   * job of the server that holds the most is the one dropped, unless that is `source` itself:
   * a server that floods loses its own notifications, never another server's.
   */
  push(job: Job, source?: NotificationSource): boolean {
    const holding = this.holdings.get(source);
    if (this.waitingCount >= this.max) {
      const heaviest = this.heaviest();
      const mine = holding === undefined ? 0 : held(holding);
      if (heaviest === undefined || heaviest === holding || held(heaviest) <= mine) {
        this.drop(source);
        return false;
      }
      const place = heaviest.places.pop()!;
      this.jobs[place - this.base] = undefined;
      this.waitingCount -= 1;
      if (held(heaviest) === 0) this.holdings.delete(heaviest.source);
      this.drop(heaviest.source);
    }
    const mineNow = holding ?? this.hold(source);
    mineNow.places.push(this.base + this.jobs.length);
    this.jobs.push({ job, source });
    this.waitingCount += 1;
    if (!this.running) {
      this.running = true;
      // Start after the current message has been dispatched: hooks never run on the reading path.
      queueMicrotask(() => void this.drain());
    }
    return true;
  }

  /** Resolves once every queued job has run. */
  idle(): Promise<void> {
    if (!this.running && this.waitingCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private hold(source: NotificationSource | undefined): Holding {
    const holding: Holding = { source, places: [], head: 0 };
    this.holdings.set(source, holding);
    return holding;
  }

  private heaviest(): Holding | undefined {
    let most: Holding | undefined;
    for (const holding of this.holdings.values()) {
      if (most === undefined || held(holding) > held(most)) most = holding;
    }
    return most;
  }

  private drop(source: NotificationSource | undefined): void {
    if (source !== undefined) source.dropped += 1;
    this.dropped += 1;
    // The 1st, 10th, 100th, …: a flood of drops is not a flood of warnings.
    if (worthLogging(this.dropped, 1)) this.logger.warn(`notification queue full: ${this.dropped} notification(s) dropped so far`);
  }

  private async drain(): Promise<void> {
    while (this.head < this.jobs.length) {
      const entry = this.jobs[this.head];
      // A finished job lets go of what it holds (a notification's params) at once.
      this.jobs[this.head] = undefined;
      this.head += 1;
      if (this.head > 1024 && this.head * 2 > this.jobs.length) {
        this.jobs.splice(0, this.head);
        this.base += this.head;
        this.head = 0;
      }
      // A dropped job left its place empty.
      if (entry === undefined) continue;
      this.waitingCount -= 1;
      const holding = this.holdings.get(entry.source)!;
      holding.head += 1;
      if (held(holding) === 0) this.holdings.delete(entry.source);
      else if (holding.head > 1024 && holding.head * 2 > holding.places.length) {
        holding.places.splice(0, holding.head);
        holding.head = 0;
      }
      try {
        await entry.job();
      } catch (error) {
        this.logger.warn("a notification hook threw; skipped", { error });
      }
    }
    this.base += this.jobs.length;
    this.jobs.length = 0;
    this.head = 0;
    this.running = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function held(holding: Holding): number {
  return holding.places.length - holding.head;
}
