/**
 * What a failed HTTP exchange says about the connection, read off the error and its causes:
 * the server is not there (any more), its reply outgrew `maxMessageBytes`, or the reply was not
 * HTTP the parser could read.
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

/** Socket errors that say no server is there (any more), looked for down the cause chain. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);

export function unreachable(error: unknown): boolean {
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && UNREACHABLE.has(code)) return true;
  }
  return false;
}

/** `error` and its causes, five deep at most (fetch wraps undici's error, which wraps the socket's). */
function* causes(error: unknown): Generator<object> {
  for (let cause = error, depth = 0; typeof cause === "object" && cause !== null && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) yield cause;
}
