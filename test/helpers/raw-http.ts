// Scripted "raw" HTTP MCP server for integration tests: a real node:http
// server on 127.0.0.1 whose every answer the test controls. Without scripting
// it behaves like a tiny Streamable HTTP server (initialize, session ids,
// 202 for notifications, per-method responders); `route()` overrides any of
// that per request, so tests can produce malformed SSE, wrong status codes,
// dropped connections, etc.
import http from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import {
  Inbox,
  deferred,
  initializeResult,
  isObject,
  isRequest,
  matcherFor,
  describeMatcher,
  responseFor,
  truncate,
} from "./raw-stdio.js";
import type { Answer, JsonObject, MessageMatcher, RpcError, RpcMessage } from "./raw-stdio.js";

export type { Answer, JsonObject, MessageMatcher, RpcError, RpcMessage } from "./raw-stdio.js";

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

export interface RecordedRequest {
  method: string;
  /** Request target as sent, including any query string. */
  path: string;
  /** Lowercased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** The parsed body, when it is JSON. */
  json?: unknown;
}

/** Returned by a route handler to pass the request on to the next handler. */
export const NEXT: unique symbol = Symbol("raw-http.next");
export type RouteResult = void | typeof NEXT;
export type RouteHandler = (req: RecordedRequest, res: ServerResponse) => RouteResult | Promise<RouteResult>;

const MODE = Symbol("raw-http.mode");

/** A responder answer that forces a response framing (see viaSse / viaJson). */
export interface FramedAnswer {
  readonly [MODE]: "sse" | "json";
  readonly answer: JsonObject;
  /** Messages (typically notifications) sent as SSE events before the response. */
  readonly before: JsonObject[];
}

export type HttpAnswer = Answer | FramedAnswer;
export type HttpResponder = (message: RpcMessage, req: RecordedRequest) => HttpAnswer | Promise<HttpAnswer>;

/** Answer as an SSE stream, optionally preceded by other messages (e.g. progress). */
export function viaSse(answer: JsonObject, opts: { before?: JsonObject[] } = {}): FramedAnswer {
  return { [MODE]: "sse", answer, before: opts.before ?? [] };
}

/** Answer as a plain JSON body even when `options.sse` is on. */
export function viaJson(answer: JsonObject): FramedAnswer {
  return { [MODE]: "json", answer, before: [] };
}

/** A request the responders left unanswered; the test answers it by hand. */
export interface PendingResponse {
  readonly id: string | number;
  readonly method: string;
  readonly message: RpcMessage;
  readonly request: RecordedRequest;
  readonly res: ServerResponse;
  /** Resolves when the HTTP response closed: answered, or the client went away. */
  readonly closed: Promise<void>;
  /** Sends the result (or `{ error }`) and ends the response. SSE if `sse` or if write() already started a stream. */
  respond(answer: JsonObject | { error: RpcError }, opts?: { sse?: boolean }): void;
  /** Streams a message (e.g. a notification) as an SSE event, starting the stream if needed. */
  write(message: JsonObject, opts?: { id?: string }): void;
}

export interface RawHttpOptions {
  /** Version answered to initialize (default: the one the client asked for). */
  protocolVersion?: string;
  /** Mint Mcp-Session-Id on initialize ("s-1", "s-2", ...). Default true. */
  session?: boolean;
  /** With sessions: 400 when the header is missing, 404 when unknown. Default true. */
  strictSession?: boolean;
  /** Answer requests as SSE instead of JSON. Default false. */
  sse?: boolean;
  /** Serve GET as a server-to-client SSE stream instead of 405. Default false. */
  getStream?: boolean;
  /** Number the events of SSE answers ("1", "2", ...). Default false. */
  eventIds?: boolean;
  capabilities?: JsonObject;
  serverInfo?: JsonObject;
  instructions?: string;
}

export type RequestMatcher = string | ((req: RecordedRequest) => boolean);

export interface RawHttpServer {
  /** http://127.0.0.1:PORT/mcp */
  readonly url: string;
  /** Mutable: changes apply to later requests. */
  readonly options: RawHttpOptions;
  readonly requests: RecordedRequest[];
  readonly pendingResponses: PendingResponse[];
  readonly openGetStreams: ServerResponse[];
  /** Errors thrown by route handlers or responders (the client got a 500 / -32603). */
  readonly handlerErrors: unknown[];
  /** The most recently minted session id. */
  readonly sessionId: string | undefined;
  /**
   * The node:http server itself, for tests that act below HTTP (a socket destroyed as a request
   * arrives on it): a listener prepended to its "request" event runs before the scripted ones.
   */
  readonly httpServer: http.Server;

  nextRequest(match?: RequestMatcher, timeoutMs?: number): Promise<RecordedRequest>;
  nextPending(match?: MessageMatcher, timeoutMs?: number): Promise<PendingResponse>;
  nextGetStream(timeoutMs?: number): Promise<ServerResponse>;
  route(fn: RouteHandler): () => void;
  handle(method: string, fn: HttpResponder): void;
  pushGet(message: JsonObject, opts?: { id?: string }): number;
  expireSession(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------
// SSE helpers
// ---------------------------------------------------------------------------

export interface SseEvent {
  data?: string | object;
  id?: string;
  event?: string;
  retry?: number;
  comment?: string;
}

/** Frames one SSE event; multi-line data becomes several `data:` lines. */
export function formatSse(ev: SseEvent): string {
  let out = "";
  if (ev.comment !== undefined) for (const line of splitLines(ev.comment)) out += `: ${line}\n`;
  if (ev.id !== undefined) out += `id: ${ev.id}\n`;
  if (ev.event !== undefined) out += `event: ${ev.event}\n`;
  if (ev.retry !== undefined) out += `retry: ${ev.retry}\n`;
  if (ev.data !== undefined) {
    const text = typeof ev.data === "string" ? ev.data : JSON.stringify(ev.data);
    for (const line of splitLines(text)) out += `data: ${line}\n`;
  }
  return out + "\n";
}

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export function writeSse(res: ServerResponse, ev: SseEvent): boolean {
  return res.write(formatSse(ev));
}

/** Sends 200 + event-stream headers right away (no-op if headers already went out). */
export function startSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...headers,
  });
  res.flushHeaders();
}

// ---------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => resolve(Buffer.concat(chunks).toString("utf8"));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", done);
    // An aborted upload is still recorded (with what arrived) rather than lost.
    req.on("error", done);
    req.on("close", done);
  });
}

function tryJson(body: string): { json?: unknown } {
  if (body.trim() === "") return {};
  try {
    return { json: JSON.parse(body) as unknown };
  } catch {
    return {};
  }
}

function requestMatcher(match: RequestMatcher | undefined): (r: RecordedRequest) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === "function") return match;
  // One string covers both "DELETE" (HTTP method) and "tools/call" (JSON-RPC method).
  return (r) => r.method === match || (isObject(r.json) && r.json["method"] === match);
}

function isFramed(answer: HttpAnswer): answer is FramedAnswer {
  return isObject(answer) && MODE in answer;
}

function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers).end();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

class RawHttp implements RawHttpServer {
  readonly url: string;
  readonly options: RawHttpOptions;
  readonly requests: RecordedRequest[] = [];
  readonly pendingResponses: PendingResponse[] = [];
  readonly openGetStreams: ServerResponse[] = [];
  readonly handlerErrors: unknown[] = [];

  private readonly routes: RouteHandler[] = [];
  private readonly responders = new Map<string, HttpResponder>();
  private readonly requestInbox = new Inbox<RecordedRequest>(() => this.describeRequests());
  private readonly pendingInbox = new Inbox<PendingResponse>(() => this.describeRequests());
  private readonly getInbox = new Inbox<ServerResponse>(() => this.describeRequests());
  private readonly sockets = new Set<Socket>();
  private readonly validSessions = new Set<string>();
  private sessionCounter = 0;
  private currentSession: string | undefined;
  private expiring: string | undefined;
  private eventCounter = 0;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly server: http.Server,
    port: number,
    options: RawHttpOptions,
  ) {
    this.url = `http://127.0.0.1:${port}/mcp`;
    this.options = options;
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    server.on("request", (req, res) => void this.onRequest(req, res));
  }

  get sessionId(): string | undefined {
    return this.currentSession;
  }

  get httpServer(): http.Server {
    return this.server;
  }

  // --- test API --------------------------------------------------------------

  nextRequest(match?: RequestMatcher, timeoutMs = 5000): Promise<RecordedRequest> {
    const what = match === undefined ? "any request" : typeof match === "string" ? `request "${match}"` : "a matching request";
    return this.requestInbox.next(requestMatcher(match), timeoutMs, what);
  }

  nextPending(match?: MessageMatcher, timeoutMs = 5000): Promise<PendingResponse> {
    const m = matcherFor(match);
    return this.pendingInbox.next((p) => m(p.message), timeoutMs, `pending ${describeMatcher(match)}`);
  }

  nextGetStream(timeoutMs = 5000): Promise<ServerResponse> {
    return this.getInbox.next(() => true, timeoutMs, "a GET stream");
  }

  route(fn: RouteHandler): () => void {
    this.routes.push(fn);
    return () => {
      const i = this.routes.indexOf(fn);
      if (i !== -1) this.routes.splice(i, 1);
    };
  }

  handle(method: string, fn: HttpResponder): void {
    this.responders.set(method, fn);
  }

  pushGet(message: JsonObject, opts: { id?: string } = {}): number {
    for (const res of this.openGetStreams) writeSse(res, { data: message, ...(opts.id !== undefined ? { id: opts.id } : {}) });
    return this.openGetStreams.length;
  }

  expireSession(): void {
    this.expiring = this.currentSession;
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  // --- request pipeline ------------------------------------------------------

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: flattenHeaders(req.headers),
      body,
      ...tryJson(body),
    };
    this.requests.push(recorded);
    this.requestInbox.push(recorded);
    try {
      await this.dispatch(recorded, res);
    } catch (err) {
      this.handlerErrors.push(err);
      if (!res.headersSent) sendEmpty(res, 500);
      else res.destroy();
    }
  }

  /** Most recent route first; the built-in behaviour answers last. */
  private async dispatch(req: RecordedRequest, res: ServerResponse): Promise<void> {
    for (let i = this.routes.length - 1; i >= 0; i--) {
      const handler = this.routes[i];
      if (handler && (await handler(req, res)) !== NEXT) return;
    }
    await this.defaultRoute(req, res);
  }

  private async defaultRoute(req: RecordedRequest, res: ServerResponse): Promise<void> {
    if (new URL(req.path, "http://x").pathname !== "/mcp") return sendEmpty(res, 404);
    switch (req.method) {
      case "POST":
        return this.onPost(req, res);
      case "GET":
        return this.onGet(req, res);
      case "DELETE":
        return this.onDelete(req, res);
      default:
        return sendEmpty(res, 405, { allow: "GET, POST, DELETE" });
    }
  }

  private async onPost(req: RecordedRequest, res: ServerResponse): Promise<void> {
    const message = req.json;
    if (!isObject(message)) {
      // Batches are gone from current MCP; anything not a single object is malformed here.
      return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    }
    const rpc = message as RpcMessage;
    if (isRequest(rpc) && rpc.method === "initialize") return this.answer(req, res, rpc, this.mintSession());
    if (!this.sessionOk(req, res)) return;
    if (!isRequest(rpc)) return sendEmpty(res, 202); // notification or response
    return this.answer(req, res, rpc, {});
  }

  private onGet(req: RecordedRequest, res: ServerResponse): void {
    if (!this.sessionOk(req, res)) return;
    if (!this.options.getStream) return sendEmpty(res, 405, { allow: "POST, DELETE" });
    startSse(res);
    this.openGetStreams.push(res);
    res.on("close", () => {
      const i = this.openGetStreams.indexOf(res);
      if (i !== -1) this.openGetStreams.splice(i, 1);
    });
    this.getInbox.push(res);
  }

  private onDelete(req: RecordedRequest, res: ServerResponse): void {
    if (!this.sessionOk(req, res)) return;
    const sid = req.headers["mcp-session-id"];
    if (sid !== undefined) this.validSessions.delete(sid);
    sendEmpty(res, 200);
  }

  // --- sessions --------------------------------------------------------------

  private mintSession(): Record<string, string> {
    if (this.options.session === false) return {};
    const sid = `s-${++this.sessionCounter}`;
    this.currentSession = sid;
    this.validSessions.add(sid);
    return { "mcp-session-id": sid };
  }

  /** Applies expiry and (strict) validation; answers and returns false when the request is refused. */
  private sessionOk(req: RecordedRequest, res: ServerResponse): boolean {
    if (this.options.session === false) return true;
    const sid = req.headers["mcp-session-id"];
    if (sid !== undefined && sid === this.expiring) {
      this.expiring = undefined;
      this.validSessions.delete(sid);
      sendEmpty(res, 404);
      return false;
    }
    if (this.options.strictSession === false) return true;
    if (sid === undefined) {
      sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Missing Mcp-Session-Id" } });
      return false;
    }
    if (!this.validSessions.has(sid)) {
      sendEmpty(res, 404);
      return false;
    }
    return true;
  }

  // --- answering requests ----------------------------------------------------

  private async answer(
    req: RecordedRequest,
    res: ServerResponse,
    message: RpcMessage & { method: string; id: string | number },
    headers: Record<string, string>,
  ): Promise<void> {
    let answer: HttpAnswer;
    try {
      answer = await this.respond(message, req);
    } catch (err) {
      this.handlerErrors.push(err);
      answer = { error: { code: -32603, message: `responder failed: ${String(err)}` } };
    }
    if (answer === undefined) return this.park(req, res, message, headers);
    const framed = isFramed(answer) ? answer : undefined;
    const mode = framed?.[MODE] ?? (this.options.sse ? "sse" : "json");
    const payload = framed?.answer ?? (answer as JsonObject);
    this.reply(res, responseFor(message.id, payload), { sse: mode === "sse", headers, before: framed?.before ?? [] });
  }

  private respond(message: RpcMessage, req: RecordedRequest): HttpAnswer | Promise<HttpAnswer> {
    const responder = this.responders.get(message.method ?? "");
    if (responder) return responder(message, req);
    if (message.method === "initialize") return initializeResult(message, this.options);
    // A legacy server knows no server/discover: the client's era probe falls back at once.
    if (message.method === "server/discover") return { error: { code: -32601, message: "Method not found" } };
    return undefined; // no responder: leave it to the test
  }

  private reply(
    res: ServerResponse,
    response: JsonObject,
    how: { sse: boolean; headers: Record<string, string>; before: JsonObject[] },
  ): void {
    if (res.destroyed || res.writableEnded) return;
    if (!how.sse && !res.headersSent) return sendJson(res, 200, response, how.headers);
    startSse(res, how.headers);
    for (const m of how.before) writeSse(res, this.event(m));
    writeSse(res, this.event(response));
    res.end();
  }

  private event(data: JsonObject, id?: string): { data: JsonObject; id?: string } {
    if (id !== undefined) return { data, id };
    return this.options.eventIds ? { data, id: String(++this.eventCounter) } : { data };
  }

  /** Keeps the response open and hands it to the test. */
  private park(
    req: RecordedRequest,
    res: ServerResponse,
    message: RpcMessage & { method: string; id: string | number },
    headers: Record<string, string>,
  ): void {
    const closed = deferred<void>();
    const pending: PendingResponse = {
      id: message.id,
      method: message.method,
      message,
      request: req,
      res,
      closed: closed.promise,
      respond: (answer, opts = {}) =>
        this.reply(res, responseFor(message.id, answer), {
          sse: opts.sse ?? (res.headersSent || this.options.sse === true),
          headers,
          before: [],
        }),
      write: (m, opts = {}) => {
        startSse(res, headers);
        writeSse(res, this.event(m, opts.id));
      },
    };
    res.on("close", () => {
      const i = this.pendingResponses.indexOf(pending);
      if (i !== -1) this.pendingResponses.splice(i, 1);
      closed.resolve();
    });
    this.pendingResponses.push(pending);
    this.pendingInbox.push(pending);
  }

  // --- misc ------------------------------------------------------------------

  private describeRequests(): string {
    const tail = this.requests.slice(-20).map((r) => `  ${r.method} ${r.path} ${truncate(r.body, 200)}`);
    return [`received ${this.requests.length} request(s):`, ...tail].join("\n");
  }

  private async shutdown(): Promise<void> {
    this.requestInbox.close("server closed");
    this.pendingInbox.close("server closed");
    this.getInbox.close("server closed");
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

export async function startRawHttp(options: RawHttpOptions = {}): Promise<RawHttpServer> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("unexpected server address");
  return new RawHttp(server, address.port, { ...options });
}
