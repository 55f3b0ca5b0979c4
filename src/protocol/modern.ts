/**
 * Requests in the modern era (2026-07-28): each carries the envelope in `_meta` (and over
 * HTTP the headers that mirror it), each result's `resultType` is checked, and calls that ask
 * for input run the MRTR flow. Over HTTP, tools whose `x-mcp-header` annotations are invalid
 * are dropped from `tools/list`, and the others' annotations are remembered to build the
 * `Mcp-Param-*` headers of their calls.
 */
import { ClientError, ErrorCode } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import type { RpcPeer } from "../rpc/peer.js";
import type { CallOptions } from "./call-options.js";
import { modernHeaders } from "./http-headers.js";
import type { Envelope } from "./meta.js";
import { CALL_METHODS } from "./methods.js";
import { runWithInput, type AnswerInputs } from "./mrtr.js";
import { allPages } from "./pagination.js";
import { checkListTools } from "./results.js";
import { classifyResult } from "./result-type.js";
import type { LoggingLevel, Tool } from "./types/index.js";
import { headerParams, type HeaderParam } from "./x-mcp-header.js";

export interface ModernSettings {
  serverId: string;
  logger: Logger;
  http: boolean;
  envelope: Envelope;
  maxInputRounds: number;
  logLevel: LoggingLevel | undefined;
  answer: AnswerInputs;
  /** The connection's life: an MRTR flow stops when it ends. */
  lifetime: () => AbortSignal;
}

type LegOptions = CallOptions & { onId?: (id: number) => void; cancellable?: boolean };

export class ModernCodec {
  private readonly toolHeaders = new Map<string, HeaderParam[]>();

  constructor(
    private readonly peer: RpcPeer,
    private readonly settings: ModernSettings,
  ) {}

  /** One request, and the MRTR flow when its result asks for input. */
  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions): Promise<Record<string, unknown>> {
    return runWithInput(
      params ?? {},
      {
        method,
        maxRounds: this.settings.maxInputRounds,
        maxTotalTimeout: options.maxTotalTimeout,
        signal: options.signal,
        assigns: options.assigns,
        lifetime: this.settings.lifetime,
      },
      (sent, signal, total) => this.leg(method, sent, options, signal, total),
      this.settings.answer,
    );
  }

  /**
   * Sends one request; resolves with its raw result. Over HTTP, a tool call refused with
   * -32020 (its Mcp-Param headers do not match) is sent again once, after the tools are listed
   * afresh: the tool's schema may have changed (2026-07-28 streamable-http, "Client Behavior").
   */
  leg(
    method: string,
    params: Record<string, unknown> | undefined,
    options: LegOptions,
    signal: AbortSignal | undefined,
    maxTotalTimeout: number | undefined,
  ): Promise<unknown> {
    if (!this.settings.http || method !== "tools/call") return this.send(method, params, options, signal, maxTotalTimeout);
    const started = maxTotalTimeout === undefined ? 0 : Date.now();
    return this.send(method, params, options, signal, maxTotalTimeout).catch(async (error: unknown) => {
      if (!(error instanceof ClientError && error.kind === "rpc" && error.code === ErrorCode.HeaderMismatch)) throw error;
      // The re-listing and the second try share what is left of the leg's total bound.
      const left = (): number | undefined => {
        if (maxTotalTimeout === undefined) return undefined;
        const ms = maxTotalTimeout - (Date.now() - started);
        if (ms > 0) return ms;
        throw new ClientError("timeout", `${method} timed out after ${maxTotalTimeout} ms (maxTotalTimeout)`, { serverId: this.settings.serverId });
      };
      await this.refreshTools(options, signal, left);
      return this.send(method, params, options, signal, left());
    });
  }

  private send(
    method: string,
    params: Record<string, unknown> | undefined,
    options: LegOptions,
    signal: AbortSignal | undefined,
    maxTotalTimeout: number | undefined,
  ): Promise<unknown> {
    const headers = this.settings.http ? modernHeaders(method, params, this.headerParamsFor(method, params)) : undefined;
    const sent = this.settings.envelope.wrap(params, options.logLevel ?? this.settings.logLevel);
    const init = {
      timeout: options.timeout,
      maxTotalTimeout,
      signal,
      onProgress: options.onProgress,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress,
      assigns: options.assigns,
      headers,
      onId: options.onId,
      cancellable: options.cancellable,
    };
    return this.peer.request(method, sent, init, CALL_METHODS.has(method));
  }

  /**
   * Keeps the tools a client may expose over HTTP: a tool with an invalid `x-mcp-header`
   * annotation is dropped (and logged); the others' annotations are remembered for their calls.
   * Over stdio the annotations may be ignored, and are.
   */
  acceptTools(tools: Tool[]): Tool[] {
    if (!this.settings.http) return tools;
    return tools.filter((tool) => {
      const found = headerParams(tool.inputSchema);
      if (!found.ok) {
        this.settings.logger.warn(`server "${this.settings.serverId}": dropped tool "${tool.name}": ${found.reason}`);
        this.toolHeaders.delete(tool.name);
        return false;
      }
      if (found.params.length > 0) this.toolHeaders.set(tool.name, found.params);
      else this.toolHeaders.delete(tool.name);
      return true;
    });
  }

  private headerParamsFor(method: string, params: Record<string, unknown> | undefined): HeaderParam[] | undefined {
    return method === "tools/call" && typeof params?.name === "string" ? this.toolHeaders.get(params.name) : undefined;
  }

  /** Lists the tools afresh; each page's request is bounded by what `left()` says remains. */
  private async refreshTools(options: CallOptions, signal: AbortSignal | undefined, left: () => number | undefined): Promise<void> {
    await allPages("modern", async (cursor) => {
      const raw = await this.send("tools/list", cursor === undefined ? undefined : { cursor }, { timeout: options.timeout }, signal, left());
      const page = checkListTools(classifyResult("tools/list", raw).result).result;
      this.acceptTools(page.tools);
      return { items: [], nextCursor: page.nextCursor };
    });
  }
}
