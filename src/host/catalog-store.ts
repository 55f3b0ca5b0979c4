/**
 * The catalog's lists in the client's `Store`, when the host asks (`catalogStore`), so that a
 * fresh worker's first listing of a server reads what another worker listed while the server's
 * cache hint allows (2026-07-28 "caching": a result is fresh while `now < receivedAt + ttlMs`).
 *
 * - Key: `conduit:catalog:<target hash>:<kind>`, the hash `targetKey`'s (never the target: it
 *   may hold a token); value: JSON `{ type, v, target, kind, scope, expiresAt, items }`, with
 *   `expiresAt` on the wall clock (another process's monotonic clock means nothing here) and the
 *   store's TTL set to what is left of the hint, at most a day.
 * - Written only with a hint (`ttlMs` > 0): a list without one (a legacy server, `ttlMs` 0) is
 *   good only until the server says it changed, which a later worker cannot hear.
 * - `cacheScope: "private"` is written only when the host says the store is its user's own: the
 *   spec forbids sharing a private entry across authorization contexts, and a store shared by
 *   workers of many users is exactly that.
 * - What is read came from outside the process: it is checked (its shape, its target, its kind,
 *   each item's identifying fields) and a value that fails is ignored with a warning, never used.
 *
 * The store is a shortcut: a failure costs a listing and a warning, never the listing.
 */
import { isObject } from "../util/json.js";
import type { Logger } from "../util/logger.js";
import { storeCall } from "../util/store-bound.js";
import type { Store } from "../stores/store.js";
import type { CacheableList, ServerHandle } from "../server.js";

export type ListKind = "tools" | "resources" | "prompts";

/** The longest a list is kept, whatever the server's hint (as in the catalog's own cache). */
export const STORED_LIST_MAX_MS = 24 * 60 * 60 * 1000;
/** A stored list longer than this (characters) is not read: the listing bound of one server. */
const MAX_STORED_CHARS = 64 * 1024 * 1024;
const MAX_STORED_ITEMS = 100_000;
const TYPE = "conduit-mcp/catalog-list";
const PREFIX = "conduit:catalog:";

export interface StoredListsOptions {
  readonly store: Store;
  readonly logger: Logger;
  /** The store is this user's own: private lists may be written and read. */
  readonly privateLists: boolean;
}

export class StoredLists {
  constructor(private readonly options: StoredListsOptions) {}

  /**
   * A modern server's list: from the store while another worker's listing is fresh there (unless
   * the host asks afresh), else from the server, kept in the store when it came with a hint.
   * `unhinted`, the connection's own: kinds it listed without a hint, which it lists on every
   * use, so that a store read before each would be a second round trip each time.
   */
  async list(server: ServerHandle, target: string, kind: ListKind, refresh: boolean, unhinted: Set<ListKind>): Promise<CacheableList<unknown>> {
    if (!refresh && !unhinted.has(kind)) {
      const kept = await this.read(server.id, target, kind);
      if (kept !== undefined) return kept;
    }
    const listedAt = Date.now();
    const list = await server.listCacheable(kind);
    if (list.ttlMs !== undefined && list.ttlMs > 0) this.write(server.id, target, kind, list, listedAt);
    else unhinted.add(kind);
    return list;
  }

  /** A list another worker (or this one) kept for `target`, with what is left of its hint; undefined when none is usable. */
  async read(serverId: string, target: string, kind: ListKind): Promise<CacheableList<unknown> | undefined> {
    let text: string | undefined;
    try {
      text = await storeCall(`reading the ${kind} of server "${serverId}"`, () => this.options.store.get(keyOf(target, kind)));
    } catch (error) {
      this.options.logger.warn(`${(error as Error).message}; the catalog lists the server instead`);
      return undefined;
    }
    if (text === undefined) return undefined;
    const checked = this.check(text, target, kind);
    if (checked === undefined) return undefined;
    if (typeof checked === "string") {
      this.options.logger.warn(`the catalog ignored the stored ${kind} of server "${serverId}" (${checked}) and lists the server instead`);
      return undefined;
    }
    return checked;
  }

  /** Keeps a list the server gave with a cache hint, for what is left of it; lists without one are not kept. */
  write(serverId: string, target: string, kind: ListKind, list: CacheableList<unknown>, listedAt: number): void {
    const ttl = list.ttlMs;
    if (ttl === undefined || !(ttl > 0)) return;
    const scope = list.cacheScope ?? "private";
    if (scope === "private" && !this.options.privateLists) return;
    const ttlMs = Math.ceil(Math.min(ttl, STORED_LIST_MAX_MS));
    const value = JSON.stringify({ type: TYPE, v: 1, target, kind, scope, expiresAt: listedAt + ttlMs, items: list.items });
    void this.quietly(`writing the ${kind} of server "${serverId}"`, () => this.options.store.set(keyOf(target, kind), value, { ttlMs }));
  }

  /** The server said the list changed: no worker may read it any more. */
  drop(serverId: string, target: string, kind: ListKind): void {
    void this.quietly(`dropping the ${kind} of server "${serverId}"`, () => this.options.store.delete(keyOf(target, kind)));
  }

  private async quietly(step: string, call: () => Promise<void>): Promise<void> {
    try {
      await storeCall(step, call);
    } catch (error) {
      this.options.logger.warn(`${(error as Error).message}; other workers will list the server themselves`);
    }
  }

  /** The list, or why it is not one to use; undefined when it is one but no longer fresh. */
  private check(text: string, target: string, kind: ListKind): CacheableList<unknown> | string | undefined {
    if (text.length > MAX_STORED_CHARS) return `longer than ${MAX_STORED_CHARS} characters`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return "not JSON";
    }
    if (!isObject(value) || value.type !== TYPE || value.v !== 1) return "not a list the catalog wrote";
    if (value.target !== target || value.kind !== kind) return "written for another target or kind";
    if (value.scope !== "public" && value.scope !== "private") return "no cache scope";
    if (value.scope === "private" && !this.options.privateLists) return "a private list, and the store is not this user's own";
    const expiresAt = value.expiresAt;
    if (typeof expiresAt !== "number" || !Number.isFinite(expiresAt)) return "no expiry";
    const items = value.items;
    if (!Array.isArray(items) || items.length > MAX_STORED_ITEMS) return "no list of items";
    const checkItem = ITEM_CHECKS[kind];
    for (let i = 0; i < items.length; i++) {
      const problem = checkItem(items[i]);
      if (problem !== undefined) return `item ${i}: ${problem}`;
    }
    // Expired is no fault of the value: simply not fresh any more.
    const left = Math.min(expiresAt - Date.now(), STORED_LIST_MAX_MS);
    if (!(left > 0)) return undefined;
    return { items, ttlMs: left, cacheScope: value.scope };
  }
}

/** The store key of one list: the hash and the kind, both of characters that cannot hold a colon. */
function keyOf(target: string, kind: ListKind): string {
  return `${PREFIX}${target}:${kind}`;
}

const ownString = (item: Record<string, unknown>, name: string): boolean => Object.hasOwn(item, name) && typeof item[name] === "string" && item[name] !== "";

const ITEM_CHECKS: Readonly<Record<ListKind, (item: unknown) => string | undefined>> = {
  tools: (item) => {
    if (!isObject(item) || !ownString(item, "name")) return "a tool must have a name";
    if (!Object.hasOwn(item, "inputSchema") || !isObject(item.inputSchema)) return "a tool must have an inputSchema object";
    return undefined;
  },
  resources: (item) => (isObject(item) && ownString(item, "uri") && ownString(item, "name") ? undefined : "a resource must have a uri and a name"),
  prompts: (item) => (isObject(item) && ownString(item, "name") ? undefined : "a prompt must have a name"),
};
