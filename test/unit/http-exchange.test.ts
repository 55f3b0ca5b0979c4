// The node:http exchange on a real socket: a response whose ticket was cancelled before its body
// was consumed (the call was given up while its reply was being opened) still lets `consume()`
// settle, however late it is called. A consume that waits for events already past would hang
// the reader of that reply for ever.
//
// And the keep-alive race: a server that destroys a pooled socket as the next request arrives
// on it. A request still being written then is sent again, once, on a socket of its own (the
// server cannot have had all of it); one that was all written fails alone and is never sent
// again (the server may have acted on it); nor is one given up, answered meanwhile, or sent
// again this way before; and what an injected fetch fails is never sent again.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { CancelledExchange, Ticket, fetchExchange, type Exchange } from "../../src/transport/http-exchange.js";
import { HttpAgents } from "../../src/node/http-agents.js";
import { deferred, withTimeout } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

/** A server whose every reply is an event stream that sends its headers and nothing more. */
async function silentStream(): Promise<{ url: URL; requestClosed: Promise<void> }> {
  const closed = deferred<void>();
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.flushHeaders();
    req.once("close", () => closed.resolve());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  track({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), requestClosed: closed.promise };
}

describe("node:http exchange", () => {
  it("lets consume() settle on a response whose ticket was cancelled before it was consumed", async () => {
    const { url, requestClosed } = await silentStream();
    const agents = new HttpAgents();
    track({ close: () => Promise.resolve(agents.destroy()) });
    const ticket = new Ticket();
    const response = await agents.exchange.send({ method: "POST", url, headers: { "content-type": "application/json" }, body: "{}", ticket });
    expect(response.status).toBe(200);
    ticket.cancel();
    // The server saw the connection go: the client's side of it is long closed by now.
    await requestClosed;
    // Settling either way is what is asked: the reader learns the body will not come.
    const settled = response.consume(() => {}).then(
      () => true,
      () => true,
    );
    expect(await withTimeout(settled, 5000, "consume() to settle")).toBe(true);
  });
});

/**
 * A keep-alive server that destroys a socket as soon as a second request arrives on it (its
 * headers are read, its body not): the server, not timing, decides which request meets the
 * race. Every other request is read to its end and answered with the length of its body.
 */
interface StalingServer {
  url: URL;
  /** The body lengths of the requests read to their end and answered, in order. */
  served: number[];
  /** The `Connection` header of each of those. */
  connections: string[];
  /** Requests whose socket was destroyed as they arrived. */
  kills: number;
  /** Runs as a request is about to be killed. */
  onKill: (() => void) | undefined;
}

async function stalingServer(): Promise<StalingServer> {
  const requestsOn = new WeakMap<Socket, number>();
  const state: StalingServer = { url: new URL("http://x"), served: [], connections: [], kills: 0, onKill: undefined };
  const server = http.createServer((req, res) => {
    const before = requestsOn.get(req.socket) ?? 0;
    requestsOn.set(req.socket, before + 1);
    if (before > 0) {
      state.kills += 1;
      state.onKill?.();
      req.socket.destroy();
      return;
    }
    let length = 0;
    req.on("data", (chunk: Buffer) => (length += chunk.length));
    req.on("end", () => {
      state.served.push(length);
      state.connections.push(req.headers.connection ?? "");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  track({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  const { port } = server.address() as AddressInfo;
  state.url = new URL(`http://127.0.0.1:${port}/mcp`);
  return state;
}

/**
 * A body far larger than what the loopback's kernel buffers take in (some 4 MiB here): when the
 * server destroys the socket on its headers, most of it is still in the client's hands.
 */
const UNFINISHED_BODY = "x".repeat(16 * 1024 * 1024);

function nodeExchange(): Exchange {
  const agents = new HttpAgents();
  track({ close: () => Promise.resolve(agents.destroy()) });
  return agents.exchange;
}

async function post(exchange: Exchange, url: URL, body: string, ticket = new Ticket()): Promise<number> {
  const response = await exchange.send({ method: "POST", url, headers: { "content-type": "application/json" }, body, ticket });
  let text = "";
  await response.consume((chunk) => (text += new TextDecoder().decode(chunk)));
  return (JSON.parse(text) as { length: number }).length;
}

describe("node:http exchange, a pooled socket destroyed as it is reused", () => {
  it("sends a request again, once, on a socket of its own, when the socket broke while the request was still being written", async () => {
    const server = await stalingServer();
    const exchange = nodeExchange();
    expect(await post(exchange, server.url, "{}")).toBe(2);
    const ticket = new Ticket();
    expect(await post(exchange, server.url, UNFINISHED_BODY, ticket)).toBe(UNFINISHED_BODY.length);
    expect(server.kills).toBe(1);
    // Read once, whole, on a socket that is not pooled (and so not met by the race again).
    expect(server.served).toEqual([2, UNFINISHED_BODY.length]);
    expect(server.connections).toEqual(["keep-alive", "close"]);
    expect(ticket.resentUnsent).toBe(true);
  });

  it("does not send again a request that was all written when its socket broke: it fails alone, with the reset", async () => {
    const server = await stalingServer();
    const exchange = nodeExchange();
    expect(await post(exchange, server.url, "{}")).toBe(2);
    const error = await post(exchange, server.url, '{"a":1}').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ECONNRESET" });
    // The next request goes on a new socket; it is the only other one the server saw.
    expect(await post(exchange, server.url, "[]")).toBe(2);
    expect(server.kills).toBe(1);
    expect(server.served).toEqual([2, 2]);
  });

  it("does not send again a request answered meanwhile, given up, or already sent again once", async () => {
    const server = await stalingServer();
    const exchange = nodeExchange();
    // Leaves one answered socket in the pool for the next request to meet the race on.
    const warm = async (): Promise<void> => void expect(await post(exchange, server.url, "{}")).toBe(2);
    const reset = { code: expect.stringMatching(/^(ECONNRESET|EPIPE)$/) };

    await warm();
    const answered = new Ticket();
    server.onKill = () => (answered.answered = true);
    expect(await post(exchange, server.url, UNFINISHED_BODY, answered).catch((e: unknown) => e)).toMatchObject(reset);

    await warm();
    const givenUp = new Ticket();
    server.onKill = () => givenUp.cancel();
    expect(await post(exchange, server.url, UNFINISHED_BODY, givenUp).catch((e: unknown) => e)).toBeInstanceOf(CancelledExchange);

    // One message, sent twice by the transport (as a 429's retry or a session's renewal would):
    // the first meets the race and goes again; the second is not sent a third time.
    server.onKill = undefined;
    const once = new Ticket();
    await warm();
    expect(await post(exchange, server.url, UNFINISHED_BODY, once)).toBe(UNFINISHED_BODY.length);
    await warm();
    expect(await post(exchange, server.url, UNFINISHED_BODY, once).catch((e: unknown) => e)).toMatchObject(reset);

    expect(server.kills).toBe(4);
    expect(server.served).toEqual([2, 2, 2, UNFINISHED_BODY.length, 2]);
  });

  it("never sends again what an injected fetch failed", async () => {
    const server = await stalingServer();
    const exchange = fetchExchange(globalThis.fetch);
    // Which request undici puts on a pooled socket is its own choice: send until one meets the race.
    let sent = 0;
    const failures: unknown[] = [];
    while (failures.length === 0 && sent < 10) {
      sent += 1;
      await post(exchange, server.url, sent % 2 === 0 ? UNFINISHED_BODY : "{}").catch((e: unknown) => failures.push(e));
    }
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(TypeError);
    // A round trip on a new socket: a second copy, had one been sent, came before it.
    sent += 1;
    await post(exchange, server.url, "[]");
    // Each request the client sent reached the server once: read and answered, or killed.
    expect(server.kills).toBe(1);
    expect(server.served.length + server.kills).toBe(sent);
  });
});
