/**
 * An `AuthStore` on Web Storage, for a host in a browser: `sessionStorage` (the default: what it
 * keeps ends with the tab) or `localStorage` (kept until the site's data is cleared, and shared
 * by the origin's tabs). Every key is written under `prefix`, so that the page's own keys and
 * Conduit's never meet.
 *
 * Web Storage is synchronous and can refuse: a full quota (`QuotaExceededError` on a write), a
 * page whose storage the browser or an iframe sandbox forbids (`SecurityError`, already when the
 * `localStorage` getter is read). A refusal rejects the call with the browser's own DOMException,
 * whose name (never its value) OAuth's errors quote; nothing throws out of a method.
 */
import { knownKeys } from "../util/arguments.js";
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import type { AuthStore } from "./auth-store.js";

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
export function webStorageStore(storage?: WebStorage, options: WebStorageStoreOptions = {}): AuthStore {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("webStorageStore's options must be an object");
  knownKeys("webStorageStore's options", options, OPTION_KEYS);
  const prefix = options.prefix ?? "";
  if (typeof prefix !== "string") throw new InvalidArgumentError("webStorageStore's `prefix` must be a string");
  const target = storage ?? pageStorage("sessionStorage");
  if (!isWebStorage(target)) throw new InvalidArgumentError("webStorageStore needs a Storage (getItem, setItem and removeItem)");
  return {
    get: (key) => attempt(() => target.getItem(prefix + key) ?? undefined),
    set: (key, value) => attempt(() => target.setItem(prefix + key, value)),
    delete: (key) => attempt(() => target.removeItem(prefix + key)),
  };
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
