/**
 * The session of one HTTP connection (2025-11-25 basic/transports, "Session Management"), and
 * what every request carries besides its body: the host's own headers, the `Mcp-Session-Id`,
 * and the negotiated `MCP-Protocol-Version`.
 *
 * A session id is taken only from the reply to a message sent with `startsSession` (legacy
 * `initialize`): a probe or any other reply cannot plant one. Once negotiated, the era's
 * policy says whether sessions are kept at all. A 404 to a request that carried the session
 * means it expired: one renewal runs (the policy's `renewSession`), shared by every request
 * that met the 404, while requests without a session wait for it. Closing DELETEs the session.
 *
 * The header objects are built once per kind of request, when first asked for, and reused until
 * one of those changes (nothing downstream modifies them), since a host may make thousands of
 * calls a second; an idle connection keeps only the kinds it used.
 */
import { ClientError } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import { sendFollowing, type Exchange, type ExchangeResponse, type Ticket } from "./http-exchange.js";
import type { EraPolicy } from "./transport.js";

export type RequestKind = "initialize" | "post" | "get" | "delete";

const DELETE_TIMEOUT_MS = 2000;
/** A session id longer than this is refused: it would go out with every request. */
export const MAX_SESSION_ID_CHARS = 4096;

export class HttpSession {
  private policy: EraPolicy | undefined;
  private sessionId: string | undefined;
  private readonly custom: Record<string, string>;
  private built: Partial<Record<RequestKind, Record<string, string>>> | undefined;
  private renewing: Promise<void> | undefined;
  /** Runs after each renewal (the transport opens its standalone stream again on the new session). */
  onRenewed: (() => void) | undefined;

  constructor(
    custom: Readonly<Record<string, string>>,
    private readonly logger: Logger,
  ) {
    this.custom = {};
    for (const name in custom) this.custom[name.toLowerCase()] = custom[name]!;
  }

  /** The host's own headers, lower-case names (shared: never modified). */
  get hostHeaders(): Readonly<Record<string, string>> {
    return this.custom;
  }

  /** The session id in use, if any. */
  get id(): string | undefined {
    return this.sessionId;
  }

  /** Whether the negotiated era keeps a session (false until negotiated). */
  get keepsSessions(): boolean {
    return this.policy?.sessions === true;
  }

  /** The policy's resumption rule (off until negotiated). */
  get resumable(): boolean {
    return this.policy?.resumable === true;
  }

  configure(policy: EraPolicy): void {
    this.policy = policy;
    if (!policy.sessions) this.sessionId = undefined;
    this.built = undefined;
  }

  /**
   * Takes the session the reply to a session-starting message mints. The id must be visible
   * ASCII (2025-11-25 basic/transports, "Session Management") and at most `MAX_SESSION_ID_CHARS`
   * long; any other is a `"protocol"` error, the reply discarded. The id goes back on every
   * request (where Node would refuse a control character with an exception): without it the
   * connection would only fail later, and less clearly.
   */
  capture(response: ExchangeResponse): void {
    if (this.policy?.sessions === false || this.sessionId !== undefined) return;
    const id = response.header("mcp-session-id");
    if (id === undefined || id === "") return;
    if (id.length > MAX_SESSION_ID_CHARS || !/^[\x21-\x7e]+$/.test(id)) {
      response.discard();
      const why = id.length > MAX_SESSION_ID_CHARS ? `is longer than ${MAX_SESSION_ID_CHARS} characters` : "has characters outside visible ASCII";
      throw new ClientError("protocol", `the server's Mcp-Session-Id ${why}; refused`);
    }
    this.sessionId = id;
    this.built = undefined;
  }

  /** Whether a 404 to a request that carried `sent` calls for a renewal. */
  expired(status: number, sent: string | undefined): sent is string {
    return status === 404 && sent !== undefined && this.policy?.renewSession !== undefined;
  }

  /**
   * Renews the session that `expired` named, once for every request that met its 404. Rejects
   * when the renewal failed: the connection cannot go on.
   */
  renew(expired: string): Promise<void> {
    if (this.sessionId === expired && this.policy?.renewSession !== undefined) {
      this.sessionId = undefined;
      this.built = undefined;
      this.logger.info("the session expired; initialising a new one");
      const renewing = this.policy
        .renewSession()
        .then(() => this.onRenewed?.())
        .finally(() => {
          if (this.renewing === renewing) this.renewing = undefined;
        });
      this.renewing = renewing;
    }
    return this.renewing ?? Promise.resolve();
  }

  /** While a renewal runs there is no id to send, and a server that requires one refuses: wait. */
  renewal(): Promise<void> | undefined {
    return this.sessionId === undefined ? this.renewing : undefined;
  }

  /** The headers of a request of this kind (shared: never modified). */
  headers(kind: RequestKind): Readonly<Record<string, string>> {
    const built = (this.built ??= {});
    return (built[kind] ??= this.build(kind));
  }

  /** DELETEs the session, if there is one (bounded, and `ticket` cancels it; a failure is only logged). */
  async end(exchange: Exchange, url: URL, ticket: Ticket): Promise<void> {
    // A session minted by an `initialize` whose connect then failed (no policy yet) ends too.
    if (this.sessionId === undefined || this.policy?.sessions === false) return;
    const timer = setTimeout(() => ticket.cancel(), DELETE_TIMEOUT_MS);
    try {
      const response = await sendFollowing(exchange, { method: "DELETE", url, headers: this.headers("delete"), ticket });
      response.discard();
    } catch (error) {
      this.logger.debug("DELETE of the session failed", { error });
    } finally {
      clearTimeout(timer);
      this.sessionId = undefined;
    }
  }

  private build(kind: RequestKind): Record<string, string> {
    const headers = { ...this.custom };
    if (this.sessionId !== undefined) headers["mcp-session-id"] = this.sessionId;
    const version = this.policy?.protocolVersion;
    // The version is negotiated by `initialize`: a renewal asks afresh, like the first one.
    if (kind === "initialize") {
      if ("mcp-protocol-version" in headers) delete headers["mcp-protocol-version"];
    } else if (version !== undefined) headers["mcp-protocol-version"] = version;
    if (kind === "get") headers.accept = "text/event-stream";
    else if (kind !== "delete") {
      headers.accept = "application/json, text/event-stream";
      headers["content-type"] = "application/json";
    }
    return headers;
  }
}
