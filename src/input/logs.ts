/**
 * A server's log entries (`notifications/message`): at most `logRateLimit` per connection
 * (the rest dropped and counted), and what passes sanitised: only `level`, `logger` and `data`
 * kept, every string cleaned by `safeText`, a level outside RFC 5424's set read as "info".
 */
import { LOGGING_LEVELS, type LogParams, type LoggingLevel } from "../protocol/types/index.js";
import { safeText, safeValue } from "../util/sanitize.js";
import { TokenBucket, type RateLimit } from "../util/token-bucket.js";

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
