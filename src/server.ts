/**
 * The handle of one connected server: its negotiated facts and the calls a host makes on it.
 * Each method checks its arguments, sends one request (or walks every page) and checks the
 * result at the boundary. Every failure is a `ClientError` naming this server.
 *
 * States: connecting → ready → closed. A call on a handle that is not ready fails at once with
 * `"closed"` (or `"usage"` while connecting).
 */
import { checkCallTool, checkComplete, checkGetPrompt, checkListPrompts, checkListResourceTemplates, checkListResources, checkListTools, checkReadResource, checkResult, type Checked } from "./protocol/results.js";
import type { CallOptions, Connection } from "./protocol/connection.js";
import type { ListenFilter, Subscription } from "./protocol/subscriptions.js";
import { allPages } from "./protocol/pagination.js";
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
  Tool,
} from "./protocol/types/index.js";
import { LOGGING_LEVELS } from "./protocol/types/index.js";
import type { Era, ProtocolVersion } from "./protocol/versions.js";
import { optional, positiveNumber } from "./util/arguments.js";
import { ClientError, InvalidArgumentError } from "./util/errors.js";
import type { Logger } from "./util/logger.js";

export type ServerState = "connecting" | "ready" | "closed";

export interface ServerStats {
  /** Responses to an unknown or settled request id. */
  staleResponses: number;
  /** Messages that were not valid JSON-RPC. */
  invalidMessages: number;
  /** Progress for no request in flight. */
  strayProgress: number;
  /** Log entries dropped over the log rate limit. */
  logsDropped: number;
  /** Input requests refused over the input rate limit. */
  inputsOverBudget: number;
}

export type { CallOptions } from "./protocol/connection.js";

/** Options of list calls, which are never "calls" in the handler's sense. */
export type ListOptions = Omit<CallOptions, "assigns" | "onProgress" | "resetTimeoutOnProgress">;

export class ServerHandle {
  private current: ServerState = "connecting";
  private endedWith: ClientError | undefined;
  private readonly ended: Promise<ClientError | undefined>;
  private markEnded!: (error: ClientError | undefined) => void;

  /** @internal Handles are made by `Client.connect`. */
  constructor(
    readonly id: string,
    private readonly connection: Connection,
    private readonly logger: Logger,
    private readonly inputCounters: { readonly logsDropped: number; readonly inputsOverBudget: number },
  ) {
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });
  }

  get state(): ServerState {
    return this.current;
  }

  get era(): Era {
    return this.connection.era;
  }

  get protocolVersion(): ProtocolVersion {
    return this.connection.version;
  }

  get serverInfo(): Implementation {
    return this.connection.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.connection.serverCapabilities;
  }

  get instructions(): string | undefined {
    return this.connection.instructions;
  }

  /** The server's origin when known (HTTP); used to judge elicitation URLs. */
  get origin(): string | undefined {
    return this.connection.transport.origin;
  }

  /** Resolves when the connection ends: with the error if it broke, undefined if closed. */
  get closed(): Promise<ClientError | undefined> {
    return this.ended;
  }

  /** Why the connection broke, once it has. */
  get closeError(): ClientError | undefined {
    return this.endedWith;
  }

  // ---- lists ---------------------------------------------------------------------------------

  listTools(options?: ListOptions): Promise<Tool[]> {
    return this.every((cursor) => this.listToolsPage(cursor, options), (page) => page.tools);
  }

  async listToolsPage(cursor?: string, options?: ListOptions): Promise<ListToolsResult> {
    const page = await this.list("tools/list", cursor, options, checkListTools);
    const tools = this.connection.acceptTools(page.tools);
    return tools.length === page.tools.length ? page : { ...page, tools };
  }

  listResources(options?: ListOptions): Promise<Resource[]> {
    return this.every((cursor) => this.listResourcesPage(cursor, options), (page) => page.resources);
  }

  listResourcesPage(cursor?: string, options?: ListOptions): Promise<ListResourcesResult> {
    return this.list("resources/list", cursor, options, checkListResources);
  }

  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
    return this.every((cursor) => this.listResourceTemplatesPage(cursor, options), (page) => page.resourceTemplates);
  }

  listResourceTemplatesPage(cursor?: string, options?: ListOptions): Promise<ListResourceTemplatesResult> {
    return this.list("resources/templates/list", cursor, options, checkListResourceTemplates);
  }

  listPrompts(options?: ListOptions): Promise<Prompt[]> {
    return this.every((cursor) => this.listPromptsPage(cursor, options), (page) => page.prompts);
  }

  listPromptsPage(cursor?: string, options?: ListOptions): Promise<ListPromptsResult> {
    return this.list("prompts/list", cursor, options, checkListPrompts);
  }

  // ---- calls ---------------------------------------------------------------------------------

  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
    requireString("tool name", name);
    requireRecord("tool arguments", args);
    const params = args === undefined ? { name } : { name, arguments: args };
    return this.send("tools/call", params, options, checkCallTool);
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    requireString("resource uri", uri);
    return this.send("resources/read", { uri }, options, checkReadResource);
  }

  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    requireString("prompt name", name);
    requireRecord("prompt arguments", args);
    const params = args === undefined ? { name } : { name, arguments: args };
    return this.send("prompts/get", params, options, checkGetPrompt);
  }

  complete(params: CompleteParams, options?: ListOptions): Promise<CompleteResult> {
    requireRecord("completion params", params);
    return this.send("completion/complete", params as unknown as Record<string, unknown>, options, checkComplete);
  }

  async ping(options?: ListOptions): Promise<void> {
    await this.send("ping", undefined, options, (raw) => checkResult(raw, "ping"));
  }

  async setLogLevel(level: LoggingLevel, options?: ListOptions): Promise<void> {
    if (!LOGGING_LEVELS.includes(level)) throw new InvalidArgumentError(`not a log level: ${String(level)}`);
    await this.send("logging/setLevel", { level }, options, (raw) => checkResult(raw, "logging/setLevel"));
  }

  async subscribeResource(uri: string, options?: ListOptions): Promise<void> {
    requireString("resource uri", uri);
    await this.send("resources/subscribe", { uri }, options, (raw) => checkResult(raw, "resources/subscribe"));
  }

  async unsubscribeResource(uri: string, options?: ListOptions): Promise<void> {
    requireString("resource uri", uri);
    await this.send("resources/unsubscribe", { uri }, options, (raw) => checkResult(raw, "resources/unsubscribe"));
  }

  /**
   * Modern era: hears of list changes and resource updates through `subscriptions/listen`.
   * Resolves once the server acknowledged; its notifications reach the Handler and the
   * client's subscribers like any other. (Legacy servers send list changes unasked, and
   * resource updates after `subscribeResource`.)
   */
  async listen(filter: ListenFilter, options: { ackTimeout?: number } = {}): Promise<Subscription> {
    if (typeof filter !== "object" || filter === null) throw new InvalidArgumentError("listen needs a filter object");
    optional(positiveNumber, "ackTimeout", options.ackTimeout);
    try {
      return await this.connection.listen(filter, options.ackTimeout);
    } catch (error) {
      throw error instanceof ClientError ? error.withServer(this.id) : error;
    }
  }

  /** Ends the connection (stdio: the process group too). Idempotent. */
  async close(): Promise<void> {
    if (this.current === "closed") return this.connection.close();
    this.current = "closed";
    await this.connection.close();
    this.markEnded(undefined);
  }

  /** What was dropped or refused on this connection so far. */
  stats(): ServerStats {
    const peer = this.connection.peer.stats;
    return { ...peer, logsDropped: this.inputCounters.logsDropped, inputsOverBudget: this.inputCounters.inputsOverBudget };
  }

  // ---- for the client --------------------------------------------------------------------------

  /** @internal Sends `notifications/roots/list_changed` when the negotiated version has it. */
  notifyRootsChanged(): void {
    if (this.current === "ready" && this.era === "legacy") this.connection.notify("notifications/roots/list_changed");
  }

  /** @internal The connection negotiated. */
  markReady(): void {
    if (this.current === "connecting") this.current = "ready";
  }

  /** @internal The connection ended on its own (or by `close`). */
  markClosed(error: ClientError | undefined): void {
    if (error !== undefined && this.current !== "closed") {
      this.endedWith = error;
      this.logger.warn(`server "${this.id}" disconnected: ${error.message}`);
    }
    this.current = "closed";
    this.markEnded(error);
  }

  // ---- plumbing ------------------------------------------------------------------------------

  private async send<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions | undefined,
    check: (raw: unknown) => T,
  ): Promise<T> {
    if (options !== undefined) checkCallOptions(options);
    try {
      return check(await this.connection.request(method, params, options));
    } catch (error) {
      throw error instanceof ClientError ? error.withServer(this.id) : error;
    }
  }

  private async list<T>(
    method: string,
    cursor: string | undefined,
    options: ListOptions | undefined,
    check: (raw: unknown) => Checked<T>,
  ): Promise<T> {
    if (cursor !== undefined) requireString("cursor", cursor);
    const checked = await this.send(method, cursor === undefined ? undefined : { cursor }, options, check);
    for (const { index, reason } of checked.dropped) {
      this.logger.warn(`server "${this.id}": dropped entry ${index} of ${method}: ${reason}`);
    }
    return checked.result;
  }

  private async every<P extends { nextCursor?: string }, T>(fetchPage: (cursor: string | undefined) => Promise<P>, items: (page: P) => T[]): Promise<T[]> {
    try {
      return await allPages(this.era, async (cursor) => {
        const page = await fetchPage(cursor);
        return { items: items(page), nextCursor: page.nextCursor };
      });
    } catch (error) {
      throw error instanceof ClientError ? error.withServer(this.id) : error;
    }
  }
}

function checkCallOptions(options: CallOptions): void {
  optional(positiveNumber, "timeout", options.timeout);
  optional(positiveNumber, "maxTotalTimeout", options.maxTotalTimeout);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new InvalidArgumentError("signal must be an AbortSignal");
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") throw new InvalidArgumentError("onProgress must be a function");
}

function requireString(what: string, value: unknown): void {
  if (typeof value !== "string") throw new InvalidArgumentError(`${what} must be a string`);
}

function requireRecord(what: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) {
    throw new InvalidArgumentError(`${what} must be an object`);
  }
}
