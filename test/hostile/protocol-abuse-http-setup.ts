// The servers of the HTTP protocol-abuse battery and the few moves its tests share: a legacy
// Streamable HTTP server (raw-http) with its GET stream open, an HTTP+SSE one
// (protocol-abuse-http-sse.ts), a call the server holds, and a round trip on one stream, which
// proves the client read what that stream carried before it (order holds within a stream only).
import type { ServerResponse } from "node:http";
import { expect } from "vitest";
import { Client, type ConnectOptions, type Handler, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { startRawHttp, writeSse, type PendingResponse, type RawHttpOptions, type RawHttpServer } from "../helpers/raw-http.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import { MB } from "./probe.js";
import { startRawSse, type RawSseServer } from "./protocol-abuse-http-sse.js";

export const textResult = (text: string) => ({ content: [{ type: "text", text }] });

/** What a call came to, never an unhandled rejection. */
export type Outcome = { value: unknown; error?: undefined } | { error: unknown; value?: undefined };

export const settle = (promise: Promise<unknown>): Promise<Outcome> =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

interface Options {
  connect?: ConnectOptions;
  handler?: Handler;
}

export interface Streamable {
  raw: RawHttpServer;
  client: Client;
  server: ServerHandle;
  logger: CapturingLogger;
  /** The standalone GET stream, open. */
  stream: ServerResponse;
}

const newClient = (logger: CapturingLogger, handler: Handler | undefined): Client =>
  track(new Client({ name: "h", version: "0", logger, ...(handler === undefined ? {} : { handler }) }));

/** A legacy (2025-11-25) Streamable HTTP server, connected, its GET stream open. */
export async function streamable(options: Options & { raw?: RawHttpOptions } = {}): Promise<Streamable> {
  const raw = track(await startRawHttp({ getStream: true, ...options.raw }));
  raw.handle("ping", () => ({}));
  const logger = capturingLogger();
  const client = newClient(logger, options.handler);
  const server = await client.connect("raw", { url: raw.url }, options.connect);
  const stream = await raw.nextGetStream();
  return { raw, client, server, logger, stream };
}

export interface OldHttp {
  raw: RawSseServer;
  client: Client;
  server: ServerHandle;
  logger: CapturingLogger;
}

/** A 2024-11-05 server of the HTTP+SSE transport, connected. */
export async function oldHttp(options: Options = {}): Promise<OldHttp> {
  const raw = track(await startRawSse());
  const logger = capturingLogger();
  const client = newClient(logger, options.handler);
  const server = await client.connect("old", { url: raw.url, transport: "sse" }, options.connect);
  await raw.next("notifications/initialized");
  return { raw, client, server, logger };
}

/** A well-behaved server on the same Client: the client answers when the abused one is gone. */
export async function another(client: Client): Promise<ServerHandle> {
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  raw.handle("ping", () => ({}));
  return client.connect("other", raw.target);
}

/** A `tools/call` the Streamable HTTP server holds, its POST's response open. */
export async function heldCall(raw: RawHttpServer, server: ServerHandle, timeout?: number): Promise<{ id: number; pending: PendingResponse; outcome: Promise<Outcome> }> {
  const outcome = settle(server.callTool("t", {}, timeout === undefined ? undefined : { timeout }));
  const pending = await raw.nextPending("tools/call");
  expect(typeof pending.id).toBe("number");
  return { id: pending.id as number, pending, outcome };
}

/** A `tools/call` the HTTP+SSE server got and has not answered. */
export async function oldCall(raw: RawSseServer, server: ServerHandle, timeout?: number): Promise<{ id: number; outcome: Promise<Outcome> }> {
  const outcome = settle(server.callTool("t", {}, timeout === undefined ? undefined : { timeout }));
  const request = await raw.next("tools/call");
  expect(typeof request.id).toBe("number");
  return { id: request.id as number, outcome };
}

/** Bytes as the body of a JSON reply. */
export function jsonBody(pending: PendingResponse, body: string | Uint8Array): void {
  pending.res.writeHead(200, { "content-type": "application/json" }).end(body);
}

/** Bytes on a reply's event stream, opening it if need be. */
export function sseBytes(res: ServerResponse, bytes: string | Uint8Array): void {
  if (!res.headersSent) res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).flushHeaders();
  res.write(bytes);
}

/** One event whose data is `text` as it is (JSON or not). */
export const event = (text: string | Uint8Array): Uint8Array => Buffer.concat([Buffer.from("data: "), Buffer.from(text), Buffer.from("\n\n")]);

let syncs = 0;

/** A `ping` on the GET stream and its answer: the client has read everything the stream carried before. */
export async function syncGet(raw: RawHttpServer, stream: ServerResponse): Promise<void> {
  const id = `sync-${++syncs}`;
  writeSse(stream, { data: { jsonrpc: "2.0", id, method: "ping" } });
  const answer = await raw.nextRequest((r) => (r.json as { id?: unknown } | undefined)?.id === id);
  expect(answer.json).toEqual({ jsonrpc: "2.0", id, result: {} });
}

/** The same on the one stream of HTTP+SSE. */
export async function syncOld(raw: RawSseServer): Promise<void> {
  const id = `sync-${++syncs}`;
  raw.send({ jsonrpc: "2.0", id, method: "ping" });
  expect(await raw.next((m) => m.id === id)).toEqual({ jsonrpc: "2.0", id, result: {} });
}

/** The client's answer to server request `id`, as POSTed. */
export async function answerTo(raw: RawHttpServer, id: unknown): Promise<unknown> {
  return (await raw.nextRequest((r) => {
    const json = r.json as { id?: unknown; method?: unknown } | undefined;
    return json !== undefined && json.method === undefined && json.id === id;
  })).json;
}

/** An initialize result without end, written as fast as the client reads it, until it goes. */
export function endlessInitialize(res: ServerResponse): void {
  const chunk = "i".repeat(MB);
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"jsonrpc":"2.0","id":1,"result":{"instructions":"');
  const more = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once("drain", more);
  };
  res.on("close", () => res.off("drain", more));
  more();
}
