// What the HTTP-abuse tests share: a client on a scripted Streamable HTTP server or on an
// HTTP+SSE one, a second well-behaved server to prove the client still answers, the outcome of
// a call as a value (never an unhandled rejection), and the end of every test: no unhandled
// rejection, then its row of the Safety table.
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, expect, type TestContext } from "vitest";
import { Client, type ConnectOptions, type HttpTarget, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { startRawHttp, type RawHttpOptions, type RawHttpServer, type RecordedRequest } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";
import { startOldHttp, type OldHttpServer } from "./http-abuse-sse.js";
import { safetyRow, type SafetyRow } from "./safety.js";

export const BOTH = "Streamable HTTP, HTTP+SSE";
export const STREAMABLE = "Streamable HTTP";
export const OLD = "HTTP+SSE";

/** What the host sends with every request, and must not reach another origin. */
export const HOST_HEADERS = { authorization: "Bearer host-secret-token" };

export const HTML_PAGE = "<!doctype html><html><head><title>500 Internal Server Error</title></head><body><h1>Oops</h1><p>stack trace: at handler (/srv/app.js:42)</p></body></html>";

export const textResult = (text: string) => ({ content: [{ type: "text", text }] });

export type Outcome = { value: unknown; error?: undefined } | { error: { kind?: string; message?: string; code?: unknown; data?: unknown; serverId?: unknown }; value?: undefined };

/** The outcome of `promise`, as a value: a rejection is never left unhandled. */
export function settle(promise: Promise<unknown>): Promise<Outcome> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error as Outcome["error"] & object }),
  );
}

export interface Setup<S> {
  srv: S;
  client: Client;
  server: ServerHandle;
  logger: CapturingLogger;
}

export interface SetupOptions {
  connect?: ConnectOptions;
  raw?: RawHttpOptions;
  backend?: "node:http" | "fetch";
  /** The Handler lists roots: the client then sends `notifications/roots/list_changed` when told. */
  roots?: boolean;
  /** The client's timeout of requests that name none. */
  requestTimeout?: number;
}

export function newClient(options: SetupOptions = {}): { client: Client; logger: CapturingLogger } {
  const logger = capturingLogger();
  const handler = options.roots === true ? { listRoots: () => ({ roots: [] }) } : undefined;
  const client = track(new Client({ name: "h", version: "0", logger, ...(handler === undefined ? {} : { handler }), ...(options.requestTimeout === undefined ? {} : { requestTimeout: options.requestTimeout }) }));
  return { client, logger };
}

export function target(url: string, options: SetupOptions = {}, transport?: "sse"): HttpTarget {
  return {
    url,
    headers: HOST_HEADERS,
    ...(options.backend === "fetch" ? { fetch: globalThis.fetch } : {}),
    ...(transport === undefined ? {} : { transport }),
  };
}

/** A legacy Streamable HTTP server (sessions on) that answers `ping` and `tools/call`. */
export async function streamable(options: SetupOptions = {}): Promise<Setup<RawHttpServer>> {
  const srv = await rawServer(options.raw);
  const { client, logger } = newClient(options);
  const server = await client.connect("raw", target(srv.url, options), options.connect);
  return { srv, client, server, logger };
}

export async function rawServer(options: RawHttpOptions = {}): Promise<RawHttpServer> {
  const srv = track(await startRawHttp(options));
  srv.handle("ping", () => ({}));
  srv.handle("tools/call", () => textResult("fine"));
  return srv;
}

/** A client on an HTTP+SSE server. */
export async function oldHttp(options: SetupOptions = {}): Promise<Setup<OldHttpServer>> {
  const srv = await startOldHttp();
  const { client, logger } = newClient(options);
  const server = await client.connect("old", target(srv.url, options, "sse"), options.connect);
  return { srv, client, server, logger };
}

/** A second, well-behaved server on the same Client, pinged: the client still answers. */
export async function another(client: Client, id = "other"): Promise<void> {
  const srv = await rawServer();
  const server = await client.connect(id, { url: srv.url });
  await server.ping();
}

/** The POSTs that carried this JSON-RPC method, in order. */
export function posts(requests: readonly RecordedRequest[], method: string): RecordedRequest[] {
  return requests.filter((r) => r.method === "POST" && (r.json as { method?: unknown } | undefined)?.method === method);
}

/** Spins the event loop (real I/O turns, not time) until `ready()`; fails after `turns`. */
export async function until(ready: () => boolean, what: string, turns = 20_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (ready()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`not ${what} after ${turns} turns of the event loop`);
}

/** Resolves when the response's connection closed (the client let go of it). */
export function closedOf(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.socket?.destroyed === true) resolve();
    else res.once("close", () => resolve());
  });
}

/**
 * Writes `bytes` of `fill` on `res` as fast as the client reads them, until done or the client
 * lets go; resolves with the bytes written. One chunk is reused, so the server holds little.
 */
export async function pour(res: ServerResponse, bytes: number, fill = "x"): Promise<number> {
  const chunk = fill.repeat(64 * 1024);
  let written = 0;
  while (written < bytes && !res.destroyed) {
    written += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.once("drain", done);
        res.once("close", done);
      });
    }
  }
  return written;
}

/** Writes one byte of `text` every `everyMs` until stopped or the client lets go. */
export function trickle(res: ServerResponse, text: string, everyMs: number): { stop(): void } {
  let at = 0;
  const timer = setInterval(() => {
    if (res.destroyed || at >= text.length) return void clearInterval(timer);
    res.write(text[at++]!);
  }, everyMs);
  res.once("close", () => clearInterval(timer));
  return { stop: () => clearInterval(timer) };
}

// Vitest reports an unhandled rejection as an error of the run; this says which test made it.
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(() => void process.off("unhandledRejection", onUnhandled));

/** The end of a test: a turn for late rejections, none of them unhandled, then its row. */
export async function done(context: TestContext, row: Omit<SafetyRow, "area">): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(unhandled).toEqual([]);
  safetyRow(context, { area: "HTTP abuse", ...row });
}

/** What the log holds, as one string: for asserting what it does not hold. */
export function logText(logger: CapturingLogger): string {
  return JSON.stringify(logger.entries, (_key, value: unknown) => (value instanceof Error ? { message: value.message, cause: value.cause } : value));
}
