// A scripted server of the HTTP+SSE transport (2024-11-05) for the protocol-abuse battery: one
// event stream that carries whatever the test writes, raw bytes included, and an endpoint whose
// every POST is taken with 202 and recorded. It answers `initialize` and `ping` on the stream
// unless told otherwise; other requests wait for the test (`next`, then `send`).
import http from "node:http";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Inbox, describeMatcher, initializeResult, isRequest, matcherFor, responseFor, type Answer, type MessageMatcher, type RpcMessage } from "../helpers/raw-stdio.js";

export type SseResponder = (message: RpcMessage) => Answer | Promise<Answer>;

export interface RawSseServer {
  /** The stream's URL (`/sse`); messages go to `/messages`. */
  readonly url: string;
  /** Every message POSTed, in order. */
  readonly received: RpcMessage[];
  /** The next POSTed message that matches, one not taken by an earlier `next` first. */
  next(match?: MessageMatcher, timeoutMs?: number): Promise<RpcMessage>;
  /** Answers `method` on the stream; a responder that gives undefined leaves it to the test. */
  handle(method: string, fn: SseResponder): void;
  /** One `message` event. */
  send(message: unknown): void;
  /** Bytes as they are, on the open stream; false when the stream is not open. */
  sendRaw(bytes: string | Uint8Array): boolean;
  /** Cuts the stream's connection. */
  drop(): void;
  close(): Promise<void>;
}

class RawSse implements RawSseServer {
  readonly url: string;
  readonly received: RpcMessage[] = [];
  private readonly inbox = new Inbox<RpcMessage>(() => `received ${this.received.length} message(s)`);
  private readonly responders = new Map<string, SseResponder>();
  private readonly sockets = new Set<Socket>();
  private stream: ServerResponse | undefined;

  constructor(
    private readonly listener: http.Server,
    port: number,
  ) {
    this.url = `http://127.0.0.1:${port}/sse`;
    this.handle("initialize", (message) => initializeResult(message, { protocolVersion: "2024-11-05" }));
    this.handle("ping", () => ({}));
    listener.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    listener.on("request", (req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (req.method === "GET" && path === "/sse") return this.open(res);
      if (req.method !== "POST" || path !== "/messages") return void res.writeHead(404).end();
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        res.writeHead(202).end("Accepted");
        void this.take(Buffer.concat(chunks).toString("utf8"));
      });
    });
  }

  next(match?: MessageMatcher, timeoutMs = 5000): Promise<RpcMessage> {
    const matches = matcherFor(match);
    return this.inbox.next(matches, timeoutMs, describeMatcher(match));
  }

  handle(method: string, fn: SseResponder): void {
    this.responders.set(method, fn);
  }

  send(message: unknown): void {
    this.sendRaw(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  sendRaw(bytes: string | Uint8Array): boolean {
    if (this.stream === undefined || this.stream.destroyed) return false;
    this.stream.write(bytes);
    return true;
  }

  drop(): void {
    this.stream?.socket?.destroy();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      for (const socket of this.sockets) socket.destroy();
      this.listener.close(() => resolve());
    });
  }

  private open(res: ServerResponse): void {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("event: endpoint\ndata: /messages?sessionId=abuse\n\n");
    this.stream = res;
  }

  private async take(body: string): Promise<void> {
    let message: RpcMessage;
    try {
      message = JSON.parse(body) as RpcMessage;
    } catch {
      return;
    }
    this.received.push(message);
    this.inbox.push(message);
    if (!isRequest(message)) return;
    const answer = await this.responders.get(message.method)?.(message);
    if (answer !== undefined) this.send(responseFor(message.id, answer));
  }
}

export async function startRawSse(): Promise<RawSseServer> {
  const listener = http.createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const address = listener.address();
  if (address === null || typeof address === "string") throw new Error("unexpected server address");
  return new RawSse(listener, address.port);
}
