/**
 * One server's share of the user's attention: at most `inputRateLimit` input requests per
 * second (bursts allowed), and at most `maxServerRequests` legacy server requests running at
 * once, so one server cannot starve the others. Over the cap, the next request is refused at
 * once (`-32000`, busy) instead of queued: a queue would only hide a flood. A request's slot is
 * held for as long as its callback runs, answered or not: the cap bounds what runs.
 */
import { TokenBucket, type RateLimit } from "../util/token-bucket.js";
import { worthLogging } from "../util/sparse-log.js";

export class InputBudget {
  /** Made with the first input: most connections never see one. */
  private bucket: TokenBucket | undefined;
  private running = 0;
  /** Server requests refused because `maxServerRequests` already ran. */
  busyRefusals = 0;
  /** Callbacks that kept running after their timeout or their withdrawal. */
  overruns = 0;

  constructor(
    private readonly rate: RateLimit,
    private readonly maxConcurrent: number,
  ) {}

  /** Spends one input from the rate budget; false when over it. */
  take(): boolean {
    this.bucket ??= new TokenBucket(this.rate);
    return this.bucket.take();
  }

  /** Inputs refused for the rate since the connection started. */
  get refused(): number {
    return this.bucket?.refused ?? 0;
  }

  /** Claims a slot for a server request; false (and counted) when `maxServerRequests` already run. */
  enter(): boolean {
    if (this.running >= this.maxConcurrent) {
      this.busyRefusals += 1;
      return false;
    }
    this.running += 1;
    return true;
  }

  /**
   * After a refusal by `enter`: whether it is worth a log line. The 1st, 10th, 100th, … are:
   * a flood of a million requests is a few lines, not one per burst (a burst ends each time a
   * slot frees, which under a flood is every few requests).
   */
  worthLogging(): boolean {
    return worthLogging(this.busyRefusals, 1);
  }

  leave(): void {
    if (this.running > 0) this.running -= 1;
  }

  get active(): number {
    return this.running;
  }
}
