/**
 * The client's one queue for notification hooks (`handleNotification`, `handleLog`,
 * `onNotification` subscribers): jobs run one at a time in arrival order, each awaited before
 * the next, never on the connection's path. A job that throws is logged and skipped. Beyond
 * `max` waiting jobs, new ones are dropped and counted: a flooding server costs a bounded
 * amount of memory.
 */
import type { Logger } from "../util/logger.js";

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
