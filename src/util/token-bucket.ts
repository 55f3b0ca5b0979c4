/**
 * A token bucket: `perSecond` tokens refill continuously up to `burst`. Time comes from
 * `Date.now()` so that tests can move it with a fake clock.
 */
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
    this.updatedAt = Date.now();
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
    const now = Date.now();
    const elapsed = now - this.updatedAt;
    if (elapsed <= 0) return;
    this.updatedAt = now;
    this.tokens = Math.min(this.limit.burst, this.tokens + (elapsed * this.limit.perSecond) / 1000);
  }
}
