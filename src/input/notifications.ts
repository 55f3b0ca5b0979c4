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
 * memory.
 */
import { LOGGING_LEVELS, type LogParams, type LoggingLevel } from "../protocol/types/index.js";
import { safeText, safeValue } from "../util/sanitize.js";
import { TokenBucket, type RateLimit } from "../util/token-bucket.js";
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

export class NotificationQueue {
  private readonly jobs: (Job | undefined)[] = [];
  private head = 0;
  private running = false;
  private idleWaiters: (() => void)[] = [];
  /** Jobs dropped because the queue was full. */
  dropped = 0;

  constructor(
    private readonly max: number,
    private readonly logger: Logger,
  ) {}

  get waiting(): number {
    return this.jobs.length - this.head;
  }

  /** Queues a job; false when the queue is full and the job was dropped. */
  push(job: Job): boolean {
    if (this.waiting >= this.max) {
      this.dropped += 1;
      if (this.dropped === 1 || this.dropped % 1000 === 0) {
        this.logger.warn(`notification queue full: ${this.dropped} notification(s) dropped so far`);
      }
      return false;
    }
    this.jobs.push(job);
    if (!this.running) {
      this.running = true;
      // Start after the current message has been dispatched: hooks never run on the reading path.
      queueMicrotask(() => void this.drain());
    }
    return true;
  }

  /** Resolves once every queued job has run. */
  idle(): Promise<void> {
    if (!this.running && this.waiting === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    while (this.head < this.jobs.length) {
      const job = this.jobs[this.head]!;
      // A finished job lets go of what it holds (a notification's params) at once.
      this.jobs[this.head] = undefined;
      this.head += 1;
      if (this.head > 1024 && this.head * 2 > this.jobs.length) {
        this.jobs.splice(0, this.head);
        this.head = 0;
      }
      try {
        await job();
      } catch (error) {
        this.logger.warn("a notification hook threw; skipped", { error });
      }
    }
    this.jobs.length = 0;
    this.head = 0;
    this.running = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
