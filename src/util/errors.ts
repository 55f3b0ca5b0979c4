/**
 * The two error families of Conduit.
 *
 * - `ClientError` is a local failure: its `kind` is the stable code a caller switches on. It is
 *   never sent over the wire.
 * - `RpcError` is a JSON-RPC error object: a Handler callback throws it to refuse a server's
 *   request with that code and message.
 *
 * Both are branded with a global symbol so that `instanceof` keeps working when two copies of
 * the package end up in one program (a bundler duplicating the module, say).
 */

export type ClientErrorKind =
  | "timeout"
  | "cancelled"
  | "transport"
  | "closed"
  | "protocol"
  | "rpc"
  | "input_handler"
  | "input_refused"
  | "unsupported"
  | "usage"
  | "url_elicitation_required"
  | "task_failed"
  | "auth"
  | "store";

/**
 * A URL a server requires the user to visit before a call can go on (2025-11-25 `-32042`), as the
 * URL checks of elicitation judged it: show `url`, `host` and the warnings, or, when `refused`,
 * nothing of it.
 */
export interface RequiredUrl {
  /** The server's id of it (its completion notification names it). */
  readonly elicitationId: string | undefined;
  /** What the server says the visit is for. */
  readonly message: string;
  /** The checked URL's `href`; undefined when the checks refused it. */
  readonly url: string | undefined;
  readonly host: string | undefined;
  /** A label of the host is punycode (`xn--`). */
  readonly idn: boolean;
  /** The URL leads away from the server's own origin (or that origin is unknown). */
  readonly originMismatch: boolean;
  /** Why the checks refused it, when they did. */
  readonly refused: string | undefined;
}

export interface ClientErrorOptions {
  serverId?: string | undefined;
  cause?: unknown;
  code?: number | undefined;
  data?: unknown;
  elicitations?: readonly RequiredUrl[] | undefined;
}

const clientErrorBrand = Symbol.for("conduit-mcp.ClientError");
const rpcErrorBrand = Symbol.for("conduit-mcp.RpcError");

function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

export class ClientError extends Error {
  override readonly name = "ClientError";
  readonly kind: ClientErrorKind;
  readonly serverId: string | undefined;
  /** For `"rpc"`: the server's error code. For `"input_refused"`: what the legacy era would send. */
  readonly code: number | undefined;
  /** For `"rpc"`: the server's `error.data`. For `"protocol"` about a result: that result. */
  readonly data: unknown;

  /** For `"url_elicitation_required"`: the URLs to visit, checked. */
  readonly elicitations: readonly RequiredUrl[] | undefined;

  constructor(kind: ClientErrorKind, message: string, options: ClientErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.serverId = options.serverId;
    this.code = options.code;
    this.data = options.data;
    this.elicitations = options.elicitations;
    Object.defineProperty(this, clientErrorBrand, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, clientErrorBrand);
  }

  /** A copy that names the server, for errors raised below the layer that knows the id. */
  withServer(serverId: string): ClientError {
    return this.serverId === serverId ? this : namedCopy(this, serverId);
  }
}

// Outside the class: a class body that names its own class makes the bundler rename it, and
// `console.error(error)` would then print the bundler's name.
function namedCopy(error: ClientError, serverId: string): ClientError {
  const copy = new ClientError(error.kind, error.message, { serverId, cause: error.cause, code: error.code, data: error.data, elicitations: error.elicitations });
  copy.stack = error.stack;
  return copy;
}

export class RpcError extends Error {
  override readonly name = "RpcError";
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    if (!Number.isInteger(code)) throw new TypeError(`RpcError code must be an integer, got ${String(code)}`);
    this.code = code;
    this.data = data;
    Object.defineProperty(this, rpcErrorBrand, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, rpcErrorBrand);
  }
}

/** JSON-RPC error codes the client itself sends or interprets. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined in the legacy range: Conduit uses it for "busy" and over budget. */
  ServerBusy: -32000,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25: the call needs the user to visit URLs first (`data.elicitations`). */
  UrlElicitationRequired: -32042,
  /** Legacy resource-not-found (2025-11-25 and earlier). */
  ResourceNotFound: -32002,
} as const;

/** A caller's programming mistake: a TypeError with a Node-style code, never a ClientError. */
export class InvalidArgumentError extends TypeError {
  readonly code = "ERR_CONDUIT_INVALID_ARGUMENT";
}

/**
 * What a public method rejects with. A ClientError is made afresh, naming the server, so that
 * its stack is taken here, among the caller's frames: one raised on a socket's data event has
 * none of them. A caller's mistake (`InvalidArgumentError`) stays as it is; anything else the
 * client did not expect becomes a `"protocol"` error (server data it could not handle), the
 * original as its cause.
 */
export function atBoundary(error: unknown, serverId: string): Error {
  if (error instanceof InvalidArgumentError) return error;
  const made =
    error instanceof ClientError
      ? new ClientError(error.kind, error.message, { serverId, cause: error.cause, code: error.code, data: error.data, elicitations: error.elicitations })
      : new ClientError("protocol", `a reply of server "${serverId}" could not be handled: ${messageOf(error)}`, { serverId, cause: error });
  Error.captureStackTrace(made, atBoundary);
  return made;
}

/** The message of whatever was thrown, for text that names a cause. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
