/**
 * A token bucket: `perSecond` tokens refill continuously up to `burst`, on the monotonic clock.
 */
import { now } from "./time.js";

export interface RateLimit {
  perSecond: number;
  burst: number;
}

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  /** How many takes were refused since the bucket was made. */
  refused = 0;

  constructor(private readonly limit: RateLimit) {
    this.tokens = limit.burst;
    this.updatedAt = now();
  }

  /** Takes one token if there is one. */
  take(): boolean {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    this.refused += 1;
    return false;
  }

  private refill(): void {
    const at = now();
    const elapsed = at - this.updatedAt;
    if (elapsed <= 0) return;
    this.updatedAt = at;
    this.tokens = Math.min(this.limit.burst, this.tokens + (elapsed * this.limit.perSecond) / 1000);
  }
}
