// A server of the HTTP+SSE transport (2024-11-05) for the HTTP-abuse battery, built on the raw
// HTTP server's routes so that every request is recorded with its headers and a test can take
// over any answer: the GET of `/sse` opens the stream and names `/messages` as the endpoint; a
// POST there is taken with 202, and a request among them is answered on the stream
// (`initialize`, `ping`, `tools/call`; the others wait for the test). A route a test adds wins.
import type { ServerResponse } from "node:http";
import { NEXT, startRawHttp, startSse, writeSse, type RawHttpServer, type RecordedRequest, type RouteHandler } from "../helpers/raw-http.js";
import { initializeResult, isRequest, responseFor, type JsonObject, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

export interface OldHttpServer {
  readonly raw: RawHttpServer;
  /** The stream's URL (`/sse`). */
  readonly url: string;
  /** The URL the stream names for messages. */
  readonly endpoint: string;
  /** The open stream, once the client opened it. */
  readonly stream: ServerResponse | undefined;
  /** One `message` event on the open stream. */
  push(message: JsonObject): void;
  /** The POSTs to the endpoint that carried this JSON-RPC method (all of them without one). */
  posts(method?: string): RecordedRequest[];
  /** Takes over the POSTs of one JSON-RPC method to the endpoint. */
  onPost(method: string, fn: (req: RecordedRequest, res: ServerResponse) => void): () => void;
  /** Takes over the GET of the stream. */
  onGet(fn: (req: RecordedRequest, res: ServerResponse) => void): () => void;
}

const ENDPOINT = "/messages";
const QUERY = "?sessionId=abuse";

function pathOf(req: RecordedRequest): string {
  return new URL(req.path, "http://x").pathname;
}

function methodOf(req: RecordedRequest): string | undefined {
  const json = req.json as { method?: unknown } | undefined;
  return typeof json?.method === "string" ? json.method : undefined;
}

export async function startOldHttp(): Promise<OldHttpServer> {
  const raw = track(await startRawHttp({ session: false }));
  let stream: ServerResponse | undefined;
  const push = (message: JsonObject): void => {
    if (stream !== undefined && !stream.destroyed) writeSse(stream, { event: "message", data: message });
  };
  const answer = (message: RpcMessage): JsonObject | undefined => {
    if (message.method === "initialize") return initializeResult(message, { protocolVersion: "2024-11-05", capabilities: { tools: {} } });
    if (message.method === "ping") return {};
    if (message.method === "tools/call") return { content: [{ type: "text", text: "over sse" }] };
    return undefined;
  };
  const standard: RouteHandler = (req, res) => {
    if (req.method === "GET" && pathOf(req) === "/sse") {
      startSse(res);
      writeSse(res, { event: "endpoint", data: `${ENDPOINT}${QUERY}` });
      stream = res;
      return undefined;
    }
    if (req.method !== "POST" || pathOf(req) !== ENDPOINT) return NEXT;
    res.writeHead(202).end("Accepted");
    const message = req.json as RpcMessage;
    const result = isRequest(message) ? answer(message) : undefined;
    if (result !== undefined) push(responseFor(message.id, result));
    return undefined;
  };
  raw.route(standard);
  return {
    raw,
    url: raw.url.replace(/\/mcp$/, "/sse"),
    endpoint: raw.url.replace(/\/mcp$/, `${ENDPOINT}${QUERY}`),
    get stream() {
      return stream;
    },
    push,
    posts: (method) => raw.requests.filter((r) => r.method === "POST" && pathOf(r) === ENDPOINT && (method === undefined || methodOf(r) === method)),
    onPost: (method, fn) =>
      raw.route((req, res) => {
        if (req.method !== "POST" || pathOf(req) !== ENDPOINT || methodOf(req) !== method) return NEXT;
        fn(req, res);
        return undefined;
      }),
    onGet: (fn) =>
      raw.route((req, res) => {
        if (req.method !== "GET" || pathOf(req) !== "/sse") return NEXT;
        fn(req, res);
        return undefined;
      }),
  };
}
