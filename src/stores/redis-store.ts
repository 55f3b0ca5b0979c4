/**
 * A `Store` on the host's own Redis client: node-redis (`createClient`, v4 and later) or ioredis
 * (`new Redis(…)`). Neither is a dependency of Conduit: the client is recognised by its shape,
 * and only the members below are used, so a host's client of either library (or one that looks
 * like them) fits.
 *
 * - Every key is written under `prefix`, which is required: a Redis is shared, and a host that
 *   serves several people gives each their own prefix (`conduit:ada:`), so that no one's tokens
 *   or pending inputs are read under another's.
 * - `set` with a TTL is `SET key value PX ttl`; `setIfAbsent` is `SET key value NX [PX ttl]`,
 *   atomic in Redis for every client of that Redis; Redis forgets what has expired itself.
 * - Every call is bounded by `timeoutMs`: both libraries queue commands while the connection is
 *   down (and retry it for ever by default), so a stopped Redis would otherwise leave each call
 *   waiting. Past the bound the call rejects with a `"store"` ClientError naming the step. A
 *   command given up may still be in the client's queue and run when Redis is back (node-redis
 *   5 and later take it out of the queue on the abort; ioredis and node-redis 4 cannot): a
 *   `setIfAbsent` that timed out may then hold the key although its caller was told it failed.
 *   Nothing is claimed twice that way, but the key may stay taken until its TTL ends.
 * - Errors quote neither the client's error text nor the command: the libraries put the command
 *   and its arguments (a token) or the server's URL (with its password) in theirs. The message
 *   names the step and the failure's class and code (`Error ECONNREFUSED`, `ReplyError NOAUTH`).
 */
import { InvalidArgumentError } from "../util/errors.js";
import { knownKeys } from "../util/arguments.js";
import { MAX_TIMER_MS } from "../util/time.js";
import { ttlOf } from "./memory-store.js";
import { failureName, storeError, type StoreStep } from "./store-error.js";
import type { Store, StoreSetOptions } from "./store.js";

/** What Conduit uses of a node-redis client (`createClient()`, v4 and later). */
export interface NodeRedisClientLike {
  readonly isOpen: boolean;
  sendCommand(args: string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

/** What Conduit uses of an ioredis client (`new Redis()`). */
export interface IoRedisClientLike {
  readonly status: string;
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

export type RedisClientLike = NodeRedisClientLike | IoRedisClientLike;

export interface RedisStoreOptions {
  /** Put before every key; required and non-empty (one per person for tokens, e.g. `conduit:ada:`). */
  prefix: string;
  /** The longest a call may take, in milliseconds (default 5 000). */
  timeoutMs?: number | undefined;
}

/** Default bound of one call: long enough for a Redis under load, short enough that a request waiting on it fails in time. */
export const REDIS_STORE_TIMEOUT_MS = 5_000;

const OPTION_KEYS: ReadonlySet<string> = new Set(["prefix", "timeoutMs"]);
const STORE = "the Redis store";

/** Sends one command; `signal` aborts it where the client can. */
type Send = (args: string[], signal: AbortSignal) => Promise<unknown>;

/**
 * @throws InvalidArgumentError when `client` is neither kind of client, or the options are wrong
 */
export function redisStore(client: RedisClientLike, options: RedisStoreOptions): Store {
  const send = sender(client);
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("redisStore needs options with a `prefix`");
  knownKeys("redisStore's options", options, OPTION_KEYS);
  const { prefix } = options;
  if (typeof prefix !== "string" || prefix === "") throw new InvalidArgumentError("redisStore's `prefix` must be a non-empty string (one per user for tokens)");
  const timeoutMs = options.timeoutMs ?? REDIS_STORE_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !Number.isSafeInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
    throw new InvalidArgumentError(`redisStore's \`timeoutMs\` must be a positive integer of milliseconds, at most ${MAX_TIMER_MS}`);
  }
  const run = (step: StoreStep, args: () => string[]): Promise<unknown> => bounded(step, timeoutMs, (signal) => send(args(), signal));
  return {
    get: async (key) => {
      const reply = await run("get", () => ["GET", keyOf(prefix, key)]);
      if (reply === null || reply === undefined) return undefined;
      if (typeof reply !== "string") throw storeError(STORE, "get", `Redis answered with a ${typeof reply}, not a string (is the client set to return buffers?)`);
      return reply;
    },
    set: async (key, value, setOptions) => {
      await run("set", () => ["SET", keyOf(prefix, key), valueOf(value), ...expiry(setOptions)]);
    },
    delete: async (key) => {
      await run("delete", () => ["DEL", keyOf(prefix, key)]);
    },
    setIfAbsent: async (key, value, setOptions) => {
      // Redis answers OK when it wrote and nil when the key was there.
      const reply = await run("setIfAbsent", () => ["SET", keyOf(prefix, key), valueOf(value), "NX", ...expiry(setOptions)]);
      return reply !== null && reply !== undefined;
    },
  };
}

/** How to send a command with this client, told apart by shape. */
function sender(client: RedisClientLike): Send {
  if (typeof client !== "object" || client === null) throw new InvalidArgumentError("redisStore needs a node-redis or ioredis client");
  const shape = client as unknown as Record<string, unknown>;
  if (typeof shape.call === "function" && typeof shape.status === "string") {
    const io = client as IoRedisClientLike;
    return (args) => io.call(args[0]!, ...args.slice(1));
  }
  if (typeof shape.nodeClient === "function") {
    throw new InvalidArgumentError("redisStore takes a node-redis client (createClient), not a cluster (createCluster); ioredis's clients work too");
  }
  if (typeof shape.sendCommand === "function" && typeof shape.isOpen === "boolean") {
    const node = client as NodeRedisClientLike;
    return (args, signal) => node.sendCommand(args, { abortSignal: signal });
  }
  throw new InvalidArgumentError("redisStore needs a node-redis client (createClient, v4 or later) or an ioredis client");
}

/**
 * Runs one command within `timeoutMs`. The timer is the bound whatever the client does: it
 * rejects the call and aborts the command (which node-redis 5 and later take out of their queue).
 */
function bounded(step: StoreStep, timeoutMs: number, work: (signal: AbortSignal) => Promise<unknown>): Promise<unknown> {
  const controller = new AbortController();
  return new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(storeError(STORE, step, `Redis did not answer within ${timeoutMs} ms`));
      controller.abort();
    }, timeoutMs);
    let started: Promise<unknown>;
    try {
      started = work(controller.signal);
    } catch (error) {
      // A caller's mistake (a key that is no string) or a client that throws rather than rejects.
      clearTimeout(timer);
      reject(error instanceof InvalidArgumentError ? error : storeError(STORE, step, failureName(error)));
      return;
    }
    started.then(
      (reply) => {
        clearTimeout(timer);
        resolve(reply);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(storeError(STORE, step, failureName(error)));
      },
    );
  });
}

function keyOf(prefix: string, key: string): string {
  if (typeof key !== "string") throw new InvalidArgumentError("a store's key must be a string");
  return prefix + key;
}

function valueOf(value: string): string {
  if (typeof value !== "string") throw new InvalidArgumentError("a store's value must be a string");
  return value;
}

function expiry(options: StoreSetOptions | undefined): string[] {
  const ttl = ttlOf(options);
  return ttl === undefined ? [] : ["PX", String(ttl)];
}
