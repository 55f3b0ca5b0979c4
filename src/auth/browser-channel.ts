/**
 * What the browser's authorize helpers and the callback page share (`browser-popup.ts`,
 * `browser-redirect.ts`, `browser-callback.ts`): the names of their storage keys and of their
 * BroadcastChannel, the message the callback sends, and the few members of the page's globals
 * they use (the library is typed without the DOM's types, and runs where some are missing).
 *
 * Keys, each under the helpers' `prefix` and per authorization's `state`:
 * - `popup:<state>` (localStorage): a popup flow waits for this state, in some tab of the origin;
 * - `callback:<state>` (localStorage): the redirect that came back for it, until the opener reads
 *   it (the path that works when the opener was cut off by COOP and the BroadcastChannel message
 *   was missed, and where a browser drops `storage` events: the opener also reads it now and then);
 * - `redirect:<state>` (sessionStorage): a full-page flow left this tab from `returnTo`;
 * - `returned:<state>` (sessionStorage): the redirect that came back for it;
 * - `flow:<key>` (sessionStorage): what the code flow needs to finish (`pending-flow.ts`).
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { isWebStorage, type WebStorage } from "../stores/web-storage-store.js";

export const DEFAULT_PREFIX = "conduit-oauth:";

/** The callback's message: the redirect's whole URL, and whether a popup flow of the origin waits for its state. */
export interface CallbackMessage {
  readonly type: "conduit-oauth-callback";
  readonly state: string;
  readonly url: string;
  readonly pending: boolean;
}

export function channelName(prefix: string): string {
  return `${prefix}callback`;
}

export function isCallbackMessage(value: unknown): value is CallbackMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return message.type === "conduit-oauth-callback" && typeof message.state === "string" && typeof message.url === "string" && typeof message.pending === "boolean";
}

/** The members of a window a popup flow keeps. */
export interface OpenedWindow {
  readonly closed: boolean;
  close(): void;
}

export interface StorageEventLike {
  readonly key: string | null;
  readonly newValue: string | null;
}

export interface PageLocation {
  readonly href: string;
  readonly origin: string;
  assign(url: string): void;
  replace(url: string): void;
}

export interface Channel {
  onmessage: ((event: { data: unknown }) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
}

export interface Page {
  readonly location: PageLocation;
  open(url: string, target: string, features: string): OpenedWindow | null;
  close(): void;
  addEventListener(type: "storage", listener: (event: StorageEventLike) => void): void;
  removeEventListener(type: "storage", listener: (event: StorageEventLike) => void): void;
  readonly history?: { replaceState(data: unknown, unused: string, url: string): void } | undefined;
}

/** The page the helpers run in; an `"unsupported"` ClientError outside a window. */
export function page(what: string): Page {
  const candidate = globalThis as unknown as Partial<Page>;
  if (typeof candidate.open !== "function" || typeof candidate.addEventListener !== "function" || typeof candidate.location?.href !== "string") {
    throw new ClientError("unsupported", `${what} runs in a browser window, and this is none`);
  }
  return candidate as Page;
}

/** A BroadcastChannel of the origin, or undefined where the runtime has none (storage alone carries the callback then). */
export function openChannel(prefix: string): Channel | undefined {
  const Constructor = (globalThis as unknown as { BroadcastChannel?: new (name: string) => Channel }).BroadcastChannel;
  if (typeof Constructor !== "function") return undefined;
  try {
    return new Constructor(channelName(prefix));
  } catch {
    return undefined;
  }
}

/** localStorage or sessionStorage where the page may use it; undefined otherwise (the getter throws in a sandbox). */
export function storageOf(name: "localStorage" | "sessionStorage"): WebStorage | undefined {
  try {
    const storage = (globalThis as Record<string, unknown>)[name];
    return isWebStorage(storage) ? storage : undefined;
  } catch {
    return undefined;
  }
}

/** A storage call that may fail (quota, a storage turned off) without ending the flow: the other path may still carry it. */
export function quietly<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

/** The JSON object kept under `key`, or undefined (absent, unreadable, not an object). */
export function readRecord(storage: WebStorage | undefined, key: string): Record<string, unknown> | undefined {
  const text = quietly(() => storage?.getItem(key));
  if (typeof text !== "string") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function checkPrefix(what: string, prefix: unknown): string {
  if (prefix === undefined) return DEFAULT_PREFIX;
  if (typeof prefix !== "string" || prefix === "") throw new InvalidArgumentError(`${what}'s \`prefix\` must be a non-empty string`);
  return prefix;
}
