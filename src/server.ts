/**
 * The handle of one connected server: its negotiated facts and the calls a host makes on it.
 * Every request goes through `request()`, typed by the method table (`protocol/methods.ts`):
 * its availability in the negotiated version, its result check, and the one place where a
 * failure becomes the `ClientError` the caller sees (naming this server, its stack among the
 * caller's frames). The named methods check their arguments and say which row they use.
 *
 * States (`state`): connecting → ready → closing → closed; what each method does in each is
 * the README's lifecycle table. `close()` and `destroy()` resolve, for every caller, once the
 * end has really happened and the id is free again.
 */
import { withRequestMeta } from "./protocol/request-meta.js";
import { METHODS, type CallOptions, type Method, type ParamsOf, type ResultOf } from "./protocol/methods.js";
import type { Connection } from "./protocol/connection.js";
import type { ServerLife, ServerState } from "./server-life.js";
import type { ListenFilter, Subscription } from "./protocol/subscriptions.js";
import { allPages, type CheckContext } from "./protocol/results.js";
import type { AwaitTaskOptions } from "./protocol/task-follow.js";
import type {
  CallToolResult,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListToolsResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  TaskHandle,
  TaskRequest,
  Tool,
} from "./protocol/types/index.js";
import { LOGGING_LEVELS } from "./protocol/types/index.js";
import type { Era, ProtocolVersion } from "./protocol/versions.js";
import type { InputCounters, InputParking } from "./server-binding.js";
import { ServerTasks } from "./server-tasks.js";
import { ServerInput, type ResumeOptions, type ResumeResult } from "./server-input.js";
import { ParkedRound } from "./protocol/mrtr.js";
import { isCallMethod } from "./protocol/methods.js";
import { pendingDeadline, type PendingInput } from "./pending-input.js";
import type { Store } from "./stores/store.js";
import { KeptTasks } from "./kept-tasks.js";
import { checkCallOptions, requireRecord, requireString, withoutTask, type ListOptions, type ToolCallOptions } from "./call-options.js";
import { knownKeys, optional, positiveNumber } from "./util/arguments.js";
import { now } from "./util/time.js";
import { urlElicitationRequired } from "./input/elicitation.js";
import { ClientError, ErrorCode, InvalidArgumentError, atBoundary } from "./util/errors.js";
import type { Logger } from "./util/logger.js";
import { Occurrences, logDroppedEntry } from "./util/sparse-log.js";

export type { ServerState, ServerStateChange } from "./server-life.js";

export interface ServerStats {
  /** Responses to an unknown or settled request id. */
  staleResponses: number;
  /** Messages that were not valid JSON-RPC. */
  invalidMessages: number;
  /** Progress for no request in flight. */
  strayProgress: number;
  /** Log entries dropped over the log rate limit. */
  logsDropped: number;
  /**
   * This server's notifications (log entries included) dropped because the hooks' queue was
   * full: when it is, the server holding the most places loses its newest.
   */
  notificationsDropped: number;
  /** Input requests refused over the input rate limit. */
  inputsOverBudget: number;
  /** Server requests refused because `maxServerRequests` already ran. */
  busyRefusals: number;
  /** Handler callbacks still running after their request timed out or was withdrawn. */
  handlerOverruns: number;
}

export type { AwaitTaskOptions, CallOptions, ListOptions, ToolCallOptions } from "./call-options.js";

/** What `listCacheable` lists. */
export interface Listed {
  tools: Tool;
  resources: Resource;
  prompts: Prompt;
}
const LISTED_KEYS: Readonly<Record<keyof Listed, true>> = { tools: true, resources: true, prompts: true };

/** A whole list and how long it may be kept (`ttlMs`; undefined: until the server says it changed). */
export interface CacheableList<T> {
  readonly items: T[];
  readonly ttlMs: number | undefined;
  /** 2026-07-28: `"private"` when any page was (or named no scope), else `"public"`; undefined in the legacy era. */
  readonly cacheScope?: "public" | "private" | undefined;
}

const ZERO_STATS: ServerStats = Object.freeze({ staleResponses: 0, invalidMessages: 0, strayProgress: 0, logsDropped: 0, notificationsDropped: 0, inputsOverBudget: 0, busyRefusals: 0, handlerOverruns: 0 });
const LISTEN_OPTION_KEYS: ReadonlySet<string> = new Set(["ackTimeout"]);
const READY_OPTION_KEYS: ReadonlySet<string> = new Set(["timeout", "signal"]);

export class ServerHandle implements CheckContext {
  /** Entries of the server's lists dropped as invalid, over the handle's life. */
  private droppedEntries: Occurrences | undefined;
  /** The task API, which borrows the handle's wait for a connection and its errors; made with its first use. */
  private tasksMade: ServerTasks | undefined;
  /** Input parked as a PendingInput and resumed, which borrows the same; made with its first use. */
  private inputMade: ServerInput | undefined;

  /** Handles are made by `Client.connect`; the life holds the connection of the moment. */
  constructor(
    readonly id: string,
    private readonly life: ServerLife,
    /** The client's logger (guarded): where what reads this server's data (ext/) reports what it dropped. */
    readonly logger: Logger,
    private readonly counters: InputCounters & InputParking,
    /** The client's store, where a resumed PendingInput is claimed. */
    private readonly store: Store,
    /** The hash of the server's target (`targetKey`), which task handles kept in the store name. */
    private readonly target: string,
  ) {}

  // Made with their first use, as most servers of a host are never called (some 1.5 KiB each).
  private get tasks(): ServerTasks {
    this.tasksMade ??= new ServerTasks({
      id: this.id,
      logger: this.logger,
      checks: this,
      connected: (options) => this.connected(options),
      failure: (error) => atBoundary(error, this.id),
      urlsRequired: (error) => this.urlsRequired(error),
      park: (connection, params, parked, deadline) => this.input.park(connection, "tools/call", params, parked, deadline),
      parkTask: (connection, parked, deadline) => this.input.parkTask(connection, parked, deadline),
      kept: new KeptTasks(this.store, this.logger, this.id, this.target),
    });
    return this.tasksMade;
  }

  private get input(): ServerInput {
    this.inputMade ??= new ServerInput({
      id: this.id,
      checks: this,
      parking: this.counters,
      store: this.store,
      connected: (options) => this.connected(options),
      failure: (error) => atBoundary(error, this.id),
    });
    return this.inputMade;
  }

  /** The connection of the moment (a restarted server's is a new one). */
  private get connection(): Connection {
    return this.life.connection;
  }

  /**
   * `idle` (lazy, not connected yet), `connecting`, `ready`, `restarting`, `closing`, `closed`
   * (ended by the host), `failed` (it broke and is not restarted).
   */
  get state(): ServerState {
    const state = this.life.state;
    // A connection that just broke is closing before the life hears of it.
    if (state === "ready" && this.connection.state !== "ready") return "closing";
    return state;
  }

  /**
   * Connects a lazy server now, or waits for one being restarted; resolves when it is ready,
   * within `timeout` (default: the client's `requestTimeout`).
   */
  async ready(options: { timeout?: number | undefined; signal?: AbortSignal | undefined } = {}): Promise<this> {
    knownKeys("ready options", options, READY_OPTION_KEYS);
    optional(positiveNumber, "timeout", options.timeout);
    try {
      await this.life.ready(options.timeout ?? this.life.requestTimeout, options.signal);
    } catch (error) {
      throw atBoundary(error, this.id);
    }
    return this;
  }

  /**
   * The connection to send on. While there is none (lazy, restarting) the request waits for one
   * within its own timeout, and what is left of that timeout goes to the request.
   */
  private async connected<O extends ListOptions>(options: O | undefined): Promise<{ connection: Connection; options: O | undefined }> {
    if (!this.life.waits) return { connection: this.connection, options };
    const started = now();
    const timeout = Math.min(options?.timeout ?? this.life.requestTimeout, options?.maxTotalTimeout ?? Infinity);
    const connection = await this.life.ready(timeout, options?.signal);
    const waited = now() - started;
    // A total bound stays total; a per-request timeout is what is left of it, unless progress
    // resets it (then each window is the whole timeout again).
    const call: CallOptions = { ...options };
    if (call.maxTotalTimeout !== undefined) call.maxTotalTimeout = Math.max(1, call.maxTotalTimeout - waited);
    if (call.resetTimeoutOnProgress !== true) call.timeout = Math.max(1, timeout - waited);
    return { connection, options: call as O };
  }

  // What negotiation found: undefined until known (a lazy server not connected yet, a first
  // connect under way); a server being restarted tells what its last connection found.

  get era(): Era | undefined {
    return this.life.latest?.settled?.era;
  }

  get protocolVersion(): ProtocolVersion | undefined {
    return this.life.latest?.settled?.version;
  }

  /** @see CheckContext: the version whose rules results are checked by. */
  get version(): ProtocolVersion {
    return this.connection.version;
  }

  get serverInfo(): Implementation | undefined {
    return this.life.latest?.settled?.negotiated.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.life.latest?.settled?.negotiated.serverCapabilities;
  }

  get instructions(): string | undefined {
    return this.life.latest?.settled?.negotiated.instructions;
  }

  /** The server's origin when known (HTTP); used to judge elicitation URLs. */
  get origin(): string | undefined {
    return this.counters.origin;
  }

  /**
   * Resolves when the server's life has ended: with the error if it broke (and was not, or no
   * longer, restarted), undefined if the host closed it.
   */
  get closed(): Promise<ClientError | undefined> {
    return this.life.ended;
  }

  /** Why the server broke for good, once it has. */
  get closeError(): ClientError | undefined {
    return this.life.endError;
  }

  // ---- any request of the table ----------------------------------------------------------------

  /**
   * Sends one request of the method table and checks its result. A method the negotiated
   * version lacks, or whose capability the server did not declare, fails with `"unsupported"`
   * before anything is sent.
   */
  request<M extends Method>(method: M, params: ParamsOf<M>, options: CallOptions & { inputRequired: "return" }): Promise<ResultOf<M> | PendingInput>;
  request<M extends Method>(method: M, params: ParamsOf<M>, options?: CallOptions & { inputRequired?: "handler" | undefined }): Promise<ResultOf<M>>;
  request<M extends Method>(method: M, params: ParamsOf<M>, options?: CallOptions): Promise<ResultOf<M> | PendingInput>;
  async request<M extends Method>(method: M, params: ParamsOf<M>, options?: CallOptions): Promise<ResultOf<M> | PendingInput> {
    if (typeof method !== "string" || !Object.hasOwn(METHODS, method)) throw new InvalidArgumentError(`not a request of the method table: ${String(method)}`);
    requireRecord("params", params);
    if (options !== undefined) checkCallOptions(options);
    const parks = options?.inputRequired === "return";
    if (parks && !isCallMethod(method)) throw new InvalidArgumentError(`inputRequired: "return" is for calls (tools/call, resources/read, prompts/get), not ${method}`);
    // Read only by a call that may park: the deadline of its PendingInput counts from here.
    const startedAt = parks ? Date.now() : 0;
    const total = options?.maxTotalTimeout;
    try {
      let connection: Connection;
      if (this.life.waits) ({ connection, options } = await this.connected(options));
      else connection = this.connection;
      const sent = withRequestMeta(params as Record<string, unknown> | undefined, options?.meta);
      const raw = await connection.request(method, sent, options);
      if (raw instanceof ParkedRound) return this.input.park(connection, method, sent, raw, pendingDeadline(startedAt, total));
      return METHODS[method].check(raw, this) as ResultOf<M>;
    } catch (error) {
      throw atBoundary(this.urlsRequired(error), this.id);
    }
  }

  /** 2025-11-25: a `-32042` names URLs the user must visit; they are checked before the host sees them. */
  private urlsRequired(error: unknown): unknown {
    if (!(error instanceof ClientError && error.kind === "rpc" && error.code === ErrorCode.UrlElicitationRequired)) return error;
    if (this.connection.state === "negotiating" || this.connection.version !== "2025-11-25") return error;
    return urlElicitationRequired(error, this.counters.origin) ?? error;
  }

  /** @see CheckContext */
  dropped(method: string, index: number, reason: string): void {
    logDroppedEntry(this.logger, this.id, (this.droppedEntries ??= new Occurrences()), method, index, reason);
  }

  // ---- lists ---------------------------------------------------------------------------------

  listTools(options?: ListOptions): Promise<Tool[]> {
    return this.everyPage("tools/list", options, (cursor, call) => this.listToolsPage(cursor, call), (page) => page.tools);
  }

  /**
   * Every tool, resource or prompt, with the cache hint of the pages (2026-07-28: the smallest
   * `ttlMs` of them, a missing or negative one taken as 0); `ttlMs` is undefined in the legacy
   * era, which has no hints (its lists stay good until the server says they changed). For hosts
   * that cache lists, as the client's catalog does.
   */
  async listCacheable<K extends keyof Listed>(kind: K, options?: ListOptions): Promise<CacheableList<Listed[K]>> {
    if (!Object.hasOwn(LISTED_KEYS, kind)) throw new InvalidArgumentError(`listCacheable lists tools, resources or prompts, not ${String(kind)}`);
    let ttlMs: number | undefined;
    let cacheScope: "public" | "private" | undefined;
    const pages = {
      tools: (cursor: string | undefined, call: ListOptions | undefined) => this.listToolsPage(cursor, call),
      resources: (cursor: string | undefined, call: ListOptions | undefined) => this.listResourcesPage(cursor, call),
      prompts: (cursor: string | undefined, call: ListOptions | undefined) => this.listPromptsPage(cursor, call),
    } as const;
    const fetchPage = pages[kind] as (cursor: string | undefined, call: ListOptions | undefined) => Promise<ListToolsResult & ListResourcesResult & ListPromptsResult>;
    const items = await this.everyPage(`${kind}/list`, options, fetchPage, (page) => {
      if (this.connection.era === "modern") {
        const hint = typeof page.ttlMs === "number" && page.ttlMs > 0 ? page.ttlMs : 0;
        ttlMs = ttlMs === undefined ? hint : Math.min(ttlMs, hint);
        // A page that names no scope is taken as private: sharing it is the step that can hurt.
        cacheScope = page.cacheScope === "public" && cacheScope !== "private" ? "public" : "private";
      }
      return page[kind] as Listed[K][];
    });
    return { items, ttlMs, cacheScope };
  }

  /** One page of tools; over modern HTTP without the tools whose `x-mcp-header` annotations are invalid. */
  async listToolsPage(cursor?: string, options?: ListOptions): Promise<ListToolsResult> {
    const page = await this.request("tools/list", pageParams(cursor), options);
    const tools = this.connection.acceptTools(page.tools, cursor === undefined, page.nextCursor === undefined);
    return tools.length === page.tools.length ? page : { ...page, tools };
  }

  listResources(options?: ListOptions): Promise<Resource[]> {
    return this.everyPage("resources/list", options, (cursor, call) => this.listResourcesPage(cursor, call), (page) => page.resources);
  }

  listResourcesPage(cursor?: string, options?: ListOptions): Promise<ListResourcesResult> {
    return this.request("resources/list", pageParams(cursor), options);
  }

  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
    return this.everyPage("resources/templates/list", options, (cursor, call) => this.listResourceTemplatesPage(cursor, call), (page) => page.resourceTemplates);
  }

  listResourceTemplatesPage(cursor?: string, options?: ListOptions): Promise<ListResourceTemplatesResult> {
    return this.request("resources/templates/list", pageParams(cursor), options);
  }

  listPrompts(options?: ListOptions): Promise<Prompt[]> {
    return this.everyPage("prompts/list", options, (cursor, call) => this.listPromptsPage(cursor, call), (page) => page.prompts);
  }

  listPromptsPage(cursor?: string, options?: ListOptions): Promise<ListPromptsResult> {
    return this.request("prompts/list", pageParams(cursor), options);
  }

  // ---- calls ---------------------------------------------------------------------------------

  /**
   * `tools/call`; a tool's own failure is `isError: true` in the result, not a throw. A task the
   * server makes without being asked (2026-07-28, or a tool of 2025-11-25 that requires one) is
   * followed to its end: within what is left of `maxTotalTimeout`, else `timeout`, when the call
   * gives one; else until the task ends or its TTL passes, at most an hour (`onTask` learns the
   * task's id, to follow it further with `awaitTask`). Asked for with `task`, it is returned as a
   * `TaskHandle` (`isTask(result)`).
   */
  callTool(name: string, args: Record<string, unknown> | undefined, options: ToolCallOptions & { task: TaskRequest; inputRequired: "return" }): Promise<CallToolResult | TaskHandle | PendingInput>;
  callTool(name: string, args: Record<string, unknown> | undefined, options: ToolCallOptions & { task: TaskRequest }): Promise<CallToolResult | TaskHandle>;
  callTool(name: string, args: Record<string, unknown> | undefined, options: ToolCallOptions & { inputRequired: "return" }): Promise<CallToolResult | PendingInput>;
  callTool(name: string, args?: Record<string, unknown>, options?: ToolCallOptions & { task?: undefined; inputRequired?: "handler" | undefined }): Promise<CallToolResult>;
  callTool(name: string, args?: Record<string, unknown>, options?: ToolCallOptions): Promise<CallToolResult | TaskHandle | PendingInput>;
  callTool(name: string, args?: Record<string, unknown>, options?: ToolCallOptions): Promise<CallToolResult | TaskHandle | PendingInput> {
    requireString("tool name", name);
    requireRecord("tool arguments", args);
    const params = args === undefined ? { name } : { name, arguments: args };
    // Most calls make no task: they take the path of every request.
    if ((options === undefined || (options.task === undefined && options.onTask === undefined)) && this.life.live && !this.connection.mayMakeTasks) {
      return this.request("tools/call", params, options === undefined || !Object.hasOwn(options, "task") ? options : withoutTask(options));
    }
    return this.tasks.callTool(params, options);
  }

  // ---- tasks (server-tasks.ts) -----------------------------------------------------------------

  /**
   * Follows a task to its end and resolves with what its call would have returned. A task id
   * alone will do (one kept by an earlier process, or another worker's). `timeout` bounds the
   * wait (the task goes on); `signal` cancels the task (`tasks/cancel`); `assigns` is the
   * Handler context of its input requests; `onStatus` hears of every new status.
   */
  awaitTask(task: TaskHandle | string, options: AwaitTaskOptions = {}): Promise<CallToolResult> {
    return this.tasks.awaitTask(task, options);
  }

  /**
   * The handle of a task a host kept (`callTool(…, { task: { keep: true } })`), perhaps in
   * another process, read from the client's `store`: to follow with `awaitTask`, which then
   * takes a lease so that one worker follows it at a time. `"usage"` when none is kept (or it
   * ended), or it was kept from another target or era; `"store"` when the store fails.
   */
  keptTask(taskId: string): Promise<TaskHandle> {
    return this.tasks.keptTask(taskId);
  }

  /** The task as the server describes it now (`tasks/get`). */
  getTask(taskId: string): Promise<TaskHandle> {
    return this.tasks.getTask(taskId);
  }

  /** Asks the server to cancel the task (`tasks/cancel`); cancelling is cooperative, the task may still end otherwise. */
  cancelTask(taskId: string): Promise<void> {
    return this.tasks.cancelTask(taskId);
  }

  /** 2025-11-25, where the server declares `tasks.list`: every task it lists (all pages). */
  listTasks(): Promise<TaskHandle[]> {
    return this.tasks.listTasks();
  }

  readResource(uri: string, options: CallOptions & { inputRequired: "return" }): Promise<ReadResourceResult | PendingInput>;
  readResource(uri: string, options?: CallOptions & { inputRequired?: "handler" | undefined }): Promise<ReadResourceResult>;
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult | PendingInput>;
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult | PendingInput> {
    requireString("resource uri", uri);
    return this.request("resources/read", { uri }, options);
  }

  /**
   * Answers a PendingInput of this server (see `Client.resume`, which finds the server by the
   * PendingInput's `serverId`); the claim is written to the Client's `store`.
   */
  resume(pending: PendingInput, options: ResumeOptions): Promise<ResumeResult> {
    return this.input.resume(pending, options);
  }

  getPrompt(name: string, args: Record<string, string> | undefined, options: CallOptions & { inputRequired: "return" }): Promise<GetPromptResult | PendingInput>;
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions & { inputRequired?: "handler" | undefined }): Promise<GetPromptResult>;
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult | PendingInput>;
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult | PendingInput> {
    requireString("prompt name", name);
    requireRecord("prompt arguments", args);
    return this.request("prompts/get", args === undefined ? { name } : { name, arguments: args }, options);
  }

  complete(params: CompleteParams, options?: ListOptions): Promise<CompleteResult> {
    if (params === undefined) throw new InvalidArgumentError("completion params must be an object");
    return this.request("completion/complete", params, options);
  }

  async ping(options?: ListOptions): Promise<void> {
    await this.request("ping", undefined, options);
  }

  /**
   * The log level from now on, whatever the era: legacy `logging/setLevel`; in 2026-07-28 every
   * later request asks for it (`_meta`).
   */
  async setLogLevel(level: LoggingLevel, options?: ListOptions): Promise<void> {
    if (!LOGGING_LEVELS.includes(level)) throw new InvalidArgumentError(`not a log level: ${String(level)}`);
    if (options !== undefined) checkCallOptions(options);
    try {
      const { connection, options: call } = await this.connected(options);
      await connection.setLogLevel(level, call ?? {});
      this.life.logLevel = level;
    } catch (error) {
      throw atBoundary(error, this.id);
    }
  }

  /**
   * Hears of list changes and resource updates whatever the era: legacy servers send list
   * changes unasked and updates of the resources it subscribes to here; modern ones through
   * `subscriptions/listen`. The notifications reach the Handler and the client's subscribers as
   * always; `honoured` says what the server will send; `close()` ends it.
   */
  async watch(filter: ListenFilter, options?: ListOptions): Promise<Subscription> {
    if (typeof filter !== "object" || filter === null) throw new InvalidArgumentError("watch needs a filter object");
    if (options !== undefined) checkCallOptions(options);
    for (const uri of filter.resourceSubscriptions ?? []) requireString("resource uri", uri);
    try {
      const { connection, options: call } = await this.connected(options);
      return await connection.watch(filter, call ?? {});
    } catch (error) {
      throw atBoundary(error, this.id);
    }
  }

  async subscribeResource(uri: string, options?: ListOptions): Promise<void> {
    requireString("resource uri", uri);
    await this.request("resources/subscribe", { uri }, options);
  }

  async unsubscribeResource(uri: string, options?: ListOptions): Promise<void> {
    requireString("resource uri", uri);
    await this.request("resources/unsubscribe", { uri }, options);
  }

  /**
   * Modern era: hears of list changes and resource updates through `subscriptions/listen`.
   * Resolves once the server acknowledged; its notifications reach the Handler and the
   * client's subscribers like any other. (Legacy servers send list changes unasked, and
   * resource updates after `subscribeResource`.)
   */
  async listen(filter: ListenFilter, options: { ackTimeout?: number } = {}): Promise<Subscription> {
    if (typeof filter !== "object" || filter === null) throw new InvalidArgumentError("listen needs a filter object");
    knownKeys("listen", options, LISTEN_OPTION_KEYS);
    optional(positiveNumber, "ackTimeout", options.ackTimeout);
    try {
      const { connection } = await this.connected(undefined);
      return await connection.listen(filter, options.ackTimeout);
    } catch (error) {
      throw atBoundary(error, this.id);
    }
  }

  // ---- the end -------------------------------------------------------------------------------

  /**
   * Ends the connection gracefully (stdio: stdin's end, then SIGTERM and SIGKILL to the process
   * group after the grace period; HTTP: the session's DELETE). Pending calls fail with
   * `"closed"` at once. Every call, the first and any later one, resolves once the end has
   * really happened and the id is free.
   */
  async close(): Promise<void> {
    await this.life.close();
  }

  /**
   * Ends the connection at once (stdio: SIGKILL to the process group), also a `close()` under
   * way. Pending calls fail with `reason` when it is a ClientError, else with `"closed"`.
   */
  async destroy(reason?: unknown): Promise<void> {
    const error =
      reason instanceof ClientError
        ? reason.withServer(this.id)
        : new ClientError("closed", "the connection was destroyed", { serverId: this.id, cause: reason });
    await this.life.destroy(error);
  }

  /** What was dropped or refused on this connection so far. */
  stats(): ServerStats {
    if (this.life.state === "idle") return { ...ZERO_STATS };
    const peer = this.connection.peer.stats;
    const { logsDropped, notificationsDropped, inputsOverBudget, busyRefusals, handlerOverruns } = this.counters;
    return { ...peer, logsDropped, notificationsDropped, inputsOverBudget, busyRefusals, handlerOverruns };
  }

  /** The Handler's roots changed (the client's `rootsChanged`): the server hears of it if its era has a way. */
  notifyRootsChanged(): void {
    if (!this.life.waits) this.connection.rootsChanged();
  }

  // ---- plumbing ------------------------------------------------------------------------------

  private async everyPage<P extends { nextCursor?: string }, T>(
    method: string,
    options: ListOptions | undefined,
    fetchPage: (cursor: string | undefined, options: ListOptions | undefined) => Promise<P>,
    items: (page: P) => T[],
  ): Promise<T[]> {
    try {
      const { connection, options: call } = await this.connected(options);
      return await allPages(method, connection.emptyCursorEnds, async (cursor) => {
        // A cursor is the old connection's: a listing does not go on across a restart.
        if (this.life.waits || this.connection !== connection) throw new ClientError("transport", "the server was restarted during the listing", { serverId: this.id });
        const page = await fetchPage(cursor, call);
        return { items: items(page), nextCursor: page.nextCursor };
      });
    } catch (error) {
      throw atBoundary(error, this.id);
    }
  }
}

function pageParams(cursor: string | undefined): { cursor: string } | undefined {
  if (cursor === undefined) return undefined;
  requireString("cursor", cursor);
  return { cursor };
}
