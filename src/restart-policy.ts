/**
 * When a server that was ready breaks (a stdio server exits, an HTTP server stops answering),
 * the client may bring it back: after a delay that doubles with each attempt in a row, with
 * jitter so that many servers of one host that broke together do not come back together, up to
 * `maxRestarts` attempts. A server that stays up `stableAfter` ms has its count start again; one
 * that keeps breaking sooner is crash-looping, and is given up on.
 */
import { InvalidArgumentError } from "./util/errors.js";
import { knownKeys, nonNegativeInteger, optional, positiveNumber } from "./util/arguments.js";
import { MAX_TIMER_MS } from "./util/time.js";

export interface RestartOptions {
  /** Attempts in a row before the server is given up on (default 5). */
  maxRestarts?: number | undefined;
  backoff?:
    | {
        /** The delay before the first attempt (ms, default 500). */
        initial?: number | undefined;
        /** The longest delay (ms, default 30 000). */
        max?: number | undefined;
        /** How much each attempt in a row multiplies the delay (default 2). */
        factor?: number | undefined;
      }
    | undefined;
  /** Time up after which a later break counts as the first again (ms, default 60 000). */
  stableAfter?: number | undefined;
}

export interface RestartPolicy {
  readonly maxRestarts: number;
  readonly initial: number;
  readonly max: number;
  readonly factor: number;
  readonly stableAfter: number;
}

const RESTART_KEYS: ReadonlySet<string> = new Set(["maxRestarts", "backoff", "stableAfter"]);
const BACKOFF_KEYS: ReadonlySet<string> = new Set(["initial", "max", "factor"]);

export const RESTART_DEFAULTS: RestartPolicy = Object.freeze({ maxRestarts: 5, initial: 500, max: 30_000, factor: 2, stableAfter: 60_000 });

/** `restart: true` takes the defaults; an object merges with them; absent or false: no restarts. */
export function restartPolicy(option: RestartOptions | boolean | undefined): RestartPolicy | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return RESTART_DEFAULTS;
  if (typeof option !== "object" || option === null) throw new InvalidArgumentError("connect option `restart` must be true, false or an object");
  knownKeys("connect option `restart`", option, RESTART_KEYS);
  const backoff = option.backoff ?? {};
  if (typeof backoff !== "object" || backoff === null) throw new InvalidArgumentError("connect option `restart.backoff` must be an object");
  knownKeys("connect option `restart.backoff`", backoff, BACKOFF_KEYS);
  const d = RESTART_DEFAULTS;
  const policy = {
    maxRestarts: optional(nonNegativeInteger, "connect option `restart.maxRestarts`", option.maxRestarts) ?? d.maxRestarts,
    initial: optional(positiveNumber, "connect option `restart.backoff.initial`", backoff.initial) ?? d.initial,
    max: optional(positiveNumber, "connect option `restart.backoff.max`", backoff.max) ?? d.max,
    factor: optional(positiveNumber, "connect option `restart.backoff.factor`", backoff.factor) ?? d.factor,
    stableAfter: optional(positiveNumber, "connect option `restart.stableAfter`", option.stableAfter) ?? d.stableAfter,
  };
  // A delay is a timer: one past what a timer holds would fire at once.
  if (policy.max > MAX_TIMER_MS) throw new InvalidArgumentError(`connect option \`restart.backoff.max\` must be at most ${MAX_TIMER_MS} ms`);
  if (policy.factor < 1) throw new InvalidArgumentError("connect option `restart.backoff.factor` must be at least 1");
  if (policy.initial > policy.max) throw new InvalidArgumentError("connect option `restart.backoff.initial` must not exceed `restart.backoff.max`");
  return Object.freeze(policy);
}

/**
 * The delay before attempt `attempt` (1 for the first of a row): `initial · factor^(attempt−1)`,
 * at most `max`, of which a random half is taken away ("equal jitter": never less than half the
 * delay, so that a row of attempts still backs off).
 */
export function backoffDelay(policy: RestartPolicy, attempt: number, random: () => number = Math.random): number {
  const full = Math.min(policy.max, policy.initial * policy.factor ** (attempt - 1));
  return Math.round(full / 2 + (full / 2) * random());
}
