/**
 * A view's `tools/call` and `resources/read`, passed on to its own server, and only there: the
 * session holds one server, so a view can reach no other (the spec blocks cross-server calls).
 *
 * - `tools/call`: the tool must be in the server's list now (a tool the server does not list is
 *   refused, whatever the view claims) and its visibility must include "app"; an unknown tool
 *   and a tool only the model may call get the same answer, so that a view cannot probe for the
 *   model's tools. Then the host's consent, then the server, under `limits.callTimeout`.
 * - `resources/read`: a `ui://` URI, then the consent, then the server.
 * Both share a rate (`limits.serverCallRate`); the session's end cancels what is under way.
 */
import type { CallToolResult, ReadResourceResult, Tool } from "../protocol/types/index.js";
import type { HandlerCallOptions } from "../call-options.js";
import { ErrorCode } from "../util/errors.js";
import { TokenBucket } from "../util/token-bucket.js";
import { quote } from "../util/text.js";
import { appsToolMeta } from "./apps-tool-meta.js";
import type { AppLimits } from "./app-limits.js";
import { checkResourceRead, checkToolCall } from "./app-requests.js";
import { AppRefusal, POLICY, hostWait } from "./app-refusal.js";
import type { AppOrigin, AppRequest, AppServer, AppSessionOptions } from "./app-session-types.js";

export interface ProxyOptions {
  server: AppServer;
  origin: AppOrigin;
  limits: AppLimits;
  /** The session's life: its end cancels calls, reads and waits. */
  signal: AbortSignal;
  consent: AppSessionOptions["consent"];
  tools: AppSessionOptions["tools"];
}

export class AppServerProxy {
  private readonly rate: TokenBucket;
  /** One listing at a time serves every call that waits for it. */
  private listing: Promise<readonly Tool[]> | undefined;

  constructor(private readonly options: ProxyOptions) {
    this.rate = new TokenBucket(options.limits.serverCallRate);
  }

  async callTool(params: Record<string, unknown>): Promise<CallToolResult> {
    const ask = checkToolCall(params);
    if (!ask.ok) throw AppRefusal.of(ask.refusal);
    this.takeRate();
    const { name, arguments: args } = ask.value;
    const tools = await this.currentTools();
    const target = tools.find((tool) => tool.name === name);
    const visibility = target === undefined ? undefined : appsToolMeta(target).visibility;
    if (target === undefined || visibility === undefined || !visibility.includes("app")) {
      throw new AppRefusal(ErrorCode.InvalidParams, `no tool ${quote(name)} this app may call`);
    }
    await this.consent({ ...this.options.origin, method: "tools/call", target, arguments: args, visibility });
    return this.options.server.callTool(name, args, this.callOptions());
  }

  async readResource(params: Record<string, unknown>): Promise<ReadResourceResult> {
    const uri = checkResourceRead(params);
    if (!uri.ok) throw AppRefusal.of(uri.refusal);
    this.takeRate();
    await this.consent({ ...this.options.origin, method: "resources/read", uri: uri.value });
    return this.options.server.readResource(uri.value, this.callOptions());
  }

  private takeRate(): void {
    if (!this.rate.take()) throw new AppRefusal(POLICY, "too many tool calls and reads");
  }

  /**
   * The options of a call on the view's behalf. (When the client's `callTool` learns to tell a
   * call from an app from the model's, the marker goes here.)
   */
  private callOptions(): HandlerCallOptions {
    const options: HandlerCallOptions = { signal: this.options.signal };
    if (this.options.limits.callTimeout !== undefined) options.timeout = this.options.limits.callTimeout;
    return options;
  }

  private currentTools(): Promise<readonly Tool[]> {
    const { tools, limits, signal, server } = this.options;
    if (tools !== undefined) return hostWait(tools(), limits.hostTimeout, signal, "the tool list");
    this.listing ??= server.listTools(this.callOptions()).finally(() => (this.listing = undefined));
    return this.listing;
  }

  /** The host's yes, or the default: reads yes, calls only of tools the model cannot call. */
  private async consent(ask: AppRequest): Promise<void> {
    const { consent, limits, signal } = this.options;
    let allowed: unknown;
    if (consent === undefined) allowed = ask.method === "resources/read" || !ask.visibility.includes("model");
    else allowed = await hostWait(consent(ask), limits.hostTimeout, signal, "the consent");
    if (allowed !== true) throw new AppRefusal(POLICY, ask.method === "tools/call" ? `the host did not allow the call of ${quote(ask.target.name)}` : "the host did not allow the read");
  }
}
