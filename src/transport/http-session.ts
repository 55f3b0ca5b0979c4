/**
 * What every request of one HTTP connection carries besides its body: the host's own headers,
 * the session (legacy `Mcp-Session-Id`), and the negotiated `MCP-Protocol-Version`. The header
 * objects are built once per kind of request and reused until one of those changes (nothing
 * downstream modifies them), since a host may make thousands of calls a second.
 */
import type { Logger } from "../util/logger.js";
import type { ExchangeResponse } from "./http-exchange.js";

export type RequestKind = "initialize" | "post" | "get" | "delete";

export class HttpSession {
  /** Legacy sessions in use (off in the modern era, and while probing it). */
  sessions = true;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private readonly custom: Record<string, string>;
  private built: Record<RequestKind, Record<string, string>> | undefined;

  constructor(
    custom: Readonly<Record<string, string>>,
    private readonly logger: Logger,
  ) {
    this.custom = {};
    for (const name in custom) this.custom[name.toLowerCase()] = custom[name]!;
  }

  /** The session id in use, if any. */
  get id(): string | undefined {
    return this.sessions ? this.sessionId : undefined;
  }

  configure(settings: { protocolVersion?: string | undefined; sessions?: boolean | undefined }): void {
    if (settings.protocolVersion !== undefined) this.protocolVersion = settings.protocolVersion;
    if (settings.sessions !== undefined) this.sessions = settings.sessions;
    if (!this.sessions) this.sessionId = undefined;
    this.built = undefined;
  }

  /** Takes the session a response mints (2025-11-25 transports: visible ASCII only). */
  capture(response: ExchangeResponse): void {
    if (!this.sessions || this.sessionId !== undefined) return;
    const id = response.header("mcp-session-id");
    if (id === undefined || id === "") return;
    if (!/^[\x21-\x7e]+$/.test(id)) {
      this.logger.warn("ignored a session id with characters outside visible ASCII");
      return;
    }
    this.sessionId = id;
    this.built = undefined;
  }

  /** The session expired: the next `initialize` starts without one. */
  forget(): void {
    this.sessionId = undefined;
    this.built = undefined;
  }

  /** The headers of a request of this kind (shared: never modified). */
  headers(kind: RequestKind): Readonly<Record<string, string>> {
    this.built ??= this.build();
    return this.built[kind];
  }

  private build(): Record<RequestKind, Record<string, string>> {
    const common = { ...this.custom };
    if (this.id !== undefined) common["mcp-session-id"] = this.id;
    if (this.protocolVersion !== undefined) common["mcp-protocol-version"] = this.protocolVersion;
    const post: Record<string, string> = { ...common, accept: "application/json, text/event-stream", "content-type": "application/json" };
    // The version is negotiated by `initialize`: a renewal asks afresh, like the first one.
    const initialize = { ...post };
    delete initialize["mcp-protocol-version"];
    return { initialize, post, get: { ...common, accept: "text/event-stream" }, delete: common };
  }
}
