// The HTTP+SSE transport of 2024-11-05 against a scripted server on a real socket: the fallback
// to it from Streamable HTTP, `transport: "sse"`, and what no good server does (an endpoint on
// another origin, an endpoint that never comes, a second one, a stream that closes after it).
import http from "node:http";
import { describe, expect, it } from "vitest";
import { Client, ClientError } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";

interface Seen {
  method: string;
  path: string;
  body: string;
}

interface SseServer {
  url: string;
  origin: string;
  seen: Seen[];
  /** Writes a `message` event on the open stream. */
  push(message: unknown): void;
  /** Writes an event of any name on the open stream. */
  event(name: string, data: string): void;
  /** Ends the open stream. */
  endStream(): void;
  close(): Promise<void>;
}

/**
 * A server of the old transport at `/sse`, its messages POSTed to `/messages`: it answers
 * `initialize`, `ping` and `tools/call` on the stream, the rest with 202 alone. `onGet` decides
 * what the stream says first (by default the endpoint); a POST to `/sse` gets `postStatus`.
 */
async function sseServer(options: { onGet?: (server: SseServer) => void; postStatus?: number; postBody?: string } = {}): Promise<SseServer> {
  let stream: http.ServerResponse | undefined;
  const seen: Seen[] = [];
  const listener = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      seen.push({ method: req.method ?? "", path, body });
      if (req.method === "GET" && path === "/sse") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.flushHeaders();
        stream = res;
        (options.onGet ?? ((s) => s.event("endpoint", "/messages?sessionId=abc")))(server);
        return;
      }
      if (req.method === "POST" && path === "/messages") {
        res.writeHead(202).end("Accepted");
        const message = JSON.parse(body) as { id?: unknown; method?: string };
        if (message.method === "initialize") {
          server.push({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: "sse", version: "1" } } });
        } else if (message.method === "ping") server.push({ jsonrpc: "2.0", id: message.id, result: {} });
        else if (message.method === "tools/call" && (message as { params?: { name?: string } }).params?.name !== "hang") {
          server.push({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "over sse" }] } });
        }
        return;
      }
      res.writeHead(options.postStatus ?? 404, options.postBody === undefined ? {} : { "content-type": "application/json" }).end(options.postBody ?? "not here");
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const port = (listener.address() as { port: number }).port;
  const server: SseServer = {
    url: `http://127.0.0.1:${port}/sse`,
    origin: `http://127.0.0.1:${port}`,
    seen,
    push: (message) => stream?.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`),
    event: (name, data) => stream?.write(`event: ${name}\ndata: ${data}\n\n`),
    endStream: () => stream?.end(),
    close: () =>
      new Promise<void>((resolve) => {
        stream?.destroy();
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
  return track(server);
}

const client = () => track(new Client({ name: "host", version: "1", logger: capturingLogger() }));

describe("the fallback from Streamable HTTP", () => {
  it.each([400, 404, 405])("after a %i to the POST of initialize, speaks HTTP+SSE on the same URL", async (status) => {
    const srv = await sseServer({ postStatus: status });
    const server = await client().connect("old", { url: srv.url });
    expect(server.protocolVersion).toBe("2024-11-05");
    expect((await server.callTool("t")).content).toEqual([{ type: "text", text: "over sse" }]);
    // The era probe, the POST of initialize, then the stream and its endpoint.
    expect(srv.seen.slice(0, 4).map((r) => `${r.method} ${r.path}`)).toEqual(["POST /sse", "POST /sse", "GET /sse", "POST /messages"]);
    expect(JSON.parse(srv.seen[3]!.body)).toMatchObject({ method: "initialize" });
  });

  it("is not taken after a 400 whose body is a JSON-RPC error: that URL does speak JSON-RPC over POST", async () => {
    const srv = await sseServer({ postStatus: 400, postBody: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Bad" } }) });
    const error = await client().connect("old", { url: srv.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(srv.seen.some((r) => r.method === "GET")).toBe(false);
  });

  it("fails naming both transports when the stream ends before its endpoint", async () => {
    const srv = await sseServer({ onGet: (s) => s.endStream() });
    const error = await client().connect("old", { url: srv.url }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport" });
    expect((error as Error).message).toContain("HTTP+SSE");
  });

  it("ends at the connect's timeout when the endpoint never comes", async () => {
    const srv = await sseServer({ onGet: () => {} });
    const error = await client().connect("old", { url: srv.url }, { connectTimeout: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout" });
  });

  it("is not taken after a 401: that asks for authorisation, not another transport", async () => {
    const srv = await sseServer({ postStatus: 401 });
    const error = await client().connect("old", { url: srv.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(srv.seen.some((r) => r.method === "GET")).toBe(false);
  });
});

describe('transport: "sse"', () => {
  it("with a modern pin is refused before anything is sent", async () => {
    const srv = await sseServer();
    const error = await client().connect("old", { url: srv.url, transport: "sse" }, { protocolVersion: "2026-07-28" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "usage" });
    expect(srv.seen).toEqual([]);
  });

  it("opens the stream first: no POST to the stream's URL", async () => {
    const srv = await sseServer();
    const server = await client().connect("old", { url: srv.url, transport: "sse" });
    await server.ping();
    expect(srv.seen[0]).toMatchObject({ method: "GET", path: "/sse" });
    expect(srv.seen.filter((r) => r.path === "/sse" && r.method === "POST")).toEqual([]);
  });

  it("ends a call the server never answers at its timeout, tells the server, and goes on", async () => {
    const srv = await sseServer();
    const server = await client().connect("old", { url: srv.url, transport: "sse" });
    const error = await server.callTool("hang", {}, { timeout: 200 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout" });
    const call = srv.seen.map((r) => JSON.parse(r.body || "{}") as { id?: unknown; method?: string }).find((m) => m.method === "tools/call");
    await expect.poll(() => srv.seen.some((r) => r.body.includes("notifications/cancelled") && r.body.includes(`"requestId":${JSON.stringify(call?.id)}`))).toBe(true);
    expect((await server.callTool("t")).content).toEqual([{ type: "text", text: "over sse" }]);
  });
});

describe("a server that breaks the transport's rules", () => {
  it("naming an endpoint on another origin is refused: nothing is POSTed there", async () => {
    const elsewhere = await sseServer();
    const srv = await sseServer({ onGet: (s) => s.event("endpoint", `${elsewhere.origin}/messages?sessionId=x`) });
    const error = await client().connect("old", { url: srv.url, transport: "sse" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport" });
    expect((error as Error).message).toContain("another origin");
    expect(elsewhere.seen).toEqual([]);
  });

  it("whose endpoint never comes: the connect ends at its timeout", async () => {
    const srv = await sseServer({ onGet: () => {} });
    const error = await client().connect("old", { url: srv.url, transport: "sse" }, { connectTimeout: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout" });
  });

  it("whose stream closes after the endpoint: the connection ends, and its calls with it", async () => {
    const srv = await sseServer();
    const server = await client().connect("old", { url: srv.url, transport: "sse" });
    const pending = server.callTool("hang").catch((e: unknown) => e);
    // The call's POST was taken (a round trip on the stream after it) before the stream ends.
    await server.ping();
    srv.endStream();
    expect(await pending).toMatchObject({ kind: "transport" });
    expect(await server.closed).toMatchObject({ kind: "transport" });
    await expect(server.callTool("t")).rejects.toMatchObject({ kind: "closed" });
  });

  it("that names a second endpoint: its session changed, and the connection ends", async () => {
    const srv = await sseServer();
    const server = await client().connect("old", { url: srv.url, transport: "sse" });
    srv.event("endpoint", "/messages?sessionId=other");
    const ended = await server.closed;
    expect(ended).toMatchObject({ kind: "transport" });
    expect(ended!.message).toContain("second endpoint");
  });
});
