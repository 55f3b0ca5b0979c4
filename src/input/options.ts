/**
 * The input pipeline's bounds, as resolved from the client's options. Defaults are the
 * handler contract's (seed: ConduitMcp.Client.Handler).
 */
import type { RateLimit } from "../util/token-bucket.js";

export interface SamplingOptions {
  /** `maxTokens` above this is clamped before the callback sees it. */
  maxTokens: number;
  /** Let `includeContext` through; otherwise it becomes "none". */
  context: boolean;
  /** Accept sampling while no call is in flight on that connection. */
  allowIdle: boolean;
  /** Refuse when `messages` already hold more assistant tool_use turns than this. */
  maxToolIterations: number;
  /** The JSON-RPC code for refusals (idle, tool loop, over budget). */
  rejectionCode: number;
}

export interface HandlerTimeouts {
  default: number;
  elicitation: number;
}

export interface InputOptions {
  maxServerRequests: number;
  handlerTimeout: HandlerTimeouts;
  inputRateLimit: RateLimit;
  logRateLimit: RateLimit;
  sampling: SamplingOptions;
  maxInputRounds: number;
  maxQueuedNotifications: number;
}

export const INPUT_DEFAULTS: InputOptions = {
  maxServerRequests: 8,
  handlerTimeout: { default: 60_000, elicitation: 300_000 },
  inputRateLimit: { perSecond: 10, burst: 20 },
  logRateLimit: { perSecond: 50, burst: 100 },
  sampling: { maxTokens: 4096, context: false, allowIdle: false, maxToolIterations: 5, rejectionCode: -1 },
  maxInputRounds: 10,
  maxQueuedNotifications: 1000,
};
