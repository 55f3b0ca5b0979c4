// HTTP abuse: what a broken or malicious server may do with HTTP itself rather than with the
// JSON-RPC it carries — error statuses and error pages, "come back later", redirects elsewhere,
// streams that trickle or never end, the wrong content type, a session id no header may hold,
// a socket that never answers. Each case runs over Streamable HTTP and, where it applies, the
// HTTP+SSE transport, against scripted servers on real sockets; each asserts the exact outcome,
// that no rejection went unhandled, and that the client still answers afterwards, on the same
// server when it should survive, or on another server of the same Client.
import net from "node:net";
import type { ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { MAX_RETRIES, MAX_RETRY_AFTER_MS } from "../../src/transport/http-retry.js";
import { MAX_SESSION_ID_CHARS } from "../../src/transport/http-session.js";
import { NEXT, startSse, type RecordedRequest } from "../helpers/raw-http.js";
import { failure, onMethod, sendStatus } from "../helpers/http-requests.js";
import { initializeResult, responseFor, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import type { CapturingLogger } from "../helpers/logger.js";
import { count } from "./safety.js";
import { startOldHttp } from "./http-abuse-sse.js";
import { DEFAULT_MAX_MESSAGE_BYTES, MB, sampleMemory } from "./probe.js";
import {
  BOTH,
  HOST_HEADERS,
  HTML_PAGE,
  OLD,
  STREAMABLE,
  another,
  closedOf,
  done,
  logText,
  newClient,
  oldHttp,
  posts,
  pour,
  rawServer,
  settle,
  streamable,
  target,
  textResult,
  trickle,
  until,
} from "./http-abuse-setup.js";

const PAGE_BYTES = Buffer.byteLength(HTML_PAGE);

/** The parts of a recorded request that a retry must send again unchanged. */
const sent = (r: RecordedRequest) => ({ path: r.path, headers: r.headers, body: r.body });
/** Retry-After the tests send, in seconds: a short one honoured; the GET stream's. */
const RETRY_AFTER_S = 1;
const GET_RETRY_AFTER_S = 5;
/** A timer never fires early; a little slack for the clocks' rounding. */
const EARLY_SLACK_MS = 50;
/** The longest Retry-After a retry waits, in seconds, and the first past it. */
const MAX_RETRY_AFTER_S = MAX_RETRY_AFTER_MS / 1000;
/** A trickle writes a byte each this many ms: one a second on an event stream, ten in a body. */
const TRICKLE_EVERY_MS = 1_000;
const BODY_TRICKLE_EVERY_MS = 100;
/** The clock a given-up stream is watched for, and a session id far past the bound. */
const QUIET_MS = 60_000;
const HUGE_SESSION_ID = 100 * 1024;

describe("500s", () => {
  it("a 500 page to initialize fails the connect with \"transport\", the page named and not quoted", async (context) => {
    const srv = await rawServer();
    let broken = true;
    srv.route((req, res) => {
      if (!broken || posts([req], "initialize").length === 0) return NEXT;
      sendStatus(res, 500, "text/html", HTML_PAGE);
      return undefined;
    });
    const { client, logger } = newClient();
    const error = await failure(client.connect("raw", target(srv.url)));
    expect(error).toMatchObject({ kind: "transport", serverId: "raw", message: `${srv.url} answered HTTP 500 (an HTML page of ${PAGE_BYTES} bytes)` });
    expect(posts(srv.requests, "initialize")).toHaveLength(1);
    expect(logText(logger)).not.toContain("stack trace");
    // The id is free again, and the same server, mended, connects.
    broken = false;
    await (await client.connect("raw", target(srv.url))).ping();

    const sse = await startOldHttp();
    sse.onPost("initialize", (_req, res) => sendStatus(res, 500, "text/html", HTML_PAGE));
    const oldError = await failure(client.connect("old", target(sse.url, {}, "sse")));
    expect(oldError).toMatchObject({ kind: "transport", serverId: "old", message: `${sse.endpoint} answered HTTP 500 (an HTML page of ${PAGE_BYTES} bytes)` });
    expect(sse.posts("initialize")).toHaveLength(1);
    await another(client);
    await done(context, {
      tried: "HTTP 500 with an HTML error page to `initialize`",
      over: BOTH,
      outcome: '`connect` fails with `"transport"` naming the URL, the status and the page\'s size, never its text; sent once; the id is free and the client connects again',
    });
  });

  it("a 500 page to a tools/call fails that call alone, sent once; the server answers on", async (context) => {
    const { srv, server, logger } = await streamable();
    srv.route(onMethod("tools/call", (_req, res) => sendStatus(res, 500, "text/html", HTML_PAGE)));
    const outcome = await settle(server.callTool("t", {}));
    expect(outcome.error).toMatchObject({ kind: "transport", serverId: "raw", message: `${srv.url} answered HTTP 500 (an HTML page of ${PAGE_BYTES} bytes)`, data: { status: 500 } });
    expect(posts(srv.requests, "tools/call")).toHaveLength(1);
    await server.ping();

    const old = await oldHttp();
    old.srv.onPost("tools/call", (_req, res) => sendStatus(res, 500, "text/html", HTML_PAGE));
    const oldOutcome = await settle(old.server.callTool("t", {}));
    expect(oldOutcome.error).toMatchObject({ kind: "transport", serverId: "old", message: `${old.srv.endpoint} answered HTTP 500 (an HTML page of ${PAGE_BYTES} bytes)` });
    expect(old.srv.posts("tools/call")).toHaveLength(1);
    await old.server.ping();
    expect(logText(logger) + logText(old.logger)).not.toContain("stack trace");
    await done(context, {
      tried: "HTTP 500 with an HTML error page to a `tools/call`",
      over: BOTH,
      outcome: 'that call fails with `"transport"` (status, URL, page size), sent once, never again; the connection goes on',
    });
  });

  it("a 500 page to a notification's POST is logged without the page; the server answers on", async (context) => {
    const { srv, server, logger } = await streamable({ roots: true });
    srv.route(onMethod("notifications/roots/list_changed", (_req, res) => sendStatus(res, 500, "text/html", HTML_PAGE)));
    server.notifyRootsChanged();
    await srv.nextRequest("notifications/roots/list_changed");
    await vi.waitFor(() => expect(logger.warnings("not delivered")).toHaveLength(1));
    const entry = logger.entries.find((e) => e.message.includes("not delivered"));
    expect(entry?.fields?.["error"]).toMatchObject({ kind: "transport", message: `${srv.url} answered HTTP 500 (an HTML page of ${PAGE_BYTES} bytes)` });
    await server.ping();

    const old = await oldHttp({ roots: true });
    old.srv.onPost("notifications/roots/list_changed", (_req, res) => sendStatus(res, 500, "text/html", HTML_PAGE));
    old.server.notifyRootsChanged();
    await old.srv.raw.nextRequest("notifications/roots/list_changed");
    await vi.waitFor(() => expect(old.logger.warnings("not delivered")).toHaveLength(1));
    await old.server.ping();
    expect(logText(logger) + logText(old.logger)).not.toContain("stack trace");
    await done(context, {
      tried: "HTTP 500 with an HTML error page to a notification's POST",
      over: BOTH,
      outcome: "one warning naming the status and the page's size, not its text; the connection goes on",
    });
  });
});

/** A route that answers the first `times` POSTs of `method` with `status` and these headers. */
function refuse(method: string, times: number, status: number, headers: () => Record<string, string>) {
  let left = times;
  return (req: RecordedRequest, res: ServerResponse) => {
    if (left === 0 || posts([req], method).length === 0) return NEXT;
    left -= 1;
    res.writeHead(status, { "content-type": "text/plain", ...headers() }).end("slow down");
    return undefined;
  };
}

describe("429 and 503 with Retry-After", () => {
  it("sends a tools/call answered 429 again after Retry-After (seconds), the same body and headers", async (context) => {
    const { srv, server } = await streamable();
    srv.route(refuse("tools/call", 1, 429, () => ({ "retry-after": String(RETRY_AFTER_S) })));
    const started = performance.now();
    expect(await server.callTool("t", { n: 1 })).toEqual(textResult("fine"));
    const calls = posts(srv.requests, "tools/call");
    expect(calls).toHaveLength(2);
    expect(sent(calls[1]!)).toEqual(sent(calls[0]!));
    expect(calls[0]!.headers).toMatchObject({ ...HOST_HEADERS, "mcp-session-id": "s-1" });
    // The wait was honoured (a lower bound only: a timer never fires early).
    expect(performance.now() - started).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - EARLY_SLACK_MS);

    const old = await oldHttp();
    old.srv.raw.route(refuse("tools/call", 1, 429, () => ({ "retry-after": String(RETRY_AFTER_S) })));
    expect(await old.server.callTool("t", { n: 1 })).toEqual(textResult("over sse"));
    const oldCalls = old.srv.posts("tools/call");
    expect(oldCalls).toHaveLength(2);
    expect(sent(oldCalls[1]!)).toEqual(sent(oldCalls[0]!));
    await done(context, {
      tried: `HTTP 429 with \`Retry-After: ${RETRY_AFTER_S}\` to a \`tools/call\``,
      over: BOTH,
      outcome: "sent again after the delay, the same body and headers, once; the call succeeds",
    });
  });

  it("takes Retry-After as an HTTP-date, against the response's own Date, and a date past as now", async (context) => {
    const { srv, server } = await streamable();
    // The server's clock is ahead: its Date is the reference, not the client's clock.
    const SKEW_MS = 60_000;
    const AHEAD_MS = 1_000;
    const PAST = "Sunday, 06-Nov-94 08:49:37 GMT";
    const skewed = Date.now() + SKEW_MS;
    srv.route(refuse("tools/call", 1, 429, () => ({ date: new Date(skewed).toUTCString(), "retry-after": new Date(skewed + AHEAD_MS).toUTCString() })));
    const started = performance.now();
    expect(await server.callTool("t", {})).toEqual(textResult("fine"));
    expect(performance.now() - started).toBeGreaterThanOrEqual(AHEAD_MS - EARLY_SLACK_MS);
    expect(posts(srv.requests, "tools/call")).toHaveLength(2);
    srv.route(refuse("tools/call", 1, 503, () => ({ "retry-after": PAST })));
    expect(await server.callTool("t", {})).toEqual(textResult("fine"));
    expect(posts(srv.requests, "tools/call")).toHaveLength(4);
    await done(context, {
      tried: `HTTP 429 and 503 with \`Retry-After\` as an HTTP-date (${count(AHEAD_MS / 1000)} s ahead of the response's \`Date\`, which is ${count(SKEW_MS / 1000)} s off; \`${PAST}\`)`,
      over: STREAMABLE,
      outcome: "the delay is the date less the response's own `Date`; a date past is sent again at once",
    });
  });

  it("sends initialize and a notification answered 429 or 503 again; a call at most 3 times again", async (context) => {
    const srv = await rawServer();
    srv.route(refuse("initialize", 1, 503, () => ({ "retry-after": "0" })));
    srv.route(refuse("notifications/initialized", 1, 429, () => ({ "retry-after": "0" })));
    const { client } = newClient();
    const server = await client.connect("raw", target(srv.url));
    const inits = posts(srv.requests, "initialize");
    expect(inits).toHaveLength(2);
    expect(sent(inits[1]!)).toEqual(sent(inits[0]!));
    await until(() => posts(srv.requests, "notifications/initialized").length === 2, "initialized sent again");
    const notes = posts(srv.requests, "notifications/initialized");
    expect(sent(notes[1]!)).toEqual(sent(notes[0]!));
    await server.ping();

    srv.route(refuse("tools/call", Infinity, 429, () => ({ "retry-after": "0" })));
    const outcome = await settle(server.callTool("t", {}));
    expect(outcome.error).toMatchObject({
      kind: "transport",
      serverId: "raw",
      message: `${srv.url} answered HTTP 429: slow down; the same after ${MAX_RETRIES} retries: not sent again`,
      data: { status: 429, retryAfterMs: 0 },
    });
    expect(posts(srv.requests, "tools/call")).toHaveLength(1 + MAX_RETRIES);
    await server.ping();
    await done(context, {
      tried: "HTTP 503 to `initialize`, 429 to `notifications/initialized`, then 429 to every `tools/call`, each with `Retry-After: 0`",
      over: STREAMABLE,
      outcome: `the connect and the notification succeed, sent again once each; the call fails with \`"transport"\` after ${MAX_RETRIES} retries (${1 + MAX_RETRIES} POSTs); the connection goes on`,
    });
  });

  it("fails at once, sent once, without a usable Retry-After, past the 10 s bound, or past the call's timeout", async (context) => {
    const { srv, server } = await streamable();
    const cases: Array<[status: number, headers: Record<string, string>, timeout: number | undefined, message: string | RegExp]> = [
      [429, {}, undefined, "answered HTTP 429: slow down; no usable Retry-After: not sent again"],
      [503, {}, undefined, "answered HTTP 503: slow down; no usable Retry-After: not sent again"],
      [429, { "retry-after": "soon" }, undefined, "answered HTTP 429: slow down; no usable Retry-After: not sent again"],
      [429, { "retry-after": "1.5" }, undefined, "answered HTTP 429: slow down; no usable Retry-After: not sent again"],
      [429, { "retry-after": "-1" }, undefined, "answered HTTP 429: slow down; no usable Retry-After: not sent again"],
      [429, { "retry-after": String(MAX_RETRY_AFTER_S + 1) }, undefined, `answered HTTP 429: slow down; Retry-After ${MAX_RETRY_AFTER_S + 1} s is more than the ${MAX_RETRY_AFTER_S} s a retry waits: not sent again`],
      [503, { "retry-after": "86400" }, undefined, `answered HTTP 503: slow down; Retry-After 86400 s is more than the ${MAX_RETRY_AFTER_S} s a retry waits: not sent again`],
      [429, { "retry-after": "99999999999999999999999" }, undefined, new RegExp(`Retry-After 1e\\+23 s is more than the ${MAX_RETRY_AFTER_S} s a retry waits: not sent again$`)],
      [429, { "retry-after": "5" }, 2_000, /answered HTTP 429: slow down; Retry-After 5 s is more than the (1\d{3}|2000) ms left for the request: not sent again$/],
    ];
    let sentSoFar = 0;
    for (const [status, headers, timeout, message] of cases) {
      const off = srv.route(refuse("tools/call", 1, status, () => headers));
      const outcome = await settle(server.callTool("t", {}, timeout === undefined ? undefined : { timeout }));
      off();
      expect(outcome.error).toMatchObject({ kind: "transport", serverId: "raw", message: typeof message === "string" ? `${srv.url} ${message}` : expect.stringMatching(message), data: { status } });
      sentSoFar += 1;
      expect(posts(srv.requests, "tools/call")).toHaveLength(sentSoFar);
    }
    await server.ping();

    const old = await oldHttp();
    old.srv.raw.route(refuse("tools/call", 1, 429, () => ({ "retry-after": "30" })));
    const oldOutcome = await settle(old.server.callTool("t", {}));
    expect(oldOutcome.error).toMatchObject({ kind: "transport", serverId: "old", message: `${old.srv.endpoint} answered HTTP 429: slow down; Retry-After 30 s is more than the ${MAX_RETRY_AFTER_S} s a retry waits: not sent again` });
    expect(old.srv.posts("tools/call")).toHaveLength(1);
    await old.server.ping();

    // The client's own timeout counts as the call's when the call names none.
    const short = await streamable({ requestTimeout: 2_000 });
    short.srv.route(refuse("tools/call", 1, 429, () => ({ "retry-after": "5" })));
    const shortOutcome = await settle(short.server.callTool("t", {}));
    expect(shortOutcome.error).toMatchObject({ kind: "transport", message: expect.stringMatching(/Retry-After 5 s is more than the (1\d{3}|2000) ms left for the request: not sent again$/) });
    expect(posts(short.srv.requests, "tools/call")).toHaveLength(1);
    await done(context, {
      tried: `HTTP 429 or 503 without \`Retry-After\`, with one that is no number or date, one past ${MAX_RETRY_AFTER_S} s, one past the call's timeout (its own or the client's \`requestTimeout\`)`,
      over: BOTH,
      outcome: 'the call fails at once with `"transport"` naming the status and the delay, sent once; the connection goes on',
    });
  });

  it("waits a Retry-After of 10 s on a fake clock, and not a moment less", async (context) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { srv, server } = await streamable();
    srv.route(refuse("tools/call", 1, 429, () => ({ "retry-after": String(MAX_RETRY_AFTER_S) })));
    const call = settle(server.callTool("t", {}));
    await srv.nextRequest("tools/call");
    const from = performance.now();
    // The clock moves in steps of 100 ms while the event loop turns: the POST comes again once
    // 10 s passed since the 429 arrived (steps taken before it count for nothing).
    while (posts(srv.requests, "tools/call").length < 2 && performance.now() - from < 20_000) {
      await vi.advanceTimersByTimeAsync(100);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const waited = performance.now() - from;
    expect(posts(srv.requests, "tools/call")).toHaveLength(2);
    expect(waited).toBeGreaterThanOrEqual(MAX_RETRY_AFTER_MS);
    expect(await call).toEqual({ value: textResult("fine") });
    await done(context, {
      tried: `HTTP 429 with \`Retry-After: ${MAX_RETRY_AFTER_S}\``,
      over: STREAMABLE,
      outcome: `sent again after ${MAX_RETRY_AFTER_S} s of the clock and not before; ${MAX_RETRY_AFTER_S + 1} s is refused at once (above)`,
    });
  });
});

describe("429 and 503 to the standalone GET stream", () => {
  it("asks again after the Retry-After (5 s here), not after the backoff's first second", async (context) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const srv = await rawServer({ getStream: true });
    let turnedAway = 0;
    srv.route((req, res) => {
      if (req.method !== "GET" || turnedAway > 0) return NEXT;
      turnedAway += 1;
      res.writeHead(429, { "content-type": "text/plain", "retry-after": String(GET_RETRY_AFTER_S) }).end("slow down");
      return undefined;
    });
    const { client } = newClient();
    const server = await client.connect("raw", target(srv.url));
    const gets = () => srv.requests.filter((req) => req.method === "GET").length;
    while (gets() < 1) await new Promise<void>((resolve) => setImmediate(resolve));
    const from = performance.now();
    // The clock moves in steps of 100 ms while the event loop turns, until the GET comes again.
    while (gets() < 2 && performance.now() - from < 20_000) {
      await vi.advanceTimersByTimeAsync(100);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(gets()).toBe(2);
    expect(performance.now() - from).toBeGreaterThanOrEqual(GET_RETRY_AFTER_S * 1000);
    await server.ping();
    await done(context, {
      tried: `HTTP 429 with \`Retry-After: ${GET_RETRY_AFTER_S}\` to the standalone GET stream`,
      over: STREAMABLE,
      outcome: `the stream is asked for again after ${GET_RETRY_AFTER_S} s of the clock, not at the backoff's first second; calls go on`,
    });
  });
});

describe.each(["node:http", "fetch"] as const)("a redirect to another origin (%s)", (backend) => {
  it("is followed by nothing of the host's: no header, session or body reaches the other origin", async (context) => {
    const elsewhere = await rawServer();
    const away = (status: number) => (_req: RecordedRequest, res: ServerResponse) => void res.writeHead(status, { location: `${elsewhere.url}?from=raw` }).end();
    // The standalone GET stream, a call, a notification: each redirected elsewhere.
    const srv = await rawServer({ getStream: true });
    srv.route((req, res) => (req.method === "GET" ? away(307)(req, res) : NEXT));
    const { client, logger } = newClient({ roots: true });
    const server = await client.connect("raw", target(srv.url, { backend }));
    await srv.nextRequest("GET");
    srv.route(onMethod("tools/call", away(307)));
    srv.route(onMethod("notifications/roots/list_changed", away(308)));
    const outcome = await settle(server.callTool("transfer", { amount: 100 }));
    expect(outcome.error).toMatchObject({ kind: "transport", serverId: "raw", message: `${srv.url} redirected to another origin (${elsewhere.url}?from=raw); not followed` });
    server.notifyRootsChanged();
    await srv.nextRequest("notifications/roots/list_changed");
    await vi.waitFor(() => expect(logger.warnings("not delivered")).toHaveLength(1));
    // What went to the redirecting server carried them all: what did not go elsewhere was there to go.
    const call = posts(srv.requests, "tools/call")[0]!;
    expect(call.headers).toMatchObject({ ...HOST_HEADERS, "mcp-session-id": "s-1" });
    expect(call.body).toContain("transfer");
    expect(srv.requests.find((r) => r.method === "GET")?.headers).toMatchObject({ ...HOST_HEADERS, "mcp-session-id": "s-1" });
    await server.ping();

    const redirecting = await rawServer();
    redirecting.route((req, res) => void res.writeHead(req.method === "GET" ? 308 : 307, { location: elsewhere.url }).end());
    const error = await failure(client.connect("redirecting", target(redirecting.url, { backend })));
    expect(error).toMatchObject({ kind: "transport", message: `${redirecting.url} redirected to another origin (${elsewhere.url}); not followed` });

    const old = await oldHttp({ backend });
    old.srv.onPost("tools/call", away(307));
    const oldOutcome = await settle(old.server.callTool("transfer", { amount: 100 }));
    expect(oldOutcome.error).toMatchObject({ kind: "transport", serverId: "old", message: `${old.srv.endpoint} redirected to another origin (${elsewhere.url}?from=raw); not followed` });
    await old.server.ping();
    const oldRedirecting = await startOldHttp();
    oldRedirecting.onGet((_req, res) => void res.writeHead(307, { location: elsewhere.url }).end());
    const oldError = await failure(client.connect("old-redirecting", target(oldRedirecting.url, { backend }, "sse")));
    expect(oldError).toMatchObject({ kind: "transport", serverId: "old-redirecting", message: `${oldRedirecting.url} redirected to another origin (${elsewhere.url}); not followed` });

    expect(elsewhere.requests).toEqual([]);
    await another(client);
    await done(context, {
      tried: `307 and 308 to another origin (${backend}): to a connect's first POST, a \`tools/call\`, a notification, the GET streams, with an \`Authorization\` header and a session in play`,
      over: BOTH,
      outcome: 'not followed: the other origin receives no request at all; `"transport"` naming the URL that redirected; the connection goes on',
    });
  });
});

const TRICKLE_TIMEOUT_MS = 1_500;

describe("an event stream that trickles a byte a second", () => {
  it("ends the call at its timeout, lets go of the stream, and the connection answers on", async (context) => {
    const { srv, server } = await streamable();
    let stream: ServerResponse | undefined;
    srv.route(
      onMethod("tools/call", (req, res) => {
        stream = res;
        startSse(res);
        const id = (req.json as { id: number }).id;
        trickle(res, `data: ${JSON.stringify({ jsonrpc: "2.0", id, result: textResult("late") })}\n\n`, TRICKLE_EVERY_MS);
      }),
    );
    const outcome = await settle(server.callTool("t", {}, { timeout: TRICKLE_TIMEOUT_MS }));
    expect(outcome.error).toMatchObject({ kind: "timeout", serverId: "raw", message: `tools/call timed out after ${TRICKLE_TIMEOUT_MS} ms (timeout)` });
    await closedOf(stream!);
    const cancel = await srv.nextRequest("notifications/cancelled");
    expect(cancel.json).toMatchObject({ params: { requestId: expect.any(Number) } });
    await server.ping();

    const old = await oldHttp();
    let trickling: { stop(): void } | undefined;
    old.srv.onPost("tools/call", (req, res) => {
      res.writeHead(202).end();
      const id = (req.json as { id: number }).id;
      trickling = trickle(old.srv.stream!, `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: textResult("late") })}`, TRICKLE_EVERY_MS);
    });
    const oldOutcome = await settle(old.server.callTool("t", {}, { timeout: TRICKLE_TIMEOUT_MS }));
    expect(oldOutcome.error).toMatchObject({ kind: "timeout", serverId: "old", message: `tools/call timed out after ${TRICKLE_TIMEOUT_MS} ms (timeout)` });
    // The one stream carries everything: once the server ends the event, the rest flows again.
    trickling!.stop();
    old.srv.stream!.write("\n\n");
    await old.srv.raw.nextRequest("notifications/cancelled");
    await old.server.ping();
    await done(context, {
      tried: `the answer to a \`tools/call\` written on its event stream a byte every ${count(TRICKLE_EVERY_MS)} ms`,
      over: BOTH,
      outcome: `the call ends at its timeout (${count(TRICKLE_TIMEOUT_MS)} ms) with \`"timeout"\`, \`notifications/cancelled\` sent; Streamable HTTP closes that stream; the connection goes on (HTTP+SSE: once the server ends the event)`,
    });
  });
});

describe("a server that takes the connection and never answers", () => {
  const CONNECT_TIMEOUT_MS = 1_500;

  async function silentServer(): Promise<{ url: string; sockets: net.Socket[]; allClosed(): Promise<void>; close(): Promise<void> }> {
    const sockets: net.Socket[] = [];
    const closed: Promise<void>[] = [];
    const listener = net.createServer((socket) => {
      sockets.push(socket);
      closed.push(new Promise((resolve) => socket.once("close", () => resolve())));
      socket.on("error", () => {});
      socket.on("data", () => {});
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as net.AddressInfo).port;
    return track({
      url: `http://127.0.0.1:${port}/mcp`,
      sockets,
      allClosed: async () => void (await Promise.all(closed)),
      close: () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          listener.close(() => resolve());
        }),
    });
  }

  it.for(["node:http", "fetch"] as const)("fails the connect at its timeout with \"timeout\" and closes the socket (%s)", async (backend, context) => {
    const { client } = newClient();
    const silent = await silentServer();
    const error = await failure(client.connect("silent", target(silent.url, { backend }), { connectTimeout: CONNECT_TIMEOUT_MS }));
    expect(error).toMatchObject({ kind: "timeout", serverId: "silent", message: `connecting timed out after ${CONNECT_TIMEOUT_MS} ms` });
    expect(silent.sockets.length).toBeGreaterThanOrEqual(1);
    await silent.allClosed();

    const old = await silentServer();
    const oldError = await failure(client.connect("silent-old", target(old.url.replace(/mcp$/, "sse"), { backend }, "sse"), { connectTimeout: CONNECT_TIMEOUT_MS }));
    expect(oldError).toMatchObject({ kind: "timeout", serverId: "silent-old", message: `connecting timed out after ${CONNECT_TIMEOUT_MS} ms` });
    expect(old.sockets).toHaveLength(1);
    await old.allClosed();
    // Nothing of it is left: the ids are free, and the client connects elsewhere.
    await another(client, "silent");
    await done(context, {
      tried: `a TCP server that accepts, reads and never writes a byte (${backend})`,
      over: BOTH,
      outcome: `\`connect\` fails at \`connectTimeout\` (${count(CONNECT_TIMEOUT_MS)} ms) with \`"timeout"\`; every socket it opened is closed; the id is free`,
    });
  });
});

/** What a server pours past the bound, and the bound it meets (`maxMessageBytes` here). */
const POURED = 100 * MB;
const BOUND = MB;
const OVERSIZE = `an event-stream message exceeded maxMessageBytes (${BOUND} bytes)`;
const mib = (bytes: number): string => `${count(bytes / MB)} MiB`;
/** Generous: the client keeps at most maxMessageBytes of it, and the server in this process little. */
const MEMORY_BOUND_MB = 128;

/** What a pour past the bound must show: the rest unread, memory within the bound, nothing of it in the log. */
async function expectPouredUnread(poured: Promise<number> | undefined, memory: ReturnType<typeof sampleMemory>, logger: CapturingLogger): Promise<void> {
  expect(await poured).toBeLessThan(POURED);
  expect(memory.stop().rss / MB).toBeLessThan(MEMORY_BOUND_MB);
  expect(logText(logger)).not.toMatch(/x{64}/);
}

describe(`one event of ${mib(POURED)}`, () => {
  it("on a POST's event stream: the connection ends with \"transport\" at maxMessageBytes, memory bounded, nothing of it logged", async (context) => {
    const { srv, client, server, logger } = await streamable({ connect: { maxMessageBytes: BOUND } });
    let poured: Promise<number> | undefined;
    srv.route(
      onMethod("tools/call", (_req, res) => {
        startSse(res);
        res.write("data: ");
        poured = pour(res, POURED);
      }),
    );
    const memory = sampleMemory();
    const outcome = await settle(server.callTool("t", {}));
    expect(outcome.error).toMatchObject({ kind: "transport", serverId: "raw", message: OVERSIZE });
    expect(await server.closed).toMatchObject({ kind: "transport", message: OVERSIZE });
    await expectPouredUnread(poured, memory, logger);
    await another(client);
    await done(context, {
      tried: `one event of ${mib(POURED)} on the event stream of a \`tools/call\``,
      over: STREAMABLE,
      outcome: `the call and the connection end with \`"transport"\` at \`maxMessageBytes\` (${mib(BOUND)}), the rest unread; memory under ${MEMORY_BOUND_MB} MB; nothing of it logged`,
    });
  });

  it(`does the same at the default ${mib(DEFAULT_MAX_MESSAGE_BYTES)}`, async (context) => {
    const { srv, client, server } = await streamable();
    let poured: Promise<number> | undefined;
    srv.route(
      onMethod("tools/call", (_req, res) => {
        startSse(res);
        res.write("data: ");
        poured = pour(res, POURED);
      }),
    );
    const memory = sampleMemory();
    const message = "an event-stream message exceeded maxMessageBytes (67108864 bytes)";
    expect((await settle(server.callTool("t", {}))).error).toMatchObject({ kind: "transport", message });
    expect(await server.closed).toMatchObject({ kind: "transport", message });
    expect(await poured).toBeLessThan(POURED);
    expect(memory.stop().rss / MB).toBeLessThan(4 * MEMORY_BOUND_MB);
    await another(client);
    await done(context, {
      tried: "the same at the default `maxMessageBytes`",
      over: STREAMABLE,
      outcome: `the connection ends at ${mib(DEFAULT_MAX_MESSAGE_BYTES)}; memory under ${4 * MEMORY_BOUND_MB} MB`,
    });
  });

  it("on the standalone GET stream: the same", async (context) => {
    const srv = await rawServer({ getStream: true });
    let poured: Promise<number> | undefined;
    srv.route((req, res) => {
      if (req.method !== "GET") return NEXT;
      startSse(res);
      res.write("data: ");
      poured = pour(res, POURED);
      return undefined;
    });
    const { client, logger } = newClient();
    const memory = sampleMemory();
    const server = await client.connect("raw", target(srv.url), { maxMessageBytes: BOUND });
    expect(await server.closed).toMatchObject({ kind: "transport", message: OVERSIZE });
    await expectPouredUnread(poured, memory, logger);
    expect(srv.requests.filter((r) => r.method === "GET")).toHaveLength(1);
    await another(client);
    await done(context, {
      tried: `one event of ${mib(POURED)} on the standalone GET stream`,
      over: STREAMABLE,
      outcome: `the connection ends with \`"transport"\` at \`maxMessageBytes\` (${mib(BOUND)}), the stream not opened again; memory under ${MEMORY_BOUND_MB} MB; nothing of it logged`,
    });
  });

  it("on the HTTP+SSE stream: the same", async (context) => {
    const { srv, client, server, logger } = await oldHttp({ connect: { maxMessageBytes: BOUND } });
    const memory = sampleMemory();
    const call = settle(server.callTool("t", {}));
    srv.stream!.write("event: message\ndata: ");
    const poured = pour(srv.stream!, POURED);
    const ended = `the HTTP+SSE stream of ${srv.url} ended (${OVERSIZE})`;
    expect(await server.closed).toMatchObject({ kind: "transport", message: ended });
    expect((await call).error).toMatchObject({ kind: "transport", message: ended });
    await expectPouredUnread(poured, memory, logger);
    await another(client);
    await done(context, {
      tried: `one event of ${mib(POURED)} on the HTTP+SSE stream`,
      over: OLD,
      outcome: `the connection ends with \`"transport"\` at \`maxMessageBytes\` (${mib(BOUND)}), pending calls with it; memory under ${MEMORY_BOUND_MB} MB; nothing of it logged`,
    });
  });
});

const WRONG_TYPES = ["text/html", "text/plain", "application/octet-stream"] as const;

describe("a wrong content type", () => {
  it("to a request's POST fails that call with \"protocol\", the body unread; the server answers on", async (context) => {
    const { srv, server } = await streamable();
    for (const type of WRONG_TYPES) {
      const off = srv.route(onMethod("tools/call", (_req, res) => sendStatus(res, 200, type, type === "text/html" ? HTML_PAGE : "{}")));
      const outcome = await settle(server.callTool("t", {}));
      off();
      expect(outcome.error).toMatchObject({ kind: "protocol", serverId: "raw", message: `the server answered with Content-Type "${type}", expected JSON or an event stream` });
      await server.ping();
    }
    expect(posts(srv.requests, "tools/call")).toHaveLength(WRONG_TYPES.length);
    await done(context, {
      tried: `a 200 to a \`tools/call\` as ${WRONG_TYPES.map((t) => `\`${t}\``).join(", ")}`,
      over: STREAMABLE,
      outcome: 'the call fails with `"protocol"` naming the type; the body is not read; the connection goes on',
    });
  });

  it("to the GET of a stream: Streamable HTTP gives the stream up, HTTP+SSE fails the connect with \"protocol\"", async (context) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { client } = newClient();
    for (const type of WRONG_TYPES) {
      const srv = await rawServer({ getStream: true });
      srv.route((req, res) => (req.method === "GET" ? sendStatus(res, 200, type, "<html></html>") : NEXT));
      const { client: own, logger } = newClient();
      const server = await own.connect("raw", target(srv.url));
      await srv.nextRequest("GET");
      await until(() => logger.warnings("given up").length === 1, "given up");
      expect(logger.warnings("given up")).toEqual([`the standalone event stream is given up: ${srv.url} answered a GET for an event stream with Content-Type "${type}"`]);
      // Not asked again: a minute of the clock passes without another GET.
      for (let waited = 0; waited < QUIET_MS; waited += 1_000) {
        await vi.advanceTimersByTimeAsync(1_000);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      expect(srv.requests.filter((r) => r.method === "GET")).toHaveLength(1);
      await server.ping();

      const old = await startOldHttp();
      old.onGet((_req, res) => sendStatus(res, 200, type, "<html></html>"));
      const error = await failure(client.connect(`old-${type}`, target(old.url, {}, "sse")));
      expect(error).toMatchObject({ kind: "protocol", message: `the HTTP+SSE stream could not be opened: ${old.url} answered a GET for an event stream with Content-Type "${type}"` });
    }
    vi.useRealTimers();
    await another(client);
    await done(context, {
      tried: `a 200 to the GET of an event stream as ${WRONG_TYPES.map((t) => `\`${t}\``).join(", ")}`,
      over: BOTH,
      outcome: `Streamable HTTP: one warning naming the type, the stream not asked again (${count(QUIET_MS / 1000)} s of the clock), calls go on; HTTP+SSE: \`connect\` fails with \`"protocol"\` naming the type`,
    });
  });
});

/** Answers `initialize` with a session id of these bytes, written on the socket as they are (Node's server would refuse them). */
function mintRawSession(id: Buffer) {
  return (req: RecordedRequest, res: ServerResponse) => {
    if (posts([req], "initialize").length === 0) return NEXT;
    const message = req.json as RpcMessage;
    const body = JSON.stringify(responseFor(message.id, initializeResult(message)));
    const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\nmcp-session-id: `;
    res.socket!.end(Buffer.concat([Buffer.from(head, "latin1"), id, Buffer.from(`\r\n\r\n${body}`)]));
    return undefined;
  };
}

const MALFORMED_HTTP = /^http:\/\/127\.0\.0\.1:\d+\/mcp sent an HTTP reply that does not parse \((HPE|UND_ERR)_[A-Z_]+: .+\)$/;
const NOT_VISIBLE = "the server's Mcp-Session-Id has characters outside visible ASCII; refused";
const TOO_LONG = `the server's Mcp-Session-Id is longer than ${MAX_SESSION_ID_CHARS} characters; refused`;

type Backend = "node:http" | "fetch";
type Expected = string | RegExp;

const SESSION_IDS: Array<[name: string, id: Buffer, message: Expected | Record<Backend, Expected>]> = [
  ["CR", Buffer.from("s\r1"), MALFORMED_HTTP],
  ["LF", Buffer.from("s\n1"), MALFORMED_HTTP],
  // Node's parser refuses a folded header line; undici's joins it with a space.
  ["a folded line", Buffer.from("s\r\n 1"), { "node:http": MALFORMED_HTTP, fetch: NOT_VISIBLE }],
  ["NUL", Buffer.from("s\x001"), MALFORMED_HTTP],
  ["ESC", Buffer.from("s\x1b[31m1"), MALFORMED_HTTP],
  ["DEL", Buffer.from("s\x7f1"), MALFORMED_HTTP],
  ["TAB", Buffer.from("s\t1"), NOT_VISIBLE],
  ["space", Buffer.from("s 1"), NOT_VISIBLE],
  ["UTF-8 é", Buffer.from("sé1", "utf8"), NOT_VISIBLE],
  ["Latin-1 é", Buffer.from("sé1", "latin1"), NOT_VISIBLE],
  [`${count(MAX_SESSION_ID_CHARS + 1)} characters`, Buffer.from("s".repeat(MAX_SESSION_ID_CHARS + 1)), TOO_LONG],
  [`${count(HUGE_SESSION_ID / 1024)} KiB`, Buffer.from("s".repeat(HUGE_SESSION_ID)), MALFORMED_HTTP],
];

describe.each(["node:http", "fetch"] as const satisfies readonly Backend[])("a session id no header may hold (%s)", (backend) => {
  it("is refused at initialize with \"protocol\", never sent on, and the client connects again", async (context) => {
    const { client } = newClient();
    for (const [name, id, expected] of SESSION_IDS) {
      const message = typeof expected === "string" || expected instanceof RegExp ? expected : expected[backend];
      const srv = await rawServer();
      srv.route(mintRawSession(id));
      const error = await failure(client.connect("raw", target(srv.url, { backend })));
      expect({ name, kind: error.kind, serverId: error.serverId }).toEqual({ name, kind: "protocol", serverId: "raw" });
      if (typeof message === "string") expect(error.message, name).toBe(message);
      else expect(error.message, name).toMatch(message);
      // Nothing after initialize: no `initialized`, no DELETE of a session, no header carrying it.
      expect(srv.requests.map((r) => (r.json as { method?: string } | undefined)?.method ?? r.method), name).toEqual(["server/discover", "initialize"]);
      expect(srv.requests.filter((r) => "mcp-session-id" in r.headers), name).toEqual([]);
    }
    // The longest id taken: it goes back on every request.
    const longest = "s".repeat(MAX_SESSION_ID_CHARS);
    const srv = await rawServer();
    srv.route(mintRawSession(Buffer.from(longest)));
    srv.options.strictSession = false;
    const server = await client.connect("raw", target(srv.url, { backend }));
    await server.ping();
    expect(posts(srv.requests, "ping")[0]?.headers["mcp-session-id"]).toBe(longest);
    await another(client);
    await done(context, {
      tried: `an \`Mcp-Session-Id\` with CR, LF, a folded line, NUL, ESC, DEL, TAB, a space, non-ASCII (UTF-8, Latin-1), ${count(MAX_SESSION_ID_CHARS + 1)} characters, ${count(HUGE_SESSION_ID / 1024)} KiB (${backend})`,
      over: STREAMABLE,
      outcome: `\`connect\` fails with \`"protocol"\`: the id has characters outside visible ASCII or is longer than ${count(MAX_SESSION_ID_CHARS)} characters, or the reply does not parse as HTTP; nothing is sent after \`initialize\`; no exception from Node's header checks; an id of ${count(MAX_SESSION_ID_CHARS)} characters is taken`,
    });
  });
});

describe("a body that never ends", () => {
  it("as a JSON reply: the connection ends with \"transport\" at maxMessageBytes, memory bounded, nothing of it logged", async (context) => {
    const { srv, client, server, logger } = await streamable({ connect: { maxMessageBytes: BOUND } });
    let poured: Promise<number> | undefined;
    srv.route(
      onMethod("tools/call", (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"');
        poured = pour(res, POURED);
      }),
    );
    const memory = sampleMemory();
    const message = `a response body exceeded maxMessageBytes (${BOUND} bytes)`;
    expect((await settle(server.callTool("t", {}))).error).toMatchObject({ kind: "transport", serverId: "raw", message });
    expect(await server.closed).toMatchObject({ kind: "transport", message });
    await expectPouredUnread(poured, memory, logger);
    await another(client);
    await done(context, {
      tried: "a JSON reply to a `tools/call` that streams bytes without end",
      over: STREAMABLE,
      outcome: `the call and the connection end with \`"transport"\` at \`maxMessageBytes\` (${mib(BOUND)}), the rest unread; memory under ${MEMORY_BOUND_MB} MB; nothing of it logged`,
    });
  });

  it("slowly: the call ends at its timeout and lets go of the body; the connection answers on", async (context) => {
    const { srv, server } = await streamable();
    let body: ServerResponse | undefined;
    srv.route(
      onMethod("tools/call", (_req, res) => {
        body = res;
        res.writeHead(200, { "content-type": "application/json" });
        trickle(res, `{"jsonrpc":"2.0","id":3,"result":${" ".repeat(1000)}`, BODY_TRICKLE_EVERY_MS);
      }),
    );
    const outcome = await settle(server.callTool("t", {}, { timeout: TRICKLE_TIMEOUT_MS }));
    expect(outcome.error).toMatchObject({ kind: "timeout", serverId: "raw", message: `tools/call timed out after ${TRICKLE_TIMEOUT_MS} ms (timeout)` });
    await closedOf(body!);
    await server.ping();
    await done(context, {
      tried: `a JSON reply to a \`tools/call\` that streams a byte every ${count(BODY_TRICKLE_EVERY_MS)} ms without end`,
      over: STREAMABLE,
      outcome: `the call ends at its timeout (${count(TRICKLE_TIMEOUT_MS)} ms) with \`"timeout"\` and closes the reply; the connection goes on`,
    });
  });

  it("as the body of a 202: dropped unread, the message taken as delivered", async (context) => {
    const { srv, server } = await streamable({ roots: true });
    let accepted: ServerResponse | undefined;
    srv.route(
      onMethod("notifications/roots/list_changed", (_req, res) => {
        accepted = res;
        res.writeHead(202, { "content-type": "application/json" });
        void pour(res, POURED);
      }),
    );
    server.notifyRootsChanged();
    await srv.nextRequest("notifications/roots/list_changed");
    await until(() => accepted !== undefined, "accepted");
    await closedOf(accepted!);
    await server.ping();

    const old = await oldHttp();
    let taken: ServerResponse | undefined;
    old.srv.onPost("tools/call", (req, res) => {
      taken = res;
      res.writeHead(202, { "content-type": "text/plain" });
      void pour(res, POURED);
      old.srv.push(responseFor((req.json as RpcMessage).id, textResult("answered on the stream")));
    });
    expect(await old.server.callTool("t", {})).toEqual(textResult("answered on the stream"));
    await closedOf(taken!);
    await old.server.ping();
    await done(context, {
      tried: "a 202 to a POST whose body never ends",
      over: BOTH,
      outcome: "the body is not read: its connection is closed, the message counts as delivered; the connection goes on",
    });
  });
});
