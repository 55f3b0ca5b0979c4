import { InvalidArgumentError } from "../util/errors.js";
import { now } from "../util/time.js";
import type { Store, StoreSetOptions } from "./store.js";

interface Entry {
  readonly value: string;
  /** On the monotonic clock; Infinity when kept until deleted. */
  readonly expires: number;
}

/**
 * A store in this process's memory: the default for OAuth (one per server's authorizer) and for
 * the client's claims. Expired values are dropped when next read, not by a timer, so an idle
 * store costs no wakeups.
 */
export function memoryStore(): Store {
  const values = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const entry = values.get(key);
    if (entry !== undefined && entry.expires <= now()) {
      values.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    get: (key) => Promise.resolve(live(key)?.value),
    set: (key, value, options) => {
      try {
        values.set(key, { value, expires: expiry(options) });
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    delete: (key) => {
      values.delete(key);
      return Promise.resolve();
    },
    setIfAbsent: (key, value, options) => {
      try {
        const expires = expiry(options);
        if (live(key) !== undefined) return Promise.resolve(false);
        values.set(key, { value, expires });
        return Promise.resolve(true);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

/** When a value written now with `options` expires, on the monotonic clock. */
function expiry(options: StoreSetOptions | undefined): number {
  const ttl = ttlOf(options);
  return ttl === undefined ? Infinity : now() + ttl;
}

/** The checked `ttlMs` of a store call's options: a positive safe integer, or undefined. */
export function ttlOf(options: StoreSetOptions | undefined): number | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("a store's options must be an object");
  const ttl = options.ttlMs;
  if (ttl === undefined) return undefined;
  if (typeof ttl !== "number" || !Number.isSafeInteger(ttl) || ttl <= 0) throw new InvalidArgumentError("a store's `ttlMs` must be a positive integer of milliseconds");
  return ttl;
}
