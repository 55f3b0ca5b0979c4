/**
 * One catalog across the client's ready servers: every tool, resource and prompt with the id of
 * its server and, for tools, a `qualifiedName` unique across servers and valid for every major
 * model API (`^[a-zA-Z0-9_-]{1,64}$`). The name is `<serverId>_<name>` with other characters
 * made `_`; one too long, or that would clash with another, ends in a short hash of the server
 * id and the name, so that it is stable across runs and never merged with another tool.
 *
 * Lists are cached per server and dropped when the server says they changed (legacy servers send
 * `notifications/*\/list_changed` unasked; of a modern one the catalog asks them with `watch`),
 * when a 2026-07-28 list's cache hint (`ttlMs`) has passed, when the server's connection ends or
 * is restarted, or on request (`refresh`). A lazy server is connected by its first listing.
 */
import { ClientError } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import { now } from "../util/time.js";
import type { CacheableList, CallOptions, ServerHandle, ServerStateChange } from "../server.js";
import type { ListenFilter, Subscription } from "../protocol/subscriptions.js";
import type { CallToolResult, Prompt, Resource, Tool } from "../protocol/types/index.js";

export type CatalogTool = Tool & { readonly serverId: string; readonly qualifiedName: string };
export type CatalogResource = Resource & { readonly serverId: string };
export type CatalogPrompt = Prompt & { readonly serverId: string };

export interface CatalogOptions {
  /** List afresh, whatever is cached. */
  refresh?: boolean | undefined;
}

/** What the catalog needs of its client. */
export interface CatalogSource {
  /** The servers to list: ready ones, and lazy ones not connected yet. */
  servers(): ServerHandle[];
  /** The server a call goes to: also one that is restarting (the call waits for it). */
  server(serverId: string): ServerHandle | undefined;
  onServerState(listener: (change: ServerStateChange) => void): () => void;
  logger: Logger;
}

/** One list of one server: the listing (shared while it runs) and until when it is good. */
interface Cached {
  readonly listing: Promise<CacheableList<unknown>>;
  /** `Infinity` while the listing runs, and for lists without a cache hint. */
  expiresAt: number;
}

/** What the catalog keeps of one server. */
interface ServerEntry {
  readonly lists: Partial<Record<Kind, Cached>>;
  /** Modern era: the subscription to list changes the catalog opened (once per connection). */
  watching?: Promise<Subscription | undefined>;
}

type Kind = "tools" | "resources" | "prompts";
const CHANGED: Readonly<Record<string, Kind>> = {
  "notifications/tools/list_changed": "tools",
  "notifications/resources/list_changed": "resources",
  "notifications/prompts/list_changed": "prompts",
};

/** A server's cache hint is kept at most a day: a list is not trusted for ever on its word. */
const MAX_TTL_MS = 24 * 60 * 60 * 1000;
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;
const SAFE = /^[a-zA-Z0-9_-]*$/;
const HASH_CHARS = 8;

export class Catalog {
  private readonly cache = new Map<string, ServerEntry>();
  /** The last listing's tools, by qualified name, for `callTool`. */
  private routes = new Map<string, { serverId: string; name: string }>();
  /** The last catalog of tools and the lists it was made of: given again while they are the same. */
  private built: { lists: Listing[]; tools: CatalogTool[] } | undefined;

  constructor(private readonly source: CatalogSource) {
    // A restarted server is another process, or another session: nothing it listed holds.
    source.onServerState(({ serverId, state }) => {
      if (state !== "ready") this.forget(serverId);
    });
  }

  /**
   * A notification from a server, told as it arrives (not through the hooks' queue, which may
   * drop it when full): a list that changed is dropped at once.
   */
  heard(serverId: string, method: string): void {
    const kind = CHANGED[method];
    if (kind !== undefined) delete this.cache.get(serverId)?.lists[kind];
  }

  private forget(serverId: string): void {
    const entry = this.cache.get(serverId);
    if (entry === undefined) return;
    this.cache.delete(serverId);
    void entry.watching?.then((subscription) => subscription?.close()).catch(() => {});
  }

  /**
   * The tools of every server. While no list changed, the same catalog is given again (a new
   * array of the same items: treat them as read-only).
   */
  async tools(options: CatalogOptions = {}): Promise<CatalogTool[]> {
    const lists = await this.gather("tools", options);
    const built = this.built;
    if (built !== undefined && sameLists(built.lists, lists)) return built.tools.slice();
    const routes = new Map<string, { serverId: string; name: string }>();
    const tools: CatalogTool[] = [];
    for (const { serverId, items } of lists) {
      for (const tool of items as Tool[]) {
        const qualifiedName = qualify(serverId, tool.name, routes);
        routes.set(qualifiedName, { serverId, name: tool.name });
        tools.push(taggedTool(tool, serverId, qualifiedName));
      }
    }
    this.routes = routes;
    this.built = { lists, tools };
    return tools.slice();
  }

  async resources(options: CatalogOptions = {}): Promise<CatalogResource[]> {
    const lists = await this.gather("resources", options);
    return lists.flatMap(({ serverId, items }) => (items as Resource[]).map((resource) => tagged(resource, serverId)));
  }

  async prompts(options: CatalogOptions = {}): Promise<CatalogPrompt[]> {
    const lists = await this.gather("prompts", options);
    return lists.flatMap(({ serverId, items }) => (items as Prompt[]).map((prompt) => tagged(prompt, serverId)));
  }

  /** Calls a tool by its qualified name, on its server. */
  async callTool(qualifiedName: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
    let route = this.routes.get(qualifiedName);
    if (route === undefined) {
      await this.tools();
      route = this.routes.get(qualifiedName);
    }
    if (route === undefined) throw new ClientError("usage", `no tool of the catalog is named ${JSON.stringify(qualifiedName).slice(0, 100)}`);
    const server = this.source.server(route.serverId);
    if (server === undefined) throw new ClientError("closed", `the server of ${qualifiedName} ("${route.serverId}") is not ready`, { serverId: route.serverId });
    return server.callTool(route.name, args, options);
  }

  /**
   * Each server's list of `kind`, cached; a server whose list fails (or a lazy one that cannot
   * connect) is left out, and its cache dropped.
   */
  private async gather(kind: Kind, options: CatalogOptions): Promise<Listing[]> {
    const servers = this.source.servers();
    const present = new Set(servers.map((server) => server.id));
    for (const id of this.cache.keys()) if (!present.has(id)) this.forget(id);
    const lists = await Promise.all(
      servers.map(async (server) => {
        try {
          if (server.state === "idle") await server.ready();
          if (!offers(server, kind)) return { serverId: server.id, items: [] as unknown[] };
        } catch (error) {
          this.source.logger.warn(`the catalog left out server "${server.id}": ${(error as Error).message}`);
          return { serverId: server.id, items: [] as unknown[] };
        }
        let entry = this.cache.get(server.id);
        if (entry === undefined) this.cache.set(server.id, (entry = { lists: {} }));
        if (server.era === "modern") entry.watching ??= this.watch(server, entry);
        let cached = entry.lists[kind];
        if (options.refresh === true || cached === undefined || now() >= cached.expiresAt) {
          const made: Cached = { listing: server.listCacheable(kind), expiresAt: Infinity };
          entry.lists[kind] = cached = made;
          made.listing.then(
            ({ ttlMs }) => (made.expiresAt = ttlMs === undefined ? Infinity : now() + Math.min(ttlMs, MAX_TTL_MS)),
            () => {},
          );
        }
        const pending = cached;
        try {
          return { serverId: server.id, items: (await pending.listing).items };
        } catch (error) {
          if (entry.lists[kind] === pending) delete entry.lists[kind];
          this.source.logger.warn(`the catalog left out the ${kind} of server "${server.id}": ${(error as Error).message}`);
          return { serverId: server.id, items: [] as unknown[] };
        }
      }),
    );
    return lists;
  }

  /**
   * A modern server tells of list changes only to a subscription: the catalog opens one for the
   * lists the server says may change. When it ends, what was cached may have missed a change.
   */
  private async watch(server: ServerHandle, entry: ServerEntry): Promise<Subscription | undefined> {
    const capabilities = server.serverCapabilities;
    const filter: ListenFilter = {};
    if (capabilities.tools?.listChanged === true) filter.toolsListChanged = true;
    if (capabilities.resources?.listChanged === true) filter.resourcesListChanged = true;
    if (capabilities.prompts?.listChanged === true) filter.promptsListChanged = true;
    if (Object.keys(filter).length === 0) return undefined;
    try {
      const subscription = await server.watch(filter);
      void subscription.ended.then(() => {
        if (this.cache.get(server.id) === entry) this.forget(server.id);
      });
      return subscription;
    } catch (error) {
      this.source.logger.debug(`the catalog could not watch server "${server.id}" for list changes: ${(error as Error).message}`);
      return undefined;
    }
  }
}

type Listing = { serverId: string; items: unknown[] };

/** Whether two gatherings hold the very same lists (a list listed again is a new array). */
function sameLists(a: readonly Listing[], b: readonly Listing[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.serverId !== b[i]!.serverId || a[i]!.items !== b[i]!.items) return false;
  return true;
}

/*
 * An item with the catalog's fields. They are written before the item's own: V8 copies a literal
 * of fixed fields and then one spread fast, while fields after a spread (or two spreads) are
 * some twenty times slower, which for 5 000 tools is most of a listing. An item that has a field
 * of those names itself, which would then win, takes the slow way.
 */
function taggedTool(tool: Tool, serverId: string, qualifiedName: string): CatalogTool {
  if (Object.hasOwn(tool, "serverId") || Object.hasOwn(tool, "qualifiedName")) return { ...tool, serverId, qualifiedName };
  return { serverId, qualifiedName, ...tool };
}

function tagged<T extends object>(item: T, serverId: string): T & { readonly serverId: string } {
  if (Object.hasOwn(item, "serverId")) return { ...item, serverId };
  return { serverId, ...item };
}

function offers(server: ServerHandle, kind: Kind): boolean {
  return server.serverCapabilities[kind] !== undefined;
}

/** `<serverId>_<name>`, valid for model APIs; shortened with a stable hash when too long or taken. */
export function qualify(serverId: string, name: string, taken: { has(name: string): boolean }): string {
  let plain = `${serverId}_${name}`;
  if (!SAFE.test(plain)) plain = plain.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (VALID.test(plain) && !taken.has(plain)) return plain;
  // A server that lists one name twice would get the same hash twice: the next one is salted.
  for (let salt = 0; ; salt++) {
    const hash = fnv1a(salt === 0 ? `${serverId}\u0000${name}` : `${serverId}\u0000${name}\u0000${salt}`).toString(16).padStart(HASH_CHARS, "0");
    const candidate = `${plain.slice(0, 64 - HASH_CHARS - 1)}_${hash}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** FNV-1a, 32 bits: a short hash that stays the same from run to run. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
