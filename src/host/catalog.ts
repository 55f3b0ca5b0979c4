/**
 * One catalog across the client's servers: every tool, resource and prompt with the id of its
 * server and, for tools, a `qualifiedName` that means that one tool for the Client's life
 * (`tool-names.ts`: a function of the server id and the tool's name, never of what others list).
 *
 * Lists are cached per server and dropped when the server says they changed (legacy servers send
 * `notifications/*\/list_changed` unasked; of a modern one the catalog asks them with `watch`),
 * when a 2026-07-28 list's cache hint (`ttlMs`) has passed, when the server's connection ends or
 * is restarted, or on request (`refresh`). A lazy server is connected by its first listing, unless
 * the store holds its list (`catalogStore`): then it is started by its first call. While
 * a server is being restarted its tools are the ones it listed last, marked `restarting`. With
 * `catalogStore`, lists with a hint are also kept in the client's store for other workers
 * (`catalog-store.ts`).
 *
 * `callTool` lists only a server whose tools the catalog never had (who may call a tool is in
 * that list), and only until one listing succeeded: a name is read (or looked up among the hashed
 * ones issued), and a name the server's current list does not hold is refused at once. So a model
 * that calls unknown names in a loop costs no request to any server.
 *
 * MCP Apps (apps.mdx 2026-01-26, "Visibility"): each tool carries who may call it, as
 * `appsToolMeta` reads its `_meta.ui`, and its app view when it has one. `tools()` gives the
 * model's view unless asked for another (a tool made for its app alone is never handed to a
 * model by default), and `callTool` refuses a call whose caller the tool does not allow, before
 * anything is sent (tool-visibility.ts).
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { knownKeys } from "../util/arguments.js";
import type { PendingInput } from "../pending-input.js";
import type { Logger } from "../util/logger.js";
import { quote } from "../util/text.js";
import { now } from "../util/time.js";
import type { CallOptions } from "../protocol/methods.js";
import type { CacheableList, ServerHandle } from "../server.js";
import type { ServerStateChange } from "../server-life.js";
import type { ListenFilter, Subscription } from "../protocol/subscriptions.js";
import type { CallToolResult, Prompt, Resource, Tool } from "../protocol/types/index.js";
import { DEFAULT_VISIBILITY, appsToolMeta, type ToolAudience } from "../index.js";
import { ToolNames } from "./tool-names.js";
import { indexPart, rank, searchArguments, type PartIndex, type ToolSearchHit } from "./tool-search.js";
import { ToolVisibilityError, checkCaller, checkView, type ToolView } from "./tool-visibility.js";
import type { StoredLists } from "./catalog-store.js";
import type { ToolPins } from "./tool-pins.js";
import { ToolNotApprovedError } from "./tool-pin-error.js";

export type CatalogTool = Tool & {
  readonly serverId: string;
  readonly qualifiedName: string;
  /**
   * Present (`true`) while the tool's server is being restarted: the tool is one the server
   * listed before it broke, and a `callTool` of it waits for the server within the call's
   * timeout. Absent while the server is ready.
   */
  readonly restarting?: true;
  /**
   * Who may call the tool (MCP Apps `_meta.ui.visibility`): `"model"` (it may be given to a
   * model), `"app"` (its own app view may call it), or both, the default. Never empty.
   */
  readonly visibility: readonly ToolAudience[];
  /** The tool's app view, a `ui://` URI to read with `resources/read`, when it has one. */
  readonly appResourceUri?: string;
  /**
   * Present (`true`) when the host lists the tool's server as trusted (`trustedServers`): only
   * then are its `annotations` more than the server's own claims. Absent otherwise.
   */
  readonly annotationsTrusted?: true;
};
export type CatalogResource = Resource & { readonly serverId: string };
export type CatalogPrompt = Prompt & { readonly serverId: string };

export interface CatalogOptions {
  /** List afresh, whatever is cached. */
  refresh?: boolean | undefined;
}

export interface ToolsOptions extends CatalogOptions {
  /**
   * Which tools: `"model"` (the default) those a model may be given, leaving out the tools made
   * for an app's view alone; `"app"` those an app's view may call; `"all"` every tool, each with
   * its `visibility` (a host that renders apps reads their views here).
   */
  audience?: ToolView | undefined;
}

export interface ToolSearchOptions extends ToolsOptions {
  /** How many tools at most (default 10, at most 1 000). */
  limit?: number | undefined;
}

/** Options of `client.callTool`: a call's, and who makes it. */
export interface CatalogCallOptions extends CallOptions {
  /**
   * Who makes the call: `"model"` (the default: what a model asked for, as the adapters pass
   * on) or `"app"` (a tool's app view, through the host's app session). A tool whose
   * `visibility` does not include the caller is refused with a `ToolVisibilityError` before
   * anything is sent: a model may not call a tool made for an app alone, nor an app one made for
   * the model alone.
   */
  caller?: ToolAudience | undefined;
}

/** What the catalog needs of its client. */
export interface CatalogSource {
  /** Every server the host may use (ready, lazy, restarting), in the order they were connected. */
  servers(): ServerHandle[];
  /** The server a call goes to: also one that is restarting (the call waits for it). */
  server(serverId: string): ServerHandle | undefined;
  onServerState(listener: (change: ServerStateChange) => void): () => void;
  logger: Logger;
  /** Pinning, when the host asked for it: which tools of a listing wait for approval. */
  pins?: ToolPins | undefined;
  /** Whether the host trusts the annotations of a server's tools. */
  trusted?: ((serverId: string) => boolean) | undefined;
  /** The lists kept in the client's store (`catalogStore`), and the hash of each server's target. */
  stored?: { readonly lists: StoredLists; targetOf(serverId: string): string | undefined } | undefined;
}

/** One list of one server: the listing (shared while it runs) and until when it is good. */
interface Cached {
  readonly listing: Promise<CacheableList<unknown>>;
  /** `Infinity` while the listing runs, and for lists without a cache hint. */
  expiresAt: number;
  /** What it listed, once it has. */
  items?: readonly unknown[];
}

/** What the catalog keeps of one server's connection. */
interface ServerEntry {
  readonly lists: Partial<Record<Kind, Cached>>;
  /** Modern era: the subscription to list changes the catalog opened (once per connection). */
  watching?: Promise<Subscription | undefined>;
  /** Lists this connection gave without a cache hint: none is looked for in the store again. */
  unhinted?: Set<Kind>;
}

/** One server's part of a gathering. */
interface Listing {
  readonly serverId: string;
  readonly items: readonly unknown[];
  /** The server is being restarted: these are the tools it listed last. */
  readonly restarting: boolean;
}

/** One server's tools in the catalog, and the list they were made of. */
interface Part {
  readonly items: readonly unknown[];
  readonly restarting: boolean;
  /** Every tool, and those of each audience (the very array `tools` when that is all of them). */
  readonly tools: readonly CatalogTool[];
  readonly model: readonly CatalogTool[];
  readonly app: readonly CatalogTool[];
}

/** A catalog of tools as made from one gathering, and its views, each made when first asked. */
interface Built {
  readonly lists: Listing[];
  readonly parts: readonly Part[];
  readonly views: Partial<Record<ToolView, CatalogTool[]>>;
}

type Kind = "tools" | "resources" | "prompts";
const CHANGED: Readonly<Record<string, Kind>> = {
  "notifications/tools/list_changed": "tools",
  "notifications/resources/list_changed": "resources",
  "notifications/prompts/list_changed": "prompts",
};

const TOOLS_KEYS: ReadonlySet<string> = new Set(["refresh", "audience"]);
const SEARCH_KEYS: ReadonlySet<string> = new Set(["refresh", "audience", "limit"]);

/** A server's cache hint is kept at most a day: a list is not trusted for ever on its word. */
const MAX_TTL_MS = 24 * 60 * 60 * 1000;
/** One empty list for every server left out, so that a gathering of the same lists is seen as such. */
const NONE: readonly unknown[] = Object.freeze([]);

export class Catalog {
  private readonly cache = new Map<string, ServerEntry>();
  /** The tools each server listed last in its life: what the catalog shows while it restarts. */
  private readonly lastTools = new Map<string, readonly unknown[]>();
  /** Servers between `restarting` and `ready` (their `connecting` included). */
  private readonly restarting = new Set<string>();
  private readonly names = new ToolNames();
  /** The tools of one list of tools by name (the first of each), made once per list when a call asks. */
  private readonly namesIn = new WeakMap<readonly unknown[], ReadonlyMap<string, Tool>>();
  /**
   * The visibility of each tool issued whose visibility is not the default, as last listed: what
   * a call is judged by when the catalog has no list of the tool's server (a server connected
   * again under the same id); a tool of the default is absent.
   */
  private readonly restricted = new Map<string, readonly ToolAudience[]>();
  /** The last catalog of tools and the lists it was made of: given again while they are the same. */
  private built: Built | undefined;
  /**
   * Each server's part of the last catalog, kept while its list is the same: a list that changed
   * on one server re-makes that server's tools alone, and every other tool stays the very object
   * it was (10 000 tools re-made for one server's change of 100 would be most of the refresh).
   */
  private readonly parts = new Map<string, Part>();

  constructor(private readonly source: CatalogSource) {
    source.onServerState(({ serverId, state }) => {
      if (state === "restarting") this.restarting.add(serverId);
      else if (state !== "connecting") this.restarting.delete(serverId);
      if (state === "closed" || state === "failed") this.lastTools.delete(serverId);
      // A restarted server is another process, or another session: nothing it listed holds.
      if (state !== "ready") this.forget(serverId);
    });
  }

  /**
   * A notification from a server, told as it arrives (not through the hooks' queue, which may
   * drop it when full): a list that changed is dropped at once.
   */
  heard(serverId: string, method: string): void {
    const kind = CHANGED[method];
    if (kind === undefined) return;
    const lists = this.cache.get(serverId)?.lists;
    if (lists?.[kind] === undefined) return;
    delete lists[kind];
    // Once per list the catalog had, not per notification: a storm of them is one delete.
    const target = this.source.stored?.targetOf(serverId);
    if (target !== undefined) this.source.stored!.lists.drop(serverId, target, kind);
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
  async tools(options: ToolsOptions = {}): Promise<CatalogTool[]> {
    // A misspelt `audience` would give the model's view without a word: the keys are checked.
    if (typeof options !== "object" || options === null) throw new InvalidArgumentError("the tools options must be an object");
    knownKeys("the tools options", options, TOOLS_KEYS);
    const view = checkView(options.audience);
    const lists = await this.admitted(await this.gather("tools", options));
    let built = this.built;
    if (built === undefined || !sameLists(built.lists, lists)) this.built = built = this.build(lists);
    let tools = built.views[view];
    if (tools === undefined) {
      tools = [];
      const of = view === "all" ? "tools" : view;
      for (const part of built.parts) for (const tool of part[of]) tools.push(tool);
      built.views[view] = tools;
    }
    return tools.slice();
  }

  /**
   * The tools that best match `query` (BM25 over names, titles, descriptions and parameters), of
   * the view `audience` gives (the model's by default), best first.
   */
  async searchTools(query: string, options: ToolSearchOptions = {}): Promise<ToolSearchHit[]> {
    if (typeof options !== "object" || options === null) throw new InvalidArgumentError("the tool search options must be an object");
    knownKeys("the tool search options", options, SEARCH_KEYS);
    const { terms, folded, limit } = searchArguments(query, options.limit);
    const view = checkView(options.audience);
    // The same gathering `tools()` makes: lists cached, a lazy server connected, hints kept.
    await this.tools({ audience: view, refresh: options.refresh });
    const built = this.built;
    if (built === undefined) return [];
    const of = view === "all" ? "tools" : view;
    return rank(built.parts.map((part) => this.indexOf(part[of])), terms, folded, limit);
  }

  /**
   * With pinning, each server's list less the tools that wait for the host's approval. A server
   * whose pins cannot be read is left out: judging without them would trust its tools anew.
   */
  private async admitted(lists: Listing[]): Promise<Listing[]> {
    const pins = this.source.pins;
    if (pins === undefined) return lists;
    return Promise.all(
      lists.map(async (listing) => {
        if (listing.items === NONE) return listing;
        try {
          const items = await pins.admit(listing.serverId, listing.items);
          return items === listing.items ? listing : { ...listing, items };
        } catch (error) {
          this.source.logger.warn(`the catalog left out the tools of server "${listing.serverId}": its pins could not be read: ${(error as Error).message}`);
          return { serverId: listing.serverId, items: NONE, restarting: false };
        }
      }),
    );
  }

  /** One server's index, kept while its part of the catalog is the same array. */
  private readonly indexes = new WeakMap<readonly CatalogTool[], PartIndex>();
  private indexOf(tools: readonly CatalogTool[]): PartIndex {
    let index = this.indexes.get(tools);
    if (index === undefined) this.indexes.set(tools, (index = indexPart(tools)));
    return index;
  }

  private build(lists: Listing[]): Built {
    const parts: Part[] = [];
    const listed = new Set<string>();
    for (const listing of lists) {
      listed.add(listing.serverId);
      let part = this.parts.get(listing.serverId);
      if (part === undefined || part.items !== listing.items || part.restarting !== listing.restarting) this.parts.set(listing.serverId, (part = this.makePart(listing)));
      parts.push(part);
    }
    for (const serverId of this.parts.keys()) if (!listed.has(serverId)) this.parts.delete(serverId);
    return { lists, parts, views: {} };
  }

  /** One server's tools with the catalog's fields, from the list it gave. */
  private makePart({ serverId, items, restarting }: Listing): Part {
    const tools: CatalogTool[] = [];
    const seen = new Map<string, Tool>();
    const trusted = this.source.trusted?.(serverId) === true;
    let twice = 0;
    for (const tool of items as Tool[]) {
      // One name, one tool: a server that lists a name again has its first one kept.
      if (seen.has(tool.name)) {
        twice++;
        continue;
      }
      seen.set(tool.name, tool);
      const made = taggedTool(tool, serverId, this.names.issue(serverId, tool.name), restarting, trusted);
      if (made.visibility !== DEFAULT_VISIBILITY) this.restricted.set(made.qualifiedName, made.visibility);
      else if (this.restricted.size > 0) this.restricted.delete(made.qualifiedName);
      tools.push(made);
    }
    this.namesIn.set(items, seen);
    if (twice > 0) this.source.logger.warn(`server "${serverId}" listed ${twice} tool${twice === 1 ? "" : "s"} under a name it had listed before; the catalog keeps the first of each`);
    return { items, restarting, tools, model: audience(tools, "model"), app: audience(tools, "app") };
  }

  async resources(options: CatalogOptions = {}): Promise<CatalogResource[]> {
    const lists = await this.gather("resources", options);
    return lists.flatMap(({ serverId, items }) => (items as Resource[]).map((resource) => tagged(resource, serverId)));
  }

  async prompts(options: CatalogOptions = {}): Promise<CatalogPrompt[]> {
    const lists = await this.gather("prompts", options);
    return lists.flatMap(({ serverId, items }) => (items as Prompt[]).map((prompt) => tagged(prompt, serverId)));
  }

  /**
   * Calls a tool by its qualified name, on its server (one being restarted is waited for, within
   * the call's timeout). A name this Client never gave, of a server it does not have, or that
   * its server's current list does not hold, is `"unsupported"` at once.
   */
  async callTool(qualifiedName: string, args?: Record<string, unknown>, options?: CatalogCallOptions): Promise<CallToolResult | PendingInput> {
    const caller = checkCaller(options?.caller);
    const owner = this.names.owner(qualifiedName);
    if (owner === undefined) throw new ClientError("unsupported", `no tool of the catalog is named ${quote(qualifiedName)}`);
    const { serverId, name } = owner;
    const server = this.source.server(serverId);
    if (server === undefined) throw new ClientError("unsupported", `no tool of the catalog is named ${quote(qualifiedName)}: no server "${serverId}" is connected`, { serverId });
    const listed = this.listedNow(serverId);
    if (listed !== undefined && !listed.has(name)) {
      throw new ClientError("unsupported", `the tool ${qualifiedName} (${quote(name)} of server "${serverId}") is not in the list of tools its server gives now`, { serverId });
    }
    await this.checkApproved(server, name, qualifiedName);
    let visibility = this.visibilityOf(serverId, name, qualifiedName);
    if (visibility === undefined) {
      // Who may call a tool is in its server's list alone: one the catalog never had is listed
      // (and cached, as for tools()), once; a list that fails leaves the server to judge.
      await this.listOf(server, "tools", {});
      visibility = this.visibilityOf(serverId, name, qualifiedName) ?? DEFAULT_VISIBILITY;
    }
    if (!visibility.includes(caller)) throw new ToolVisibilityError({ serverId, qualifiedName, toolName: name, caller, visibility });
    // Never a task: the catalog's options have no `task`, and `withoutCaller` keeps none.
    return server.callTool(name, args, withoutCaller(options)) as Promise<CallToolResult | PendingInput>;
  }

  /**
   * With pinning, a tool that waits for approval is refused before anything is sent. It is
   * judged by the list its server gives now, while its cache hint holds (a lazy server not yet
   * started: the list the store keeps for it); listed now when the catalog has none (
   * after a `list_changed` or a restart, the list before it says nothing of what will run). Only
   * while the server is being restarted is it judged by the tools it listed last.
   */
  private async checkApproved(server: ServerHandle, name: string, qualifiedName: string): Promise<void> {
    const pins = this.source.pins;
    if (pins === undefined) return;
    const serverId = server.id;
    const restarting = server.state === "restarting" || this.restarting.has(serverId);
    // A list past its cache hint says nothing of what will run: listed again, as tools() would.
    const cached = this.cache.get(serverId)?.lists.tools;
    const fresh = cached?.items !== undefined && now() < cached.expiresAt ? cached.items : undefined;
    let items = fresh ?? (restarting ? this.lastTools.get(serverId) : undefined);
    if (items === undefined) items = (await this.listOf(server, "tools", {})).items;
    const reason = await pins.waiting(serverId, items === NONE ? undefined : items, name);
    if (reason !== undefined) throw new ToolNotApprovedError({ serverId, qualifiedName, toolName: name, reason });
  }

  /**
   * Who may call a tool, from the newest list of its server the catalog has (the current one,
   * else the one it listed last), else as last listed; undefined when the catalog has no list of
   * the server and never saw the tool.
   */
  private visibilityOf(serverId: string, name: string, qualifiedName: string): readonly ToolAudience[] | undefined {
    const items = this.cache.get(serverId)?.lists.tools?.items ?? this.lastTools.get(serverId);
    const tool = items === undefined ? undefined : this.toolsIn(items).get(name);
    if (tool !== undefined) return appsToolMeta(tool).visibility;
    const restricted = this.restricted.get(qualifiedName);
    if (restricted !== undefined || items === undefined) return restricted;
    return DEFAULT_VISIBILITY;
  }

  private toolsIn(items: readonly unknown[]): ReadonlyMap<string, Tool> {
    let tools = this.namesIn.get(items);
    if (tools === undefined) {
      const made = new Map<string, Tool>();
      for (const tool of items as Tool[]) if (!made.has(tool.name)) made.set(tool.name, tool);
      this.namesIn.set(items, (tools = made));
    }
    return tools;
  }

  /**
   * The names of the tools a server's connection listed, while that list holds (not changed,
   * within its cache hint); undefined when the catalog does not know them (the call then goes to
   * the server, which is the judge).
   */
  private listedNow(serverId: string): ReadonlyMap<string, Tool> | undefined {
    const cached = this.cache.get(serverId)?.lists.tools;
    const items = cached?.items;
    if (cached === undefined || items === undefined || now() >= cached.expiresAt) return undefined;
    return this.toolsIn(items);
  }

  /**
   * Each server's list of `kind`, cached; a server whose list fails (or a lazy one that cannot
   * connect) is left out, and its cache dropped. A server being restarted gives the tools it
   * listed last, and nothing else.
   */
  private async gather(kind: Kind, options: CatalogOptions): Promise<Listing[]> {
    const servers = this.source.servers();
    const present = new Set(servers.map((server) => server.id));
    for (const id of this.cache.keys()) if (!present.has(id)) this.forget(id);
    for (const id of this.lastTools.keys()) if (!present.has(id)) this.lastTools.delete(id);
    return Promise.all(servers.map((server) => this.listOf(server, kind, options)));
  }

  private async listOf(server: ServerHandle, kind: Kind, options: CatalogOptions): Promise<Listing> {
    const serverId = server.id;
    if (server.state === "restarting" || this.restarting.has(serverId)) {
      const last = kind === "tools" ? this.lastTools.get(serverId) : undefined;
      return { serverId, items: last ?? NONE, restarting: last !== undefined };
    }
    if (server.state === "idle" && options.refresh !== true) {
      const kept = await this.keptWhileIdle(server, kind);
      if (kept !== undefined) return kept;
    }
    try {
      if (server.state !== "ready") await server.ready();
      if (!offers(server, kind)) return { serverId, items: NONE, restarting: false };
    } catch (error) {
      this.source.logger.warn(`the catalog left out server "${serverId}": ${(error as Error).message}`);
      return { serverId, items: NONE, restarting: false };
    }
    let entry = this.cache.get(serverId);
    if (entry === undefined) this.cache.set(serverId, (entry = { lists: {} }));
    if (server.era === "modern") entry.watching ??= this.watch(server, entry);
    let cached = entry.lists[kind];
    if (options.refresh === true || cached === undefined || now() >= cached.expiresAt) {
      const made: Cached = { listing: this.listing(server, kind, options, entry), expiresAt: Infinity };
      entry.lists[kind] = cached = made;
      made.listing.then(
        ({ items, ttlMs }) => {
          made.items = items;
          made.expiresAt = ttlMs === undefined ? Infinity : now() + Math.min(ttlMs, MAX_TTL_MS);
        },
        () => {},
      );
    }
    const pending = cached;
    try {
      const { items } = await pending.listing;
      // What a restart shows: the last list of the server's life (a closed server has none).
      if (kind === "tools" && this.source.server(serverId) === server) this.lastTools.set(serverId, items);
      return { serverId, items, restarting: false };
    } catch (error) {
      if (entry.lists[kind] === pending) delete entry.lists[kind];
      this.source.logger.warn(`the catalog left out the ${kind} of server "${serverId}": ${(error as Error).message}`);
      return { serverId, items: NONE, restarting: false };
    }
  }

  /**
   * A lazy server not started yet, whose list another worker (or an earlier Client) kept in the
   * store while its hint holds: that list, cached until the hint passes or the server starts, so
   * a search finds its tools and only a call starts it. Only 2026-07-28 lists are kept, and they
   * are read back checked (`catalog-store.ts`); without one the server is connected to be listed.
   */
  private async keptWhileIdle(server: ServerHandle, kind: Kind): Promise<Listing | undefined> {
    const stored = this.source.stored;
    const target = stored?.targetOf(server.id);
    if (stored === undefined || target === undefined) return undefined;
    const serverId = server.id;
    const cached = this.cache.get(serverId)?.lists[kind];
    if (cached?.items !== undefined && now() < cached.expiresAt) return { serverId, items: cached.items, restarting: false };
    const kept = await stored.lists.read(serverId, target, kind);
    // Started (or closed) while the store was read: what it lists now is the one to give.
    if (kept === undefined || server.state !== "idle" || this.source.server(serverId) !== server) return undefined;
    // Read again after the await: another kind's read may have made the entry meanwhile.
    let entry = this.cache.get(serverId);
    if (entry === undefined) this.cache.set(serverId, (entry = { lists: {} }));
    const expiresAt = now() + Math.min(kept.ttlMs ?? 0, MAX_TTL_MS);
    entry.lists[kind] = { listing: Promise.resolve(kept), items: kept.items, expiresAt };
    if (kind === "tools") this.lastTools.set(serverId, kept.items);
    return { serverId, items: kept.items, restarting: false };
  }

  /** A server's list: through the client's store when the host keeps the lists there (`catalog-store.ts`). */
  private listing(server: ServerHandle, kind: Kind, options: CatalogOptions, entry: ServerEntry): Promise<CacheableList<unknown>> {
    const stored = this.source.stored;
    const target = stored?.targetOf(server.id);
    if (stored === undefined || target === undefined || server.era !== "modern") return server.listCacheable(kind);
    return stored.lists.list(server, target, kind, options.refresh === true, (entry.unhinted ??= new Set()));
  }

  /**
   * A modern server tells of list changes only to a subscription: the catalog opens one for the
   * lists the server says may change. When it ends, what was cached may have missed a change.
   */
  private async watch(server: ServerHandle, entry: ServerEntry): Promise<Subscription | undefined> {
    const capabilities = server.serverCapabilities ?? {};
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

/** Whether two gatherings hold the very same lists (a list listed again is a new array). */
function sameLists(a: readonly Listing[], b: readonly Listing[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.serverId !== y.serverId || x.items !== y.items || x.restarting !== y.restarting) return false;
  }
  return true;
}

/*
 * An item with the catalog's fields. They are written before the item's own: V8 copies a literal
 * of fixed fields and then one spread fast, while fields after a spread (or two spreads) are
 * some twenty times slower, which for 5 000 tools is most of a listing. An item that has a field
 * of those names itself, which would then win, takes the slow way.
 */
function taggedTool(tool: Tool, serverId: string, qualifiedName: string, restarting: boolean, trusted: boolean): CatalogTool {
  const { visibility, resourceUri: appResourceUri } = appsToolMeta(tool);
  // The slow way for a trusted server's tools too: the host trusts few, and the fast literals stay four.
  if (!trusted && !OWN_FIELDS.some((field) => Object.hasOwn(tool, field))) {
    // One literal per set of fields, so that each stays a literal and one spread.
    if (appResourceUri === undefined) return restarting ? { serverId, qualifiedName, visibility, restarting: true, ...tool } : { serverId, qualifiedName, visibility, ...tool };
    return restarting ? { serverId, qualifiedName, visibility, appResourceUri, restarting: true, ...tool } : { serverId, qualifiedName, visibility, appResourceUri, ...tool };
  }
  const copy: Tool & { serverId: string; qualifiedName: string; visibility: readonly ToolAudience[]; appResourceUri?: string; restarting?: true; annotationsTrusted?: true } = { ...tool, serverId, qualifiedName, visibility };
  // These are the catalog's to give: a server's own fields of those names are not kept.
  if (appResourceUri !== undefined) copy.appResourceUri = appResourceUri;
  else delete copy.appResourceUri;
  if (restarting) copy.restarting = true;
  else delete copy.restarting;
  if (trusted) copy.annotationsTrusted = true;
  else delete copy.annotationsTrusted;
  return copy;
}

const OWN_FIELDS = ["serverId", "qualifiedName", "restarting", "visibility", "appResourceUri", "annotationsTrusted"] as const;

/** The tools `who` may call: `tools` itself when that is all of them (the common case). */
function audience(tools: CatalogTool[], who: ToolAudience): readonly CatalogTool[] {
  return tools.every((tool) => tool.visibility.includes(who)) ? tools : tools.filter((tool) => tool.visibility.includes(who));
}

/** The options for the server: `caller` is the catalog's, and the handle would refuse it. */
function withoutCaller(options: CatalogCallOptions | undefined): CallOptions | undefined {
  if (options === undefined || !Object.hasOwn(options, "caller")) return options;
  const { caller: _caller, ...rest } = options;
  return rest;
}

function tagged<T extends object>(item: T, serverId: string): T & { readonly serverId: string } {
  if (Object.hasOwn(item, "serverId")) return { ...item, serverId };
  return { serverId, ...item };
}

function offers(server: ServerHandle, kind: Kind): boolean {
  return server.serverCapabilities?.[kind] !== undefined;
}
