/**
 * A `Store` on Web Storage, for a host in a browser: `sessionStorage` (the default: what it
 * keeps ends with the tab) or `localStorage` (kept until the site's data is cleared, and shared
 * by the origin's tabs). Every key is written under `prefix`, so that the page's own keys and
 * Conduit's never meet.
 *
 * `setIfAbsent` looks and writes in one synchronous step, so it is atomic among the callers of
 * one page (one event loop) and no further: two tabs sharing `localStorage` can both see a key
 * absent and both write it, since browsers take no lock across tabs for Web Storage. A claim
 * that tabs must agree on belongs in `indexedDbStore`, whose transactions they share.
 *
 * A value with a TTL is kept as `\u0000` and JSON (`{"value","expiresAt"}`, wall-clock
 * milliseconds, since `localStorage` outlives the page and is read by other tabs); one without
 * is the plain string, as before TTLs, unless it starts with `\u0000` itself. An expired value
 * is removed when read.
 *
 * Web Storage is synchronous and can refuse: a full quota (`QuotaExceededError` on a write), a
 * page whose storage the browser or an iframe sandbox forbids (`SecurityError`, already when the
 * `localStorage` getter is read). A refusal rejects the call with the browser's own DOMException,
 * whose name (never its value) OAuth's errors quote; nothing throws out of a method.
 */
import { knownKeys } from "../util/arguments.js";
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { ttlOf } from "./memory-store.js";
import type { Store, StoreSetOptions } from "./store.js";

/** What the store uses of a `Storage` (`localStorage`, `sessionStorage`, or one of the host's). */
export interface WebStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface WebStorageStoreOptions {
  /** Put before every key (default `""`: the keys are already `conduit:…`). */
  prefix?: string | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(["prefix"]);

/**
 * @param storage default: the page's `sessionStorage`
 * @throws ClientError `"unsupported"` when no storage is given and the page has none it may use
 */
export function webStorageStore(storage?: WebStorage, options: WebStorageStoreOptions = {}): Store {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("webStorageStore's options must be an object");
  knownKeys("webStorageStore's options", options, OPTION_KEYS);
  const prefix = options.prefix ?? "";
  if (typeof prefix !== "string") throw new InvalidArgumentError("webStorageStore's `prefix` must be a string");
  const target = storage ?? pageStorage("sessionStorage");
  if (!isWebStorage(target)) throw new InvalidArgumentError("webStorageStore needs a Storage (getItem, setItem and removeItem)");
  const live = (key: string): string | undefined => {
    const kept = target.getItem(prefix + key);
    if (kept === null) return undefined;
    const value = unwrap(kept, Date.now());
    if (value === undefined) target.removeItem(prefix + key);
    return value;
  };
  return {
    get: (key) => attempt(() => live(key)),
    set: (key, value, setOptions) => attempt(() => target.setItem(prefix + key, wrap(value, setOptions))),
    delete: (key) => attempt(() => target.removeItem(prefix + key)),
    setIfAbsent: (key, value, setOptions) =>
      attempt(() => {
        const written = wrap(value, setOptions);
        if (live(key) !== undefined) return false;
        target.setItem(prefix + key, written);
        return true;
      }),
  };
}

const ENVELOPE = "\u0000";

/** What is kept for `value`: the plain string, or an envelope with its expiry. */
function wrap(value: string, options: StoreSetOptions | undefined): string {
  const ttl = ttlOf(options);
  if (typeof value !== "string") throw new InvalidArgumentError("a store's value must be a string");
  if (ttl === undefined && !value.startsWith(ENVELOPE)) return value;
  return ENVELOPE + JSON.stringify(ttl === undefined ? { value } : { value, expiresAt: Date.now() + ttl });
}

/** The value kept, undefined when it has expired; a string that is no envelope is a plain value. */
function unwrap(kept: string, at: number): string | undefined {
  if (!kept.startsWith(ENVELOPE)) return kept;
  let parsed: unknown;
  try {
    parsed = JSON.parse(kept.slice(1));
  } catch {
    return kept;
  }
  if (typeof parsed !== "object" || parsed === null) return kept;
  const { value, expiresAt } = parsed as Record<string, unknown>;
  if (typeof value !== "string") return kept;
  if (expiresAt === undefined) return value;
  return typeof expiresAt === "number" && expiresAt > at ? value : undefined;
}

/** The page's `localStorage` or `sessionStorage`; an `"unsupported"` ClientError where it has none or may not use it. */
export function pageStorage(name: "localStorage" | "sessionStorage"): WebStorage {
  let storage: unknown;
  try {
    storage = (globalThis as Record<string, unknown>)[name];
  } catch (error) {
    // A sandboxed iframe, or storage the person turned off: the getter itself throws.
    throw new ClientError("unsupported", `this page may not use ${name} (${nameOf(error)})`, { cause: error });
  }
  if (!isWebStorage(storage)) throw new ClientError("unsupported", `this runtime has no ${name}`);
  return storage;
}

export function isWebStorage(value: unknown): value is WebStorage {
  if (typeof value !== "object" || value === null) return false;
  const storage = value as Record<string, unknown>;
  return typeof storage.getItem === "function" && typeof storage.setItem === "function" && typeof storage.removeItem === "function";
}

/** Runs a synchronous storage call as a promise: what it throws becomes the rejection. */
function attempt<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(`the storage failed (${typeof error})`));
  }
}

/** A DOMException's name (`QuotaExceededError`), which says what went wrong without quoting anything. */
export function nameOf(error: unknown): string {
  return error instanceof Error && /^[A-Za-z][A-Za-z0-9]{0,39}$/.test(error.name) ? error.name : "Error";
}
