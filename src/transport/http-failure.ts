/**
 * What a failed HTTP exchange says about the connection, read off the error and its causes:
 * the server is not there (any more) or only this exchange broke, its reply outgrew
 * `maxMessageBytes`, or the reply was not HTTP the parser could read.
 */
import { ClientError, messageOf } from "../util/errors.js";
import { excerpt } from "../util/text.js";
import { BodyTooLargeError } from "./http-body.js";
import { SseOverflowError } from "./sse-reader.js";

/** A reply over `maxMessageBytes`, as a JSON body or as one event of a stream. */
export function oversize(error: unknown): boolean {
  return error instanceof BodyTooLargeError || (error instanceof ClientError && error.cause instanceof SseOverflowError);
}

/**
 * The parser's verdict when the reply was no valid HTTP (a control character or a line break in
 * a header, headers past the parser's bound): llhttp's `HPE_` code (undici's own for headers too
 * large) and reason, looked for down the cause chain (fetch wraps it), or undefined for any
 * other failure.
 */
export function malformedHttp(error: unknown): string | undefined {
  for (const cause of causes(error)) {
    const { code, reason } = cause as { code?: unknown; reason?: unknown };
    if (typeof code === "string" && (code.startsWith("HPE_") || code === "UND_ERR_HEADERS_OVERFLOW")) {
      return `${code}: ${excerpt(typeof reason === "string" ? reason : messageOf(cause), 100)}`;
    }
  }
  return undefined;
}

/**
 * What a socket error says, by its code (looked for down the cause chain: fetch wraps undici's
 * error, which wraps the socket's). Only an error that no request could get past — nothing
 * listens there, no such host, no route — says the server is gone; the connection then ends
 * when the host restarts servers, so that it connects again. Every other one broke one exchange
 * and says nothing of the next: a keep-alive socket that the server closed as the client took it
 * from the pool (the classic race), a proxy that dropped a connection, a socket timeout. Ending
 * the connection for those failed every other call in flight with it; now only the request that
 * met one fails. A DNS answer of "try again" (`EAI_AGAIN`) is of the second kind.
 */
const GONE: ReadonlyMap<string, string> = new Map([
  ["ECONNREFUSED", "the connection was refused"],
  ["ENOTFOUND", "the host name is not known"],
  ["EHOSTUNREACH", "no route to the host"],
  ["ENETUNREACH", "the network is unreachable"],
]);

const BROKEN: ReadonlyMap<string, string> = new Map([
  ["ECONNRESET", "the connection was reset"],
  ["EPIPE", "broken pipe"],
  ["ECONNABORTED", "the connection was aborted"],
  ["UND_ERR_SOCKET", "the server closed the connection"],
  ["ETIMEDOUT", "socket timeout"],
  ["ESOCKETTIMEDOUT", "socket timeout"],
  ["UND_ERR_CONNECT_TIMEOUT", "socket timeout while connecting"],
  ["UND_ERR_HEADERS_TIMEOUT", "socket timeout while waiting for the headers"],
  ["UND_ERR_BODY_TIMEOUT", "socket timeout while reading the body"],
  ["EAI_AGAIN", "the host name could not be resolved for now"],
]);

export interface SocketFailure {
  readonly code: string;
  /** In words, for the error's message: "the connection was reset", "broken pipe", … */
  readonly reason: string;
  /** The message of the error that had the code ("socket hang up", "other side closed", …). */
  readonly detail: string;
  /** No request can reach the server: the connection ends (when the host restarts servers). */
  readonly gone: boolean;
}

/** The socket failure behind `error`, or undefined when it is none of the known ones. */
export function socketFailure(error: unknown): SocketFailure | undefined {
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    const gone = GONE.get(code);
    const reason = gone ?? BROKEN.get(code);
    if (reason !== undefined) return { code, reason, detail: excerpt(messageOf(cause), 200), gone: gone !== undefined };
  }
  return undefined;
}

/** Whether `error` says that no server is there any more (see `socketFailure`). */
export function unreachable(error: unknown): boolean {
  return socketFailure(error)?.gone === true;
}

/** `error` and its causes, five deep at most (fetch wraps undici's error, which wraps the socket's). */
function* causes(error: unknown): Generator<object> {
  for (let cause = error, depth = 0; typeof cause === "object" && cause !== null && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) yield cause;
}
