/**
 * Reading bounded response bodies, and what a non-2xx reply means for the caller.
 */
import { ClientError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import { excerpt, redactUrl } from "../util/text.js";
import type { ExchangeResponse } from "./http-exchange.js";
import { utf8Length, utf8Text } from "../util/bytes.js";

/** How much of an error reply is read to find a JSON-RPC error in it. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * Why an HTTP exchange failed, kept as the `cause` of the ClientError the caller sees. It
 * keeps a bounded excerpt of the body, never the body: an error page can be large, and it is
 * the server's text.
 */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    /** At most `EXCERPT_CHARS` characters of the body, cleaned; "" for none or an HTML page. */
    readonly body: string,
  ) {
    super(`HTTP ${status}${body === "" ? "" : `: ${body}`}`);
  }
}

export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`a response body exceeded maxMessageBytes (${limit} bytes)`);
  }
}

/** Collects the body as text; throws `BodyTooLargeError` past `limit` bytes. */
export async function readBody(response: ExchangeResponse, limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let tooLarge = false;
  await response
    .consume((chunk) => {
      if (tooLarge) return;
      size += chunk.byteLength;
      if (size > limit) {
        tooLarge = true;
        response.discard();
        return;
      }
      chunks.push(chunk);
    })
    .catch((error: unknown) => {
      if (!tooLarge) throw error;
    });
  if (tooLarge) throw new BodyTooLargeError(limit);
  return utf8Text(chunks, size);
}

export function mediaType(response: ExchangeResponse): string {
  const value = response.header("content-type") ?? "";
  // What servers send, most often just so: nothing to cut, trim or lower-case.
  if (value === "application/json" || value === "text/event-stream") return value;
  const semicolon = value.indexOf(";");
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * A non-2xx reply as an error: a JSON-RPC error in the body (a modern server's 400 with
 * -32022, a 404 with -32601) becomes an `"rpc"` error with its code; anything else is a
 * `"transport"` error naming the status and the URL (secrets redacted). The status is kept
 * as the `cause`, and as `data.status`.
 */
export async function failureOf(response: ExchangeResponse, url: URL): Promise<ClientError> {
  const status = response.status;
  const html = mediaType(response) === "text/html";
  let body = "";
  try {
    body = await readBody(response, ERROR_BODY_LIMIT);
  } catch {
    response.discard();
  }
  const error = rpcErrorIn(body);
  const cause = new HttpStatusError(status, html || error !== undefined ? "" : excerpt(body.trim()));
  if (error !== undefined) {
    return new ClientError("rpc", `HTTP ${status}: ${excerpt(error.message)} (code ${error.code})`, { code: error.code, data: error.data, cause });
  }
  const page = html && body !== "" ? ` (an HTML page of ${utf8Length(body)} bytes)` : "";
  return new ClientError("transport", `${redactUrl(url)} answered ${cause.message}${page}`, { cause, data: { status } });
}

/**
 * A 200 to a GET for an event stream that is no event stream (an HTML page, JSON): the server
 * broke the protocol. The body is dropped unread; the message names the type, not the page.
 */
export function notAnEventStream(response: ExchangeResponse, url: URL): ClientError {
  response.discard();
  const type = mediaType(response);
  return new ClientError("protocol", `${redactUrl(url)} answered a GET for an event stream with Content-Type "${excerpt(type, 100)}"`, { data: { status: response.status } });
}

function rpcErrorIn(body: string): { code: number; message: string; data?: unknown } | undefined {
  if (body === "") return undefined;
  try {
    const value: unknown = JSON.parse(body);
    if (!isObject(value) || !isObject(value.error)) return undefined;
    const { code, message, data } = value.error;
    if (!Number.isInteger(code) || typeof message !== "string") return undefined;
    return { code: code as number, message, data };
  } catch {
    return undefined;
  }
}
