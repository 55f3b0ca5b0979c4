/**
 * `AppSession`: the host's policy for one rendered MCP App view (`io.modelcontextprotocol/ui`,
 * spec 2026-01-26). No DOM: a message from the view in (`receive`), messages to it out (`send`).
 * The view is the server's code in the host's page, so it is untrusted like a server: each of
 * its messages is bounded, checked and logged before anything acts on it.
 *
 * The lifecycle, in the spec's order: the view's `ui/initialize` is answered (the version it
 * asks when this host speaks it, else this host's newest; capabilities only for what the host
 * gave callbacks for); nothing else goes to the view before its `ui/notifications/initialized`
 * (the host's tool input, result and cancellation wait, in order, in a bounded outbox); the
 * result only after the input; `ui/resource-teardown` before the end, its answer awaited for at
 * most `limits.teardownTimeout`; nothing after the end.
 *
 * What the view may ask (the checks in `app-requests.ts`; the passes to the server in
 * `app-server-proxy.ts`, what the host's callbacks answer in `app-host-services.ts`): `tools/call` of its own server's tools whose visibility has "app",
 * behind the host's consent and a rate; `resources/read` of its server's `ui://` resources;
 * `ui/open-link` of a vetted https URL, shown to the host; `ui/message` and
 * `ui/update-model-context`, bounded and rated; `ui/request-display-mode`; `ping`. Its
 * notifications: logs (sanitised, rated, into the host's logger), size changes (checked), a
 * request to be torn down. Anything else: -32601.
 */
import type { CallToolResult } from "../protocol/types/index.js";
import { ErrorCode, InvalidArgumentError } from "../util/errors.js";
import { callHost, guardLogger, stderrLogger, type Logger } from "../util/logger.js";
import { isObject, type RequestId } from "../util/json.js";
import { safeText } from "../util/sanitize.js";
import { Occurrences, soFar } from "../util/sparse-log.js";
import { TokenBucket } from "../util/token-bucket.js";
import { lowRuntime, unref } from "../util/runtime.js";
import { logViewEntry } from "./app-view-log.js";
import { AppHostServices } from "./app-host-services.js";
import { resolveAppLimits, type AppLimits } from "./app-limits.js";
import { readViewMessage, readableId, type ViewMessage } from "./app-message.js";
import { AppOutbox } from "./app-outbox.js";
import { AppMethod, SANDBOX_METHOD_PREFIX, errorReply, resultReply, type AppHostContext, type AppInfo, type AppInitializeResult, type OutgoingMessage } from "./app-protocol.js";
import { checkInitialize, checkSize } from "./app-requests.js";
import { AppRefusal, POLICY, errorForView } from "./app-refusal.js";
import { AppServerProxy } from "./app-server-proxy.js";
import { initializeResult } from "./app-initialize.js";
import { checkOptions, summary } from "./app-session-options.js";
import type { AppOrigin, AppSessionOptions, AppSessionState, AppSessionStats } from "./app-session-types.js";


type Handler = (params: Record<string, unknown>) => object | Promise<object>;

export class AppSession {
  private stateNow: AppSessionState = "connecting";
  private view: AppInfo | undefined;
  private readonly options: AppSessionOptions;
  private readonly limits: AppLimits;
  private readonly logger: Logger;
  private readonly origin: AppOrigin;
  private readonly life = new AbortController();
  private readonly outbox = new AppOutbox();
  private readonly proxy: AppServerProxy;
  private readonly handlers: ReadonlyMap<string, Handler>;
  private readonly messages: TokenBucket;
  private readonly services: AppHostServices;
  private readonly logs: TokenBucket;
  private hostContext: AppHostContext;
  private inFlight = 0;
  private inputGiven = false;
  private outcomeGiven = false;
  private nextId = 1;
  /** Requests the host made of the view, by id: only `ui/resource-teardown`. */
  private readonly asked = new Map<RequestId, () => void>();
  private teardownRun: Promise<void> | undefined;
  private readonly counts: AppSessionStats = { overRate: 0, invalid: 0, busy: 0, strayResponses: 0, logsDropped: 0, afterClose: 0 };
  private readonly seen = { overRate: new Occurrences(), invalid: new Occurrences(), stray: new Occurrences(), logs: new Occurrences(), busy: new Occurrences() };

  constructor(options: AppSessionOptions) {
    checkOptions(options);
    this.options = options;
    this.limits = resolveAppLimits(options.limits);
    this.logger = guardLogger(options.logger ?? stderrLogger);
    this.origin = Object.freeze({ serverId: options.server.id, tool: options.tool.name });
    this.hostContext = { ...options.hostContext };
    this.hostContext.toolInfo ??= { tool: options.tool };
    // Every call of the view in flight, and every wait on the host, listens to the session's
    // life: a view at its in-flight bound passes Node's ten, and that is no leak.
    lowRuntime().unboundListeners?.(this.life.signal);
    this.messages = new TokenBucket(this.limits.messageRate);
    this.logs = new TokenBucket(this.limits.logRate);
    this.proxy = new AppServerProxy({
      server: options.server,
      origin: this.origin,
      limits: this.limits,
      signal: this.life.signal,
      consent: options.consent,
      tools: options.tools,
    });
    this.services = new AppHostServices({
      options,
      limits: this.limits,
      origin: this.origin,
      signal: this.life.signal,
      displayModes: () => ({ current: this.hostContext.displayMode ?? "inline", host: this.hostContext.availableDisplayModes, view: this.view?.appCapabilities.availableDisplayModes }),
      switchedTo: (displayMode) => (this.hostContext = { ...this.hostContext, displayMode }),
    });
    this.handlers = new Map<string, Handler>([
      [AppMethod.Initialize, (params) => this.initialize(params)],
      [AppMethod.Ping, () => ({})],
      [AppMethod.ToolsCall, (params) => this.proxy.callTool(params)],
      [AppMethod.ResourcesRead, (params) => this.proxy.readResource(params)],
      [AppMethod.OpenLink, (params) => this.services.openLink(params)],
      [AppMethod.Message, (params) => this.services.chatMessage(params)],
      [AppMethod.UpdateModelContext, (params) => this.services.updateModelContext(params)],
      [AppMethod.RequestDisplayMode, (params) => this.services.requestDisplayMode(params)],
    ]);
  }

  get state(): AppSessionState {
    return this.stateNow;
  }

  /** What the view said of itself in `ui/initialize`, once it has. */
  get viewInfo(): AppInfo | undefined {
    return this.view;
  }

  /** What was refused or dropped so far. */
  stats(): AppSessionStats {
    return { ...this.counts };
  }

  // ---- the host's side ---------------------------------------------------------------------------

  /** The tool's complete arguments (`ui/notifications/tool-input`), once; sent when the view is ready. */
  toolInput(args: Record<string, unknown>): void {
    if (!isObject(args)) throw new InvalidArgumentError("toolInput needs the arguments object");
    if (this.ended("tool input")) return;
    if (this.inputGiven) throw new InvalidArgumentError("toolInput: the tool input was already given (the spec sends it at most once)");
    this.inputGiven = true;
    this.notify(AppMethod.ToolInput, { arguments: args });
  }

  /** Arguments still streaming (`ui/notifications/tool-input-partial`); ignored once the input is complete. */
  toolInputPartial(args: Record<string, unknown>): void {
    if (!isObject(args)) throw new InvalidArgumentError("toolInputPartial needs an arguments object");
    if (this.ended("partial tool input") || this.inputGiven) return;
    this.notify(AppMethod.ToolInputPartial, { arguments: args });
  }

  /** The tool's result (`ui/notifications/tool-result`): after `toolInput`; a later outcome is ignored. */
  toolResult(result: CallToolResult): void {
    if (!isObject(result)) throw new InvalidArgumentError("toolResult needs the tool's result object");
    if (this.ended("tool result") || this.settledAlready("tool result")) return;
    if (!this.inputGiven) throw new InvalidArgumentError("toolResult before toolInput: the view hears the input first");
    this.outcomeGiven = true;
    this.notify(AppMethod.ToolResult, result);
  }

  /** The tool was cancelled (`ui/notifications/tool-cancelled`), for any reason; a later outcome is ignored. */
  toolCancelled(reason?: string): void {
    if (reason !== undefined && typeof reason !== "string") throw new InvalidArgumentError("toolCancelled: the reason must be a string");
    if (this.ended("tool cancellation") || this.settledAlready("tool cancellation")) return;
    this.outcomeGiven = true;
    this.notify(AppMethod.ToolCancelled, { reason: reason ?? "cancelled" });
  }

  /** Part of the host context changed (`ui/notifications/host-context-changed`). */
  updateHostContext(change: AppHostContext): void {
    if (!isObject(change)) throw new InvalidArgumentError("updateHostContext needs an object");
    if (this.ended("host context change")) return;
    this.hostContext = { ...this.hostContext, ...change };
    // Before the view's ui/initialize, the change is part of the context it will be answered with.
    if (this.view !== undefined) this.notify(AppMethod.HostContextChanged, change);
  }

  /**
   * Ends the session: `ui/resource-teardown` to a view that is running, its answer awaited for
   * at most `limits.teardownTimeout`, then nothing more goes either way; the view's calls still
   * at the server are cancelled. A view that never said it was initialized is sent nothing (the
   * spec forbids any request before that). Resolves in any case, for every caller, once the
   * session is closed.
   */
  teardown(reason?: string): Promise<void> {
    if (reason !== undefined && typeof reason !== "string") throw new InvalidArgumentError("teardown: the reason must be a string");
    this.teardownRun ??= this.runTeardown(reason);
    return this.teardownRun;
  }

  private async runTeardown(reason: string | undefined): Promise<void> {
    if (this.stateNow === "initialized") {
      this.stateNow = "closing";
      const id = this.nextId++;
      const answered = new Promise<void>((resolve) => this.asked.set(id, resolve));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.logger.debug(`app of tool "${this.origin.tool}" (server "${this.origin.serverId}") did not answer ui/resource-teardown in ${this.limits.teardownTimeout} ms`);
          resolve();
        }, this.limits.teardownTimeout);
        unref(timer);
      });
      this.transmit({ jsonrpc: "2.0", id, method: AppMethod.ResourceTeardown, params: reason === undefined ? {} : { reason } });
      await Promise.race([answered, timedOut]);
      clearTimeout(timer);
    }
    this.close();
  }

  private close(): void {
    this.stateNow = "closed";
    this.outbox.clear();
    this.asked.clear();
    // Calls and reads still at the server are cancelled; host waits end.
    this.life.abort();
  }

  private ended(what: string): boolean {
    if (this.stateNow !== "closed") return false;
    this.logger.debug(`app session closed: ${what} not sent`, { ...this.origin });
    return true;
  }

  private settledAlready(what: string): boolean {
    if (!this.outcomeGiven) return false;
    // A result and a cancellation can race; the first one is the view's.
    this.logger.debug(`the tool's outcome was already sent: ${what} not sent`, { ...this.origin });
    return true;
  }

  private notify(method: string, params: object): void {
    if (this.stateNow === "connecting") this.outbox.add(method, params as Record<string, unknown>);
    else this.transmit({ jsonrpc: "2.0", method, params });
  }

  private transmit(message: OutgoingMessage): void {
    if (this.stateNow === "closed") return;
    callHost(this.logger, "the app session's send", this.options.send, message);
  }

  // ---- the view's side ---------------------------------------------------------------------------

  /** A message from the view. Replies go through `send`; nothing is thrown. */
  receive(message: unknown): void {
    if (this.stateNow === "closed") {
      this.counts.afterClose += 1;
      return;
    }
    try {
      // The rate comes first: under a flood, each message costs this and one small reply.
      if (!this.messages.take()) return this.overRate(message);
      this.dispatch(readViewMessage(message, this.limits.maxMessageBytes, this.limits.maxDepth));
    } catch (error) {
      // A value no view can post (a proxy, a getter that throws) handed in by the host's own code.
      this.logger.warn("an app message could not be read; dropped", { ...this.origin, error });
    }
  }

  private dispatch(read: ViewMessage): void {
    switch (read.kind) {
      case "invalid":
        return this.invalid(read);
      case "response":
        return this.response(read.id, read.failed);
      case "notification":
        return this.notification(read.method, read.params);
      case "request":
        return this.request(read.id, read.method, read.params);
    }
  }

  private overRate(message: unknown): void {
    this.counts.overRate += 1;
    if (this.seen.overRate.next()) this.logger.warn(`app of tool "${this.origin.tool}" (server "${this.origin.serverId}") sends too many messages; refused${soFar(this.seen.overRate)}`);
    const id = readableId(message);
    if (id !== null && isObject(message) && typeof message.method === "string") this.transmit(errorReply(id, POLICY, "too many messages"));
  }

  private invalid(read: Extract<ViewMessage, { kind: "invalid" }>): void {
    this.counts.invalid += 1;
    if (this.seen.invalid.next()) this.logger.warn(`app of tool "${this.origin.tool}" (server "${this.origin.serverId}") sent an invalid message: ${read.reason}${soFar(this.seen.invalid)}`);
    if (!read.notification) this.transmit(errorReply(read.id, read.code, read.reason));
  }

  private response(id: RequestId, failed: boolean): void {
    const waiter = this.asked.get(id);
    if (waiter === undefined) {
      this.counts.strayResponses += 1;
      if (this.seen.stray.next()) this.logger.warn(`app of tool "${this.origin.tool}" (server "${this.origin.serverId}") answered a request the host never made; ignored${soFar(this.seen.stray)}`);
      return;
    }
    this.asked.delete(id);
    this.logger.debug(`app answered ui/resource-teardown${failed ? " with an error" : ""}`, { ...this.origin });
    waiter();
  }

  private notification(method: string, params: Record<string, unknown>): void {
    this.logger.debug(`app notifies ${safeText(method, 128)}`, { ...this.origin });
    switch (method) {
      case AppMethod.Initialized:
        return this.initialized();
      case AppMethod.SizeChanged:
        return this.sizeChanged(params);
      case AppMethod.Log:
        return this.log(params);
      case AppMethod.RequestTeardown:
        if (this.options.onRequestTeardown !== undefined) callHost(this.logger, "onRequestTeardown", this.options.onRequestTeardown, this.origin);
        return;
      default:
        // Sandbox messages are the bridge's; anything else a view may send unasked is ignored.
        if (!method.startsWith(SANDBOX_METHOD_PREFIX)) this.logger.debug(`app sent an unknown notification ${safeText(method, 128)}; ignored`, { ...this.origin });
    }
  }

  private request(id: RequestId, method: string, params: Record<string, unknown>): void {
    this.logger.debug(`app asks ${safeText(method, 128)}`, { ...this.origin, id: typeof id === "string" ? safeText(id, 64) : id, ...summary(method, params) });
    if (this.view === undefined && method !== AppMethod.Initialize && method !== AppMethod.Ping) {
      return this.transmit(errorReply(id, ErrorCode.InvalidRequest, "send ui/initialize first"));
    }
    const handler = this.handlers.get(method);
    if (handler === undefined) return this.transmit(errorReply(id, ErrorCode.MethodNotFound, `method not found: ${safeText(method, 128)}`));
    if (this.inFlight >= this.limits.maxInFlight) {
      this.counts.busy += 1;
      if (this.seen.busy.next()) this.logger.warn(`app of tool "${this.origin.tool}" has ${this.limits.maxInFlight} requests being served; refused${soFar(this.seen.busy)}`);
      return this.transmit(errorReply(id, POLICY, `busy: ${this.limits.maxInFlight} requests are being served`));
    }
    let answer: object | Promise<object>;
    try {
      answer = handler(params);
    } catch (error) {
      return this.fail(id, method, error);
    }
    if (!(answer instanceof Promise)) return this.transmit(resultReply(id, answer));
    this.inFlight += 1;
    answer.then(
      (result) => this.transmit(resultReply(id, result)),
      (error: unknown) => this.fail(id, method, error),
    ).finally(() => (this.inFlight -= 1));
  }

  private fail(id: RequestId, method: string, error: unknown): void {
    const { code, message } = errorForView(error, this.logger, method);
    this.logger.debug(`app's ${method} refused: ${message}`, { ...this.origin, id, code });
    this.transmit(errorReply(id, code, message));
  }

  // ---- the lifecycle -------------------------------------------------------------------------------

  private initialize(params: Record<string, unknown>): AppInitializeResult {
    if (this.view !== undefined) throw new AppRefusal(ErrorCode.InvalidRequest, "ui/initialize was already answered");
    const verdict = checkInitialize(params);
    if (!verdict.ok) throw AppRefusal.of(verdict.refusal);
    this.view = verdict.value;
    return initializeResult(this.options, verdict.value, this.hostContext, (kind) => this.services.modalities(kind));
  }

  private initialized(): void {
    if (this.view === undefined) {
      this.logger.debug("app said it is initialized before ui/initialize; ignored", { ...this.origin });
      return;
    }
    if (this.stateNow !== "connecting") return;
    this.stateNow = "initialized";
    for (const message of this.outbox.drain()) this.transmit(message);
    if (this.options.onInitialized !== undefined) callHost(this.logger, "onInitialized", this.options.onInitialized, this.view);
  }

  // ---- what the view tells the host ------------------------------------------------------------

  private sizeChanged(params: Record<string, unknown>): void {
    const verdict = checkSize(params, this.limits.maxDimension);
    if (!verdict.ok) {
      this.counts.invalid += 1;
      if (this.seen.invalid.next()) this.logger.warn(`app of tool "${this.origin.tool}" reported a size that is not one: ${verdict.refusal.message}${soFar(this.seen.invalid)}`);
      return;
    }
    if (this.options.onSizeChange !== undefined) callHost(this.logger, "onSizeChange", this.options.onSizeChange, verdict.value);
  }

  private log(params: Record<string, unknown>): void {
    if (!this.logs.take()) {
      this.counts.logsDropped += 1;
      if (this.seen.logs.next()) this.logger.warn(`app of tool "${this.origin.tool}" (server "${this.origin.serverId}") logs too fast; entries dropped${soFar(this.seen.logs)}`);
      return;
    }
    logViewEntry(this.logger, this.origin, params);
  }
}
