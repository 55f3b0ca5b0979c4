/**
 * The Client: one Handler, many servers, each under an id the operator chose. It owns the
 * registry of server handles, the input pipeline every server's requests go through, and the
 * one queue in which notification hooks run.
 *
 * A server's id is taken when `connect` starts and freed when its connection has ended: after
 * a failed connect, or once `close()`/`destroy()` resolved. `close()` of the client ends every
 * server gracefully and accepts no new one; `destroy()` ends them at once.
 */
import type { NotificationContext } from "./input/handler.js";
import { NotificationQueue, type LogGate, type NotificationSource } from "./input/notifications.js";
import { InputPipeline } from "./input/pipeline.js";
import { supervise } from "./input/supervisor.js";
import { type InputFeatures, checkPin, isModernVersion } from "./protocol/versions.js";
import type { Connection, ConnectionSettings } from "./protocol/connection.js";
import { ServerLife, type ServerStateChange } from "./server-life.js";
import { TargetConnections, type TargetMemory } from "./target-connections.js";
import { restartPolicy } from "./restart-policy.js";
import { callHost } from "./util/logger.js";
import { ServerBinding, type ClientSide } from "./server-binding.js";
import type { Implementation } from "./protocol/types/index.js";
import { CONNECT_DEFAULTS, checkConnectOptions, resolveClientOptions, type ClientOptions, type ConnectOptions, type ResolvedClientOptions } from "./options.js";
import { tracedStep } from "./tracing/tracing.js";
import { createTransport, type AuthTracing, type ServerTarget, type SharedAcrossConnections } from "./targets.js";
import { EraMemory, targetKey } from "./era-memory.js";
import { ServerHandle } from "./server.js";
import { loadServerConfig, type ConfiguredServer } from "./host/config.js";
import { connectAll, type ConnectAllOptions, type ConnectAllResult } from "./host/connect-all.js";
import { Catalog, type CatalogCallOptions, type CatalogOptions, type CatalogPrompt, type CatalogResource, type CatalogTool, type ToolSearchOptions, type ToolsOptions } from "./host/catalog.js";
import type { ToolSearchHit } from "./host/tool-search.js";
import type { CallToolResult } from "./protocol/types/index.js";
import { runtime } from "./platform.js";
import { fetchBackend } from "./transport/http-exchange.js";
import { DeadlineQueue } from "./rpc/deadline.js";
import { ClientError, InvalidArgumentError, atBoundary } from "./util/errors.js";
import { checkPendingInput, type PendingInput } from "./pending-input.js";
import type { ResumeOptions, ResumeResult } from "./server-input.js";
// What the client keeps in its `store` for other workers (era verdicts, catalog lists, kept tasks).
import { EraVerdicts } from "./era-store.js";
import { StoredLists } from "./host/catalog-store.js";
import { ToolPins } from "./host/tool-pins.js";
import type { TaskHandle } from "./protocol/types/index.js";

export interface ServerNotification {
  serverId: string;
  method: string;
  params: Record<string, unknown>;
}

export type NotificationListener = (notification: ServerNotification) => unknown;

export class Client {
  private readonly options: ResolvedClientOptions;
  private readonly registry = new Map<string, ServerHandle>();
  private readonly listeners = new Set<NotificationListener>();
  private readonly stateListeners = new Set<(change: ServerStateChange) => unknown>();
  /** Handles that `connect` returned (a server still in its first connect is not the host's yet). */
  private readonly given = new WeakSet<ServerHandle>();
  private readonly pipeline: InputPipeline;
  private readonly queue: NotificationQueue;
  private readonly features: InputFeatures;
  /** The era each target was found to speak, so that later connects go straight to it (bounded, nothing secret). */
  private readonly eras = new EraMemory();
  /** One timer for the deadlines of every request of this client. */
  private readonly deadlines = new DeadlineQueue();
  /** How this client's HTTP connections send: keep-alive agents on Node, `fetch` elsewhere. */
  private readonly backend = runtime().httpBackend?.() ?? fetchBackend();
  private closing: Promise<void> | undefined;
  /** Connections whose connect failed and whose graceful end outlasted it: closing waits for them. */
  private readonly unfinished = new Set<Connection>();
  /** The client as its connections see it; made once, shared by all. */
  private readonly side: ClientSide;
  // ---- kept in the store: see era-store.ts, host/catalog-store.ts, kept-tasks.ts ----
  /** The era memory and, when the host gave a store, that store behind it. */
  private readonly verdicts: EraVerdicts;
  /** What every server's connection maker borrows of the client. */
  private readonly memory: TargetMemory;
  /** The hash of each handle's target: the key of what the store keeps for it. */
  private readonly targets = new WeakMap<ServerHandle, string>();

  constructor(options: ClientOptions) {
    this.options = resolveClientOptions(options);
    // The default store is this client's memory: the verdicts stay in the bounded memory alone.
    this.verdicts = new EraVerdicts(this.eras, options.store === undefined ? undefined : this.options.store, this.options.logger);
    this.features = featuresOf(this.options);
    this.pipeline = new InputPipeline({
      handler: this.options.handler,
      clientName: this.options.name,
      features: this.features,
      sampling: this.options.sampling,
      handlerTimeout: this.options.handlerTimeout,
      logger: this.options.logger,
      deadlines: this.deadlines,
    });
    this.queue = new NotificationQueue(this.options.maxQueuedNotifications, this.options.logger);
    this.memory = { logger: this.options.logger, backend: this.backend, clientName: this.options.name, eras: this.eras, verdicts: this.verdicts, unfinished: this.unfinished };
    this.side = {
      name: this.options.name,
      assigns: this.options.assigns,
      pipeline: this.pipeline,
      inputRateLimit: this.options.inputRateLimit,
      logRateLimit: this.options.logRateLimit,
      maxServerRequests: this.options.maxServerRequests,
      tracing: this.options.tracing,
      deliver: (method, params, ctx, from) => this.deliver(method, params, ctx, from),
      deliverLog: (gate, params, ctx, from) => this.deliverLog(gate, params, ctx, from),
    };
  }

  /** `clientInfo` as sent to servers. */
  get clientInfo(): Implementation {
    const info: Implementation = { name: this.options.name, version: this.options.version };
    if (this.options.title !== undefined) info.title = this.options.title;
    return info;
  }

  /** Notifications dropped because the hooks' queue was full. */
  get droppedNotifications(): number {
    return this.queue.dropped;
  }

  /**
   * Every server's tools, each with its `serverId` and a `qualifiedName` that names that tool for
   * the client's life; a server being restarted gives what it listed last, marked `restarting`.
   * Each tool carries its `visibility` (MCP Apps) and its `appResourceUri` when it has an app.
   * By default the tools a model may be given: a tool made for its app's view alone is left out
   * (`audience: "all"` gives every tool, `"app"` those an app's view may call).
   */
  tools(options?: ToolsOptions): Promise<CatalogTool[]> {
    return this.catalog.tools(options);
  }

  /**
   * The catalog's tools that best match `query`, best first (`limit`, default 10): a ranked
   * search (BM25) over names, titles, descriptions and parameters, deterministic, for catalogs
   * too big to hand a model whole. The view is the model's unless `audience` says otherwise.
   */
  searchTools(query: string, options?: ToolSearchOptions): Promise<ToolSearchHit[]> {
    return this.catalog.searchTools(query, options);
  }

  /** Every ready server's resources, each with its `serverId`. */
  resources(options?: CatalogOptions): Promise<CatalogResource[]> {
    return this.catalog.resources(options);
  }

  /** Every ready server's prompts, each with its `serverId`. */
  prompts(options?: CatalogOptions): Promise<CatalogPrompt[]> {
    return this.catalog.prompts(options);
  }

  /**
   * Calls a tool of the catalog by its `qualifiedName`, on its server, waiting for one being
   * restarted within the call's timeout; a name that stands for no tool is `"unsupported"` at once.
   * The call is a model's unless `caller: "app"` says it comes from a tool's app view: a tool
   * whose `visibility` does not include the caller is refused (`ToolVisibilityError`, kind
   * `"unsupported"`) before anything is sent.
   */
  callTool(qualifiedName: string, args: Record<string, unknown> | undefined, options: CatalogCallOptions & { inputRequired: "return" }): Promise<CallToolResult | PendingInput>;
  callTool(qualifiedName: string, args?: Record<string, unknown>, options?: CatalogCallOptions & { inputRequired?: "handler" | undefined }): Promise<CallToolResult>;
  callTool(qualifiedName: string, args?: Record<string, unknown>, options?: CatalogCallOptions): Promise<CallToolResult | PendingInput>;
  async callTool(qualifiedName: string, args?: Record<string, unknown>, options?: CatalogCallOptions): Promise<CallToolResult | PendingInput> {
    if (typeof qualifiedName !== "string") throw new InvalidArgumentError("a qualified tool name must be a string");
    return this.catalog.callTool(qualifiedName, args, options);
  }

  /**
   * Answers a PendingInput (what a call made with `inputRequired: "return"` resolved with), on
   * the server of its `serverId` connected to this Client: perhaps not the Client, the process
   * or the machine that made the call. Each answer passes the checks a Handler's answer would;
   * the PendingInput is then claimed in the Client's `store` (once only, across every Client
   * that shares the store) and the call is sent again with the answers. Resolves with the call's
   * result, or with the next PendingInput when the server asks again.
   *
   * @throws InvalidArgumentError for a malformed PendingInput or options (nothing is claimed)
   * @throws ClientError `"timeout"` past its deadline, `"usage"` when it was already resumed,
   *   no server of its id is connected, or that server speaks the legacy era; `"store"` when the
   *   claim could not be written; `"input_handler"` / `"input_refused"` when an answer or a
   *   request fails the checks (nothing is claimed or sent in all of these)
   */
  async resume(pending: PendingInput, options: ResumeOptions): Promise<ResumeResult> {
    const checked = checkPendingInput(pending);
    const server = this.server(checked.serverId);
    if (server === undefined) throw new ClientError("usage", `pending input ${checked.id} is for server "${checked.serverId}", which is not connected to this client`, { serverId: checked.serverId });
    return server.resume(checked, options);
  }

  private catalogMade: Catalog | undefined;

  /** Made with the first use: a client that never asks for one listens to nothing. */
  private get catalog(): Catalog {
    this.catalogMade ??= new Catalog({
      servers: () => this.catalogServers(),
      server: (serverId) => this.server(serverId),
      onServerState: (listener) => this.onServerState(listener),
      logger: this.options.logger,
      stored: this.storedLists(),
      pins: this.pins(),
      trusted: (serverId) => this.options.trustedServers.has(serverId),
    });
    return this.catalogMade;
  }

  /**
   * Approves the current definitions of `names` (tool names on that server, as `CatalogChange`
   * gives them) of server `serverId`, as the catalog listed them last: with pinning, a tool held
   * back (changed, or new under `"approve-new"`) is in `tools()` again and may be called.
   */
  async approveTools(serverId: string, names: readonly string[]): Promise<void> {
    const pins = this.pins();
    if (pins === undefined) throw new ClientError("usage", "approveTools needs the Client option `pinning`", { serverId });
    await pins.approve(serverId, names);
  }

  private pinsMade: ToolPins | undefined;
  /** Reports of catalog changes, one after another in the order they were seen. */
  private changesTold: Promise<void> = Promise.resolve();

  private pins(): ToolPins | undefined {
    const wanted = this.options.pinning;
    if (wanted === undefined) return undefined;
    const hook = this.options.onCatalogChange;
    this.pinsMade ??= new ToolPins({
      store: wanted.store,
      policy: wanted.policy,
      logger: this.options.logger,
      report: (change) => {
        if (hook !== undefined) this.changesTold = this.changesTold.then(() => this.guard(() => hook(change)));
      },
    });
    return this.pinsMade;
  }

  /**
   * Connects every server of a config (a path to `mcpServers` JSON, the parsed object, or what
   * `loadServerConfig` read), `concurrency` at a time (default 4), each within its own
   * `connectTimeout`; the ones that fail are in `failed`, and the others go on.
   */
  async connectAll(config: string | object | readonly ConfiguredServer[], options: ConnectAllOptions = {}): Promise<ConnectAllResult> {
    const servers: readonly ConfiguredServer[] = Array.isArray(config) ? config : await loadServerConfig(config);
    return connectAll(this, servers, options);
  }

  /**
   * Starts (stdio) or reaches (HTTP) a server, negotiates, and registers it under `serverId`.
   * An id in use is refused; on failure nothing stays registered or running, within
   * `connectTimeout` in all.
   */
  async connect(serverId: string, target: ServerTarget, options: ConnectOptions = {}): Promise<ServerHandle> {
    if (typeof serverId !== "string" || serverId === "") throw new InvalidArgumentError("serverId must be a non-empty string");
    checkConnectOptions(options);
    const pin = checkPin(options.protocolVersion);
    if (pin !== undefined && isModernVersion(pin) && typeof target === "object" && target !== null && "transport" in target && target.transport === "sse") {
      throw new ClientError("usage", `protocolVersion ${pin} cannot be spoken over the HTTP+SSE transport, which is older than the modern era`, { serverId });
    }
    if (this.closing !== undefined) throw new ClientError("closed", "the client is closed", { serverId });
    if (this.registry.has(serverId)) throw new ClientError("usage", `a server with id "${serverId}" is already connected`, { serverId });
    if (options.signal?.aborted === true) throw new ClientError("cancelled", "connecting was cancelled before it began", { serverId, cause: options.signal.reason });
    const policy = restartPolicy(options.restart);
    if (options.lazy !== undefined && typeof options.lazy !== "boolean") throw new InvalidArgumentError("connect option `lazy` must be a boolean");
    // The first transport is made now, so that a bad target fails this call, lazy or not; each
    // restart makes its own.
    const shared: SharedAcrossConnections = { authorizer: undefined };
    const tracing = this.options.tracing;
    const traced: AuthTracing | undefined = tracing === undefined ? undefined : (name, attributes, run) => tracedStep(tracing, { name, serverId, attributes }, run);
    const fresh = createTransport(target, options, this.options.logger, this.backend, this.options.name, shared, traced);
    const key = targetKey(target);
    const binding = new ServerBinding(this.side, serverId, originOption(options) ?? fresh.origin);
    const settings: ConnectionSettings = {
      serverId,
      logger: this.options.logger,
      clientInfo: this.clientInfo,
      features: this.features,
      protocolVersion: pin,
      probeTimeout: options.probeTimeout ?? CONNECT_DEFAULTS.probeTimeout,
      connectTimeout: options.connectTimeout ?? CONNECT_DEFAULTS.connectTimeout,
      requestTimeout: this.options.requestTimeout,
      deadlines: this.deadlines,
      maxInputRounds: this.options.maxInputRounds,
      logLevel: options.logLevel,
      tracing: this.options.tracing,
    };
    const maker = new TargetConnections(this.memory, { target, options, settings, binding, key, pin, shared, traced }, fresh);
    const life = new ServerLife(serverId, maker, policy, this.announce, () => this.forget(serverId, handle), this.options.logger, this.options.requestTimeout, options.lazy === true);
    const handle: ServerHandle = new ServerHandle(serverId, life, this.options.logger, binding, this.options.store, key);
    this.targets.set(handle, key);
    this.registry.set(serverId, handle);
    // Another worker's verdict, if the store has one (a shortcut: a failure costs a probe).
    const recalled = pin === undefined ? this.verdicts.recall(key) : undefined;
    if (options.lazy !== true) {
      try {
        await recalled;
        // A close may have come while the store answered: nothing is started for it.
        if (this.closing !== undefined) throw new ClientError("closed", "the client was closed while connecting", { serverId });
        await life.start(options.signal);
      } catch (error) {
        throw atBoundary(error, serverId);
      }
    }
    this.given.add(handle);
    return handle;
  }

  /**
   * The handle of a task kept with `callTool(…, { task: { keep: true } })` by this or another
   * Client sharing its `store`, to follow with `awaitTask` on the server of that id (see
   * `ServerHandle.keptTask`). `"usage"` when no server of that id is connected here.
   */
  async keptTask(serverId: string, taskId: string): Promise<TaskHandle> {
    const server = this.server(serverId);
    if (server === undefined) throw new ClientError("usage", `no server "${serverId}" is connected to this client, so its kept task ${JSON.stringify(taskId)} cannot be followed here`, { serverId });
    return server.keptTask(taskId);
  }

  /** The catalog's lists in the store, when the host asked (`catalogStore`). */
  private storedLists(): { lists: StoredLists; targetOf(serverId: string): string | undefined } | undefined {
    const wanted = this.options.catalogStore;
    if (wanted === undefined) return undefined;
    const lists = new StoredLists({ store: this.options.store, logger: this.options.logger, privateLists: wanted.privateLists });
    return { lists, targetOf: (serverId) => this.targetOf(serverId) };
  }

  private targetOf(serverId: string): string | undefined {
    const handle = this.registry.get(serverId);
    return handle === undefined ? undefined : this.targets.get(handle);
  }

  /**
   * The handle of the server under `serverId` once `connect` returned it, while the host may use
   * it: ready, lazy and not connected yet (`idle`), or being restarted.
   */
  server(serverId: string): ServerHandle | undefined {
    const handle = this.registry.get(serverId);
    return handle !== undefined && this.usable(handle) ? handle : undefined;
  }

  private usable(handle: ServerHandle): boolean {
    if (!this.given.has(handle)) return false;
    const state = handle.state;
    return state === "ready" || state === "idle" || state === "restarting" || state === "connecting";
  }

  /**
   * Hears of every change of every server's state: connecting, ready, restarting (with the
   * attempt, the delay and why), failed (why), closed; and idle again after a lazy connect failed.
   */
  onServerState(listener: (change: ServerStateChange) => unknown): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private readonly announce = (change: ServerStateChange): void => {
    for (const listener of this.stateListeners) callHost(this.options.logger, "an onServerState listener", listener, change);
  };

  /** Every server whose connection is ready (one still connecting is left out). */
  servers(): ServerHandle[] {
    return [...this.registry.values()].filter((handle) => handle.state === "ready");
  }

  /**
   * Subscribes to every server notification the client does not consume itself, and to log
   * entries (sanitised). Listeners run in the client's notification queue, one at a time.
   */
  onNotification(listener: NotificationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every legacy server that the roots changed (when the Handler lists roots). */
  rootsChanged(): void {
    if (!this.features.roots) return;
    for (const handle of this.registry.values()) handle.notifyRootsChanged();
  }

  /** Resolves once every queued notification hook has run. */
  notificationsSettled(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Closes every server gracefully, those still connecting and closing included; the client
   * accepts no new connection afterwards. Every call resolves once all of them have ended.
   */
  close(): Promise<void> {
    this.closing ??= this.endAll((handle) => handle.close(), false);
    return this.closing;
  }

  /** Ends every server at once (also a `close()` under way); pending calls fail with `reason` or `"closed"`. */
  destroy(reason?: unknown): Promise<void> {
    const destroyed = this.endAll((handle) => handle.destroy(reason), true);
    this.closing ??= destroyed;
    return destroyed.then(() => this.closing);
  }

  private async endAll(end: (handle: ServerHandle) => Promise<void>, immediate: boolean): Promise<void> {
    const stragglers = [...this.unfinished].map((connection) => (immediate ? connection.destroy() : connection.close()));
    await Promise.allSettled([...[...this.registry.values()].map(end), ...stragglers]);
    this.backend.destroy();
  }

  // ---- wiring ----------------------------------------------------------------------------------

  private deliver(method: string, params: Record<string, unknown>, ctx: NotificationContext, from: NotificationSource): void {
    this.catalogMade?.heard(ctx.serverId, method);
    const handler = this.options.handler;
    this.queue.push(async () => {
      if (handler?.handleNotification !== undefined) await this.guard(() => handler.handleNotification!(method, params, ctx));
      await this.toListeners({ serverId: ctx.serverId, method, params });
    }, from);
  }

  private deliverLog(gate: LogGate, params: Record<string, unknown>, ctx: NotificationContext, from: NotificationSource): void {
    const entry = gate.admit(params);
    if (entry === undefined) return;
    const handler = this.options.handler;
    this.queue.push(async () => {
      if (handler?.handleLog !== undefined) await this.guard(() => handler.handleLog!(entry.level, entry, ctx));
      await this.toListeners({ serverId: ctx.serverId, method: "notifications/message", params: { ...entry } });
    }, from);
  }

  private async toListeners(notification: ServerNotification): Promise<void> {
    for (const listener of this.listeners) await this.guard(() => listener(notification));
  }

  /**
   * Runs one hook; a throw is logged and skipped, so the next hook still runs. A hook that does
   * not settle within `handlerTimeout.default` is left behind, so that one stuck hook cannot
   * stall every later notification.
   */
  private async guard(hook: () => unknown): Promise<void> {
    const outcome = await supervise(() => hook(), this.options.handlerTimeout.default, undefined, this.deadlines);
    if (outcome.status === "threw") this.options.logger.warn("a notification hook threw; skipped", { error: outcome.error });
    if (outcome.status === "timeout") this.options.logger.warn(`a notification hook did not finish within ${outcome.ms} ms; moved on`);
  }

  private forget(serverId: string, handle: ServerHandle): void {
    if (this.registry.get(serverId) === handle) this.registry.delete(serverId);
  }

  /**
   * The servers the catalog lists: every one the host may use, in the order they were connected
   * (a lazy one is connected by its listing; of one being restarted the catalog shows what it
   * listed last).
   */
  private catalogServers(): ServerHandle[] {
    return [...this.registry.values()].filter((handle) => this.usable(handle));
  }
}

function featuresOf(options: ResolvedClientOptions): InputFeatures {
  const handler = options.handler;
  const elicits = typeof handler?.handleElicitation === "function";
  const modes = handler?.elicitationModes ?? ["form"];
  for (const mode of modes) {
    if (mode !== "form" && mode !== "url") throw new InvalidArgumentError(`unknown elicitation mode ${JSON.stringify(mode)}`);
  }
  return {
    sampling: typeof handler?.handleSampling === "function",
    elicitationModes: elicits ? [...new Set(modes)] : [],
    roots: typeof handler?.listRoots === "function",
    extensions: options.extensions,
  };
}

function originOption(options: ConnectOptions): string | undefined {
  const origin = options.elicitation?.origin;
  if (origin === undefined) return undefined;
  try {
    return new URL(origin).origin;
  } catch {
    throw new InvalidArgumentError(`elicitation.origin is not a URL origin: ${String(origin)}`);
  }
}
