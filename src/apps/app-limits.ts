/**
 * The bounds an `AppSession` holds a view to. A view is the server's code running in the host's
 * page: untrusted, and able to send as fast as a loop can post. Every bound below is crossed by a
 * unit test; a host may tighten or loosen any of them (`limits`), the rest keep their defaults.
 */
import type { RateLimit } from "../util/token-bucket.js";
import { knownKeys, positiveInteger, positiveNumber } from "../util/arguments.js";
import { InvalidArgumentError } from "../util/errors.js";

export interface AppLimits {
  /** Bytes of one message's JSON (UTF-8), checked before it is read. */
  maxMessageBytes: number;
  /** Nesting of arrays and objects in one message. */
  maxDepth: number;
  /** Every message of the view, of any kind: a flood is refused here, before any work. */
  messageRate: RateLimit;
  /** View requests being served at once (waiting for the host, the consent or the server). */
  maxInFlight: number;
  /** `tools/call` and `resources/read` passed on to the server. */
  serverCallRate: RateLimit;
  /** `ui/message`: each one may start a turn of the model. */
  chatMessageRate: RateLimit;
  /** Bytes of a `ui/message`'s params. */
  maxChatMessageBytes: number;
  /** `ui/update-model-context`. */
  modelContextRate: RateLimit;
  /** Bytes of a `ui/update-model-context`'s params. */
  maxModelContextBytes: number;
  /** Content blocks in one `ui/message` or `ui/update-model-context`. */
  maxContentBlocks: number;
  /** The view's log entries (`notifications/message`); the rest are dropped and counted. */
  logRate: RateLimit;
  /** The longest wait for the host's callbacks and its consent, in ms; the view then gets an error. */
  hostTimeout: number;
  /** The bound of a proxied `tools/call` or `resources/read` at the server, in ms (undefined: the client's `requestTimeout`). */
  callTimeout: number | undefined;
  /** How long `teardown()` waits for the view's answer to `ui/resource-teardown`, in ms. */
  teardownTimeout: number;
  /** The largest width or height a view may report, in pixels. */
  maxDimension: number;
}

export const DEFAULT_APP_LIMITS: Readonly<AppLimits> = Object.freeze({
  maxMessageBytes: 4 * 1024 * 1024,
  maxDepth: 64,
  messageRate: Object.freeze({ perSecond: 100, burst: 200 }),
  maxInFlight: 16,
  serverCallRate: Object.freeze({ perSecond: 5, burst: 20 }),
  chatMessageRate: Object.freeze({ perSecond: 0.5, burst: 3 }),
  maxChatMessageBytes: 64 * 1024,
  modelContextRate: Object.freeze({ perSecond: 2, burst: 10 }),
  maxModelContextBytes: 256 * 1024,
  maxContentBlocks: 32,
  logRate: Object.freeze({ perSecond: 20, burst: 50 }),
  hostTimeout: 120_000,
  callTimeout: undefined,
  teardownTimeout: 5_000,
  maxDimension: 100_000,
});

/** A host's bounds, any of them, a rate in part (`{ perSecond: 1 }` keeps the default burst). */
export type AppLimitsOptions = {
  [K in keyof AppLimits]?: AppLimits[K] extends RateLimit ? Partial<RateLimit> : AppLimits[K];
};

const LIMIT_KEYS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_APP_LIMITS));
const RATE_KEYS: ReadonlySet<string> = new Set(["perSecond", "burst"]);
const RATES = ["messageRate", "serverCallRate", "chatMessageRate", "modelContextRate", "logRate"] as const;
const COUNTS = ["maxMessageBytes", "maxDepth", "maxInFlight", "maxChatMessageBytes", "maxModelContextBytes", "maxContentBlocks"] as const;
const DURATIONS = ["hostTimeout", "teardownTimeout", "maxDimension"] as const;

/** The defaults with the host's bounds over them; a bound that means nothing throws `InvalidArgumentError`. */
export function resolveAppLimits(given: AppLimitsOptions | undefined): AppLimits {
  if (given === undefined) return { ...DEFAULT_APP_LIMITS };
  if (typeof given !== "object" || given === null) throw new InvalidArgumentError("AppSession limits must be an object");
  knownKeys("AppSession limits", given, LIMIT_KEYS);
  const limits: AppLimits = { ...DEFAULT_APP_LIMITS };
  for (const key of COUNTS) if (given[key] !== undefined) limits[key] = positiveInteger(`limits.${key}`, given[key]);
  for (const key of DURATIONS) if (given[key] !== undefined) limits[key] = positiveNumber(`limits.${key}`, given[key]);
  if (given.callTimeout !== undefined) limits.callTimeout = positiveNumber("limits.callTimeout", given.callTimeout);
  for (const key of RATES) if (given[key] !== undefined) limits[key] = rate(key, given[key], DEFAULT_APP_LIMITS[key]);
  return limits;
}

function rate(name: string, given: unknown, fallback: RateLimit): RateLimit {
  if (typeof given !== "object" || given === null) throw new InvalidArgumentError(`limits.${name} must be { perSecond, burst }`);
  knownKeys(`limits.${name}`, given, RATE_KEYS);
  const { perSecond, burst } = given as Partial<RateLimit>;
  return {
    perSecond: perSecond === undefined ? fallback.perSecond : positiveNumber(`limits.${name}.perSecond`, perSecond),
    burst: burst === undefined ? fallback.burst : positiveInteger(`limits.${name}.burst`, burst),
  };
}
