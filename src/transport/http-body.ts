/**
 * Reading bounded response bodies, and the error that carries an HTTP status.
 */
import type { ExchangeResponse } from "./http-exchange.js";

/** Why an HTTP exchange failed, kept as the `cause` of the ClientError the caller sees. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}${body === "" ? "" : `: ${body.length > 300 ? `${body.slice(0, 300)}...` : body}`}`);
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
  await response.consume((chunk) => {
    if (tooLarge) return;
    size += chunk.byteLength;
    if (size > limit) {
      tooLarge = true;
      response.discard();
      return;
    }
    chunks.push(chunk);
  }).catch((error: unknown) => {
    if (!tooLarge) throw error;
  });
  if (tooLarge) throw new BodyTooLargeError(limit);
  if (chunks.length === 1) return Buffer.from(chunks[0]!.buffer, chunks[0]!.byteOffset, chunks[0]!.byteLength).toString("utf8");
  return Buffer.concat(chunks, size).toString("utf8");
}

export function mediaType(response: ExchangeResponse): string {
  const value = response.header("content-type") ?? "";
  const semicolon = value.indexOf(";");
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}
