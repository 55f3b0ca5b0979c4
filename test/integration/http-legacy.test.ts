// Integration tests of the client over Streamable HTTP in the legacy era (2025-06-18 and
// 2025-11-25 basic/transports), against the scripted raw HTTP server of test/helpers/raw-http.ts:
// real sockets, a real node:http server, and either of the client's two HTTP backends
// (node:http, or an injected fetch that wraps the global one and records every call).
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, ClientError } from "../../src/node.js";
import type { FetchLike, HttpTarget, Progress, ServerHandle, ServerNotification } from "../../src/node.js";
import { body, failure, onMethod, posts, rpcMethod, sendStatus } from "../helpers/http-requests.js";
import { NEXT, startRawHttp, startSse, writeSse } from "../helpers/raw-http.js";
import type { JsonObject, RawHttpOptions, RawHttpServer, RouteResult } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

afterEach(() => {
  vi.restoreAllMocks();
});

const ECHO_TOOL = { name: "echo", inputSchema: { type: "object" } };

/** A raw server that answers tools/list, ping and an echoing tools/call by default. */
async function startServer(options: RawHttpOptions = {}): Promise<RawHttpServer> {
  const srv = track(await startRawHttp(options));
  srv.handle("tools/list", () => ({ tools: [ECHO_TOOL] }));
  srv.handle("ping", () => ({}));
  srv.handle("tools/call", (m) => ({ content: [{ type: "text", text: JSON.stringify(m.params?.["arguments"] ?? null) }] }));
  return srv;
}

function startClient(): { client: Client; log: ReturnType<typeof capturingLogger> } {
  const log = capturingLogger();
  const client = track(new Client({ name: "t", version: "0", logger: log }));
  return { client, log };
}

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

// ---------------------------------------------------------------------------
// The suite runs over both HTTP backends of the client
// ---------------------------------------------------------------------------

const BACKENDS = ["node:http", "fetch"] as const;

describe.each(BACKENDS)("legacy Streamable HTTP over %s", (backend) => {
  /** What the injected fetch saw, in call order (fetch backend only). */
  let fetched: Array<{ method: string; url: string }> = [];

  const recordingFetch: FetchLike = (input, init) => {
    fetched.push({ method: init?.method ?? "GET", url: String(input) });
    return fetch(input, init);
  };

  function target(srv: RawHttpServer, extra: Partial<HttpTarget> = {}): HttpTarget {
    fetched = [];
    return { url: srv.url, ...(backend === "fetch" ? { fetch: recordingFetch } : {}), ...extra };
  }

  async function connect(
    srv: RawHttpServer,
    opts: { id?: string; extra?: Partial<HttpTarget>; maxMessageBytes?: number } = {},
  ): Promise<{ client: Client; s: ServerHandle; log: ReturnType<typeof capturingLogger> }> {
    const { client, log } = startClient();
    const s = await client.connect(opts.id ?? "a", target(srv, opts.extra), {
      connectTimeout: 10_000,
      ...(opts.maxMessageBytes !== undefined ? { maxMessageBytes: opts.maxMessageBytes } : {}),
    });
    return { client, s, log };
  }

  // -------------------------------------------------------------------------
  describe("handshake and headers", () => {
    it("POSTs initialize without session or version headers, then initialized, then uses both on every request", async () => {
      const srv = await startServer();
      const { s } = await connect(srv);
      expect(s.protocolVersion).toBe("2025-11-25");

      const init = await srv.nextRequest("initialize");
      expect(init.method).toBe("POST");
      expect(init.path).toBe("/mcp");
      expect(init.headers["accept"]!.split(",").map((t) => t.trim())).toEqual(
        expect.arrayContaining(["application/json", "text/event-stream"]),
      );
      expect(init.headers["content-type"]).toBe("application/json");
      expect(init.headers["mcp-session-id"]).toBeUndefined();
      expect(init.headers["mcp-protocol-version"]).toBeUndefined();
      expect(body(init)).toMatchObject({
        jsonrpc: "2.0",
        method: "initialize",
        params: { protocolVersion: "2025-11-25", clientInfo: { name: "t", version: "0" } },
      });

      const initialized = await srv.nextRequest("notifications/initialized");
      expect(initialized.method).toBe("POST");
      expect(initialized.headers["mcp-session-id"]).toBe("s-1");
      expect(body(initialized)).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
      // The era probe came first, with the modern headers, and took no session.
      const probe = srv.requests[0]!;
      expect(rpcMethod(probe)).toBe("server/discover");
      expect(probe.headers["mcp-protocol-version"]).toBe("2026-07-28");
      expect(probe.headers["mcp-method"]).toBe("server/discover");
      expect(srv.requests.indexOf(init)).toBe(1);

      expect(await s.listTools()).toEqual([ECHO_TOOL]);
      await s.ping();
      expect(await s.callTool("echo", { x: 1 })).toEqual(text('{"x":1}'));
      await srv.nextRequest("GET");

      const later = srv.requests.filter((r) => !["server/discover", "initialize", "notifications/initialized"].includes(rpcMethod(r) ?? ""));
      expect(later.map((r) => `${r.method} ${rpcMethod(r) ?? ""}`)).toEqual(
        expect.arrayContaining(["POST tools/list", "POST ping", "POST tools/call", "GET "]),
      );
      for (const r of later) {
        expect(r.headers["mcp-session-id"], `${r.method} ${rpcMethod(r)}`).toBe("s-1");
        expect(r.headers["mcp-protocol-version"], `${r.method} ${rpcMethod(r)}`).toBe("2025-11-25");
        if (r.method === "POST") {
          expect(r.headers["content-type"]).toBe("application/json");
          expect(r.headers["accept"]).toMatch(/application\/json/);
          expect(r.headers["accept"]).toMatch(/text\/event-stream/);
        }
      }
    });

    // The version header belongs on every message after `initialize` (2025-11-25 transports,
    // "Protocol Version Header"), the notification that ends the handshake included.
    it("sends MCP-Protocol-Version on notifications/initialized too", async () => {
      const srv = await startServer();
      await connect(srv);
      const initialized = await srv.nextRequest("notifications/initialized");
      expect(initialized.headers["mcp-protocol-version"]).toBe("2025-11-25");
    });

    it("sends MCP-Protocol-Version: 2025-06-18 when the server picks that version", async () => {
      const srv = await startServer({ protocolVersion: "2025-06-18" });
      const { s } = await connect(srv);
      expect(s.protocolVersion).toBe("2025-06-18");
      await s.ping();
      const ping = await srv.nextRequest("ping");
      expect(ping.headers["mcp-protocol-version"]).toBe("2025-06-18");
      expect(ping.headers["mcp-session-id"]).toBe("s-1");
      expect(posts(srv, "initialize")[0]!.headers["mcp-protocol-version"]).toBeUndefined();
    });

    it("sends no session id, and no DELETE, to a server that mints none", async () => {
      const srv = await startServer({ session: false });
      const { s } = await connect(srv);
      await s.ping();
      await s.close();
      for (const r of srv.requests) expect(r.headers["mcp-session-id"]).toBeUndefined();
      expect(srv.requests.filter((r) => r.method === "DELETE")).toEqual([]);
      expect((await srv.nextRequest("ping")).headers["mcp-protocol-version"]).toBe("2025-11-25");
    });

    it("s.origin is the server URL's origin", async () => {
      const srv = await startServer();
      const { s } = await connect(srv);
      const url = new URL(srv.url);
      expect(s.origin).toBe(`http://127.0.0.1:${url.port}`);
      expect(s.origin).toBe(url.origin);
    });

    it("sends the target's custom headers on every POST, GET and DELETE", async () => {
      const globalFetch = vi.spyOn(globalThis, "fetch");
      const srv = await startServer({ getStream: true });
      const { s } = await connect(srv, { extra: { headers: { Authorization: "Bearer t0k3n", "X-Trace": "abc" } } });
      await srv.nextGetStream();
      await s.callTool("echo", {});
      await s.close();
      await srv.nextRequest("DELETE");
      expect(new Set(srv.requests.map((r) => r.method))).toEqual(new Set(["POST", "GET", "DELETE"]));
      for (const r of srv.requests) {
        expect(r.headers["authorization"], `${r.method} ${rpcMethod(r)}`).toBe("Bearer t0k3n");
        expect(r.headers["x-trace"], `${r.method} ${rpcMethod(r)}`).toBe("abc");
      }
      if (backend === "fetch") {
        // Every request went through the injected fetch, and nothing else did.
        const sorted = (xs: string[]) => [...xs].sort();
        expect(sorted(fetched.map((f) => f.method))).toEqual(sorted(srv.requests.map((r) => r.method)));
        for (const f of fetched) expect(f.url).toBe(srv.url);
      } else {
        // The default backend is node:http: the global fetch is never used.
        expect(globalFetch).not.toHaveBeenCalled();
      }
    });
  });

  // -------------------------------------------------------------------------
  describe("replies", () => {
    it("resolves a call answered with plain JSON", async () => {
      const srv = await startServer();
      const { s } = await connect(srv);
      expect(await s.callTool("echo", { a: "b" })).toEqual(text('{"a":"b"}'));
    });

    it("resolves a call answered as SSE with a priming event, progress first, then the response", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s, log } = await connect(srv);
      const progress: Progress[] = [];
      const call = s.callTool("slow", {}, { onProgress: (p) => progress.push(p) });
      const p = await srv.nextPending("tools/call");
      const token = (p.message.params?.["_meta"] as JsonObject | undefined)?.["progressToken"];
      expect(token).toBeDefined();

      startSse(p.res);
      writeSse(p.res, { id: "prime-0", data: "" });
      p.write({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2, message: "half" } }, { id: "e-1" });
      p.write({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 2, total: 2 } }, { id: "e-2" });
      p.respond(text("done"));

      expect(await call).toEqual(text("done"));
      expect(progress).toEqual([
        { progress: 1, total: 2, message: "half" },
        { progress: 2, total: 2 },
      ]);
      // The empty priming event was neither parsed nor answered as garbage.
      expect(log.at("warn")).toEqual([]);
      expect(srv.requests.filter((r) => r.method === "POST" && "error" in body(r))).toEqual([]);
    });

    it("speaks a whole session to a server that answers everything as SSE with event ids", async () => {
      const srv = await startServer({ sse: true, eventIds: true });
      const { s, log } = await connect(srv);
      expect(s.serverInfo).toEqual({ name: "raw", version: "0" });
      expect(await s.listTools()).toEqual([ECHO_TOOL]);
      expect(await s.callTool("echo", { n: 2 })).toEqual(text('{"n":2}'));
      expect(log.at("warn")).toEqual([]);
    });

    it("answers a server ping that arrives on a POST's event stream with a POST", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv);
      const call = s.callTool("slow", {});
      const p = await srv.nextPending("tools/call");
      p.write({ jsonrpc: "2.0", id: "srv-1", method: "ping" });
      const pong = await srv.nextRequest((r) => body(r)?.["id"] === "srv-1");
      expect(pong.method).toBe("POST");
      expect(body(pong)).toEqual({ jsonrpc: "2.0", id: "srv-1", result: {} });
      expect(pong.headers["mcp-session-id"]).toBe("s-1");
      p.respond(text("ok"));
      expect(await call).toEqual(text("ok"));
    });
  });

  // -------------------------------------------------------------------------
  describe("the standalone GET stream", () => {
    it("opens a GET with Accept: text/event-stream and the session id, and takes a 405 quietly", async () => {
      const srv = await startServer();
      const { s, log } = await connect(srv);
      const get = await srv.nextRequest("GET");
      expect(get.path).toBe("/mcp");
      expect(get.headers["accept"]).toBe("text/event-stream");
      expect(get.headers["mcp-session-id"]).toBe("s-1");
      expect(get.headers["mcp-protocol-version"]).toBe("2025-11-25");
      expect(get.headers["last-event-id"]).toBeUndefined();
      await vi.waitFor(() => expect(log.at("debug")).toContain("the server offers no standalone event stream (405)"));
      await s.ping();
      expect(s.state).toBe("ready");
      expect(log.at("warn")).toEqual([]);
      expect(log.at("error")).toEqual([]);
      expect(srv.requests.filter((r) => r.method === "GET")).toHaveLength(1);
    });

    it("delivers a notification pushed on the GET stream to onNotification subscribers", async () => {
      const srv = await startServer({ getStream: true });
      const { client } = startClient();
      const seen: ServerNotification[] = [];
      client.onNotification((n) => {
        seen.push(n);
      });
      await client.connect("a", target(srv));
      await srv.nextGetStream();
      expect(srv.pushGet({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })).toBe(1);
      await vi.waitFor(() => expect(seen).toEqual([{ serverId: "a", method: "notifications/tools/list_changed", params: {} }]));
      srv.pushGet({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///x" } }, { id: "g-1" });
      await vi.waitFor(() => expect(seen).toHaveLength(2));
      expect(seen[1]).toEqual({ serverId: "a", method: "notifications/resources/updated", params: { uri: "file:///x" } });
    });

    it("answers a server ping that arrives on the GET stream", async () => {
      const srv = await startServer({ getStream: true });
      await connect(srv);
      await srv.nextGetStream();
      srv.pushGet({ jsonrpc: "2.0", id: 77, method: "ping" });
      const pong = await srv.nextRequest((r) => body(r)?.["id"] === 77);
      expect(body(pong)).toEqual({ jsonrpc: "2.0", id: 77, result: {} });
      expect(pong.headers["mcp-session-id"]).toBe("s-1");
    });

    it("reopens an ended GET stream with Last-Event-ID after the server's retry", async () => {
      const srv = await startServer({ getStream: true });
      const { client } = startClient();
      const seen: string[] = [];
      client.onNotification((n) => {
        seen.push(n.method);
      });
      await client.connect("a", target(srv));
      const first = await srv.nextGetStream();
      writeSse(first, { id: "g-7", retry: 50, data: { jsonrpc: "2.0", method: "notifications/prompts/list_changed" } });
      first.end();
      await srv.nextGetStream();
      const gets = srv.requests.filter((r) => r.method === "GET");
      expect(gets).toHaveLength(2);
      expect(gets[0]!.headers["last-event-id"]).toBeUndefined();
      expect(gets[1]!.headers["last-event-id"]).toBe("g-7");
      expect(gets[1]!.headers["mcp-session-id"]).toBe("s-1");
      srv.pushGet({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      await vi.waitFor(() => expect(seen).toEqual(["notifications/prompts/list_changed", "notifications/tools/list_changed"]));
    });
  });

  // -------------------------------------------------------------------------
  describe("session expiry", () => {
    /**
     * Connects and waits until the handshake's traffic is over (notifications/initialized went
     * out on its own POST, the GET stream met its 405), so that the next request with the
     * session id is the one the server's expireSession() answers with 404.
     */
    async function connectSettled(srv: RawHttpServer): Promise<{ s: ServerHandle; log: ReturnType<typeof capturingLogger> }> {
      const { s, log } = await connect(srv);
      await srv.nextRequest("notifications/initialized");
      await vi.waitFor(() => expect(log.at("debug")).toContain("the server offers no standalone event stream (405)"));
      await s.ping();
      return { s, log };
    }

    it("re-initialises once on a 404 and resends the call with the new session id", async () => {
      const srv = await startServer();
      const { s, log } = await connectSettled(srv);
      srv.expireSession();
      expect(await s.callTool("echo", { k: 1 })).toEqual(text('{"k":1}'));

      const inits = posts(srv, "initialize");
      expect(inits).toHaveLength(2);
      expect(inits[1]!.headers["mcp-session-id"]).toBeUndefined();
      expect(body(inits[1]!)).toMatchObject({ params: { protocolVersion: "2025-11-25", clientInfo: { name: "t" } } });
      const calls = posts(srv, "tools/call");
      expect(calls.map((c) => c.headers["mcp-session-id"])).toEqual(["s-1", "s-2"]);
      expect(body(calls[1]!)).toEqual(body(calls[0]!)); // the same message, same id
      expect(calls[1]!.headers["mcp-protocol-version"]).toBe("2025-11-25");
      await vi.waitFor(() =>
        expect(posts(srv, "notifications/initialized").map((r) => r.headers["mcp-session-id"])).toEqual(["s-1", "s-2"]),
      );
      expect(log.at("info")).toEqual(["the session expired; initialising a new one"]);

      await s.ping();
      expect(posts(srv, "ping").at(-1)!.headers["mcp-session-id"]).toBe("s-2");
      await s.close();
      expect((await srv.nextRequest("DELETE")).headers["mcp-session-id"]).toBe("s-2");
      expect(posts(srv, "initialize")).toHaveLength(2);
    });

    it("shares one re-initialisation among requests that meet the 404 together", async () => {
      const srv = await startServer();
      const { s, log } = await connectSettled(srv);
      srv.expireSession();
      const results = await Promise.all([s.callTool("echo", { n: 1 }), s.callTool("echo", { n: 2 }), s.ping()]);
      expect(results).toEqual([text('{"n":1}'), text('{"n":2}'), undefined]);
      expect(posts(srv, "initialize")).toHaveLength(2);
      const resent = posts(srv, "tools/call").filter((r) => r.headers["mcp-session-id"] === "s-2");
      expect(resent.map((r) => (body(r)["params"] as JsonObject)["arguments"])).toEqual(
        expect.arrayContaining([{ n: 1 }, { n: 2 }]),
      );
      expect(log.at("info")).toHaveLength(1);
    });

    it("holds a request sent while the new session is being initialised until it has the new id", async () => {
      const srv = await startServer();
      const { s } = await connectSettled(srv);
      await srv.nextRequest("initialize");
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      srv.route(async (req): Promise<RouteResult> => {
        if (rpcMethod(req) === "initialize") await gate;
        return NEXT;
      });
      srv.expireSession();
      const first = s.callTool("echo", { n: 1 });
      await srv.nextRequest("initialize"); // the renewal, held at the gate
      const later = [s.callTool("echo", { n: 2 }), s.ping()];
      release();
      const results = await Promise.allSettled([first, ...later]);
      expect(results).toEqual([
        { status: "fulfilled", value: text('{"n":1}') },
        { status: "fulfilled", value: text('{"n":2}') },
        { status: "fulfilled", value: undefined },
      ]);
      const afterRenewal = srv.requests.slice(srv.requests.indexOf(posts(srv, "initialize")[1]!) + 1);
      for (const r of afterRenewal) expect(r.headers["mcp-session-id"], `${r.method} ${rpcMethod(r)}`).toBe("s-2");
      expect(posts(srv, "initialize")).toHaveLength(2);
    });

    it("renews the session when a notification meets the 404, without sending it again", async () => {
      const srv = await startServer();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let held = false;
      // Hold the handshake's notifications/initialized until the session has expired.
      srv.route(async (req): Promise<RouteResult> => {
        if (rpcMethod(req) === "notifications/initialized" && !held) {
          held = true;
          await gate;
        }
        return NEXT;
      });
      const { s, log } = await connect(srv);
      await srv.nextRequest("notifications/initialized");
      srv.expireSession();
      release();
      await vi.waitFor(() => expect(posts(srv, "initialize")).toHaveLength(2));
      await vi.waitFor(() => expect(log.at("info")).toEqual(["the session expired; initialising a new one"]));
      await s.ping();
      await vi.waitFor(() => expect(posts(srv, "ping").at(-1)!.headers["mcp-session-id"]).toBe("s-2"));
      // The renewal sent its own notifications/initialized; the old one is not sent again.
      expect(posts(srv, "notifications/initialized").map((r) => r.headers["mcp-session-id"])).toEqual(["s-1", "s-2"]);
    });

    it("reopens the standalone GET stream on the new session", async () => {
      const srv = await startServer({ getStream: true });
      const { client } = startClient();
      const seen: string[] = [];
      client.onNotification((n) => {
        seen.push(n.method);
      });
      const s = await client.connect("a", target(srv));
      await srv.nextRequest("notifications/initialized");
      await srv.nextGetStream();
      await s.ping();
      srv.expireSession();
      expect(await s.callTool("echo", {})).toEqual(text("{}"));
      await srv.nextGetStream();
      const gets = srv.requests.filter((r) => r.method === "GET");
      expect(gets.map((r) => r.headers["mcp-session-id"])).toEqual(["s-1", "s-2"]);
      srv.pushGet({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      await vi.waitFor(() => expect(seen).toEqual(["notifications/tools/list_changed"]));
    });

    it("does not retry forever: a 404 on the resend fails the call with a clear error", async () => {
      const srv = await startServer();
      const { s } = await connectSettled(srv);
      srv.route(onMethod("tools/call", (_req, res) => sendStatus(res, 404, undefined)));
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("transport");
      expect(err.serverId).toBe("a");
      expect(err.message).toMatch(/HTTP 404/);
      expect(err.message).toContain(srv.url);
      expect(posts(srv, "initialize")).toHaveLength(2);
      expect(posts(srv, "tools/call").map((r) => r.headers["mcp-session-id"])).toEqual(["s-1", "s-2"]);
      // The connection itself is still usable, on the new session.
      await s.ping();
      expect(posts(srv, "ping").at(-1)!.headers["mcp-session-id"]).toBe("s-2");
    });

    it("fails the call when the re-initialisation itself fails", async () => {
      const srv = await startServer();
      const { s } = await connectSettled(srv);
      srv.route(onMethod("initialize", (_req, res) => sendStatus(res, 503, "text/plain", "down for maintenance")));
      srv.expireSession();
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("transport");
      expect(err.serverId).toBe("a");
      expect(err.message).toMatch(/HTTP 503/);
      expect(posts(srv, "initialize")).toHaveLength(2);
      expect(posts(srv, "tools/call")).toHaveLength(1);
      // Without a session nothing more can be said: the connection ends with the renewal's error.
      expect(await s.closed).toMatchObject({ kind: "transport", message: expect.stringMatching(/could not be renewed/) });
      expect(s.state).toBe("failed");
      await expect(s.ping()).rejects.toMatchObject({ kind: "closed" });
    });
  });

  // -------------------------------------------------------------------------
  describe("resumption (2025-11-25)", () => {
    it("GETs with Last-Event-ID after a POST stream closes early, and takes the response there", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const parked: { id?: string | number } = {};
      srv.route((req, res): RouteResult => {
        if (req.method !== "GET" || req.headers["last-event-id"] === undefined) return NEXT;
        startSse(res);
        writeSse(res, { id: "e-2", data: { jsonrpc: "2.0", id: parked.id, result: text("resumed") } });
        res.end();
        return undefined;
      });
      const { s, log } = await connect(srv);
      const call = s.callTool("slow", {});
      const p = await srv.nextPending("tools/call");
      parked.id = p.id;
      startSse(p.res);
      writeSse(p.res, { id: "e-1", retry: 50, data: "" });
      p.res.end();

      expect(await call).toEqual(text("resumed"));
      const resumes = srv.requests.filter((r) => r.method === "GET" && r.headers["last-event-id"] !== undefined);
      expect(resumes).toHaveLength(1);
      const resume = resumes[0]!;
      expect(resume.headers["last-event-id"]).toBe("e-1");
      expect(resume.headers["accept"]).toBe("text/event-stream");
      expect(resume.headers["mcp-session-id"]).toBe("s-1");
      expect(resume.headers["mcp-protocol-version"]).toBe("2025-11-25");
      expect(posts(srv, "tools/call")).toHaveLength(1); // resumed, not resent
      expect(log.at("warn")).toEqual([]);
    });

    it("resumes again from the latest event id when the resumed stream breaks too", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const parked: { id?: string | number } = {};
      let resumed = 0;
      srv.route((req, res): RouteResult => {
        if (req.method !== "GET" || req.headers["last-event-id"] === undefined) return NEXT;
        startSse(res);
        if (++resumed === 1) {
          writeSse(res, { id: "e-2", retry: 20, data: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } } });
        } else {
          writeSse(res, { id: "e-3", data: { jsonrpc: "2.0", id: parked.id, result: text("second try") } });
        }
        res.end();
        return undefined;
      });
      const { s } = await connect(srv);
      const call = s.callTool("slow", {});
      const p = await srv.nextPending("tools/call");
      parked.id = p.id;
      p.write({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "start" } }, { id: "e-1" });
      writeSse(p.res, { retry: 20 });
      p.res.end();

      expect(await call).toEqual(text("second try"));
      const ids = srv.requests.filter((r) => r.method === "GET" && r.headers["last-event-id"] !== undefined).map((r) => r.headers["last-event-id"]);
      expect(ids).toEqual(["e-1", "e-2"]);
    });

    it("rejects the call with kind transport when a stream without event ids ends early", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv);
      const call = s.callTool("slow", {});
      const p = await srv.nextPending("tools/call");
      p.write({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } });
      p.res.end();
      const err = await failure(call);
      expect(err.kind).toBe("transport");
      expect(err.serverId).toBe("a");
      expect(err.message).toMatch(/ended before it answered/);
      expect(srv.requests.filter((r) => r.headers["last-event-id"] !== undefined)).toEqual([]);
      await s.ping();
    });
  });

  // -------------------------------------------------------------------------
  describe("closing", () => {
    it("DELETEs the session with its id on close()", async () => {
      const srv = await startServer();
      const { s } = await connect(srv);
      await s.close();
      const del = await srv.nextRequest("DELETE");
      expect(del.path).toBe("/mcp");
      expect(del.headers["mcp-session-id"]).toBe("s-1");
      expect(del.headers["mcp-protocol-version"]).toBe("2025-11-25");
      expect(s.state).toBe("closed");
      expect((await failure(s.ping())).kind).toBe("closed");
      expect(srv.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
    });

    it("rejects a call in flight with kind closed, lets go of its response and still DELETEs", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv);
      const call = failure(s.callTool("slow", {}));
      const p = await srv.nextPending("tools/call");
      await s.close();
      const err = await call;
      expect(err.kind).toBe("closed");
      expect(err.serverId).toBe("a");
      await p.closed;
      expect((await srv.nextRequest("DELETE")).headers["mcp-session-id"]).toBe("s-1");
    });

    it("DELETEs a session that initialize minted when the connect then fails", async () => {
      const srv = await startServer({ protocolVersion: "2099-01-01" });
      const { client } = startClient();
      expect(await failure(client.connect("a", target(srv), { protocolVersion: "2025-11-25" }))).toMatchObject({ kind: "unsupported" });
      expect((await srv.nextRequest("DELETE")).headers["mcp-session-id"]).toBe("s-1");
      // Refused for a version it named: a legacy server, asked nothing more.
      expect(srv.requests.filter((r) => r.method === "POST").map((r) => rpcMethod(r))).toEqual(["initialize"]);
    });

    it("DELETEs every server's session on client.close()", async () => {
      const one = await startServer();
      const two = await startServer();
      const { client } = startClient();
      await client.connect("one", target(one));
      await client.connect("two", { ...target(two), fetch: backend === "fetch" ? recordingFetch : undefined });
      await client.close();
      expect((await one.nextRequest("DELETE")).headers["mcp-session-id"]).toBe("s-1");
      expect((await two.nextRequest("DELETE")).headers["mcp-session-id"]).toBe("s-1");
      expect(client.servers()).toEqual([]);
    });
  });

  // -------------------------------------------------------------------------
  describe("HTTP errors", () => {
    it("turns a 400 whose body is a JSON-RPC error with an id into kind rpc with that code", async () => {
      const srv = await startServer();
      srv.route(
        onMethod("tools/call", (req, res) => {
        const error = { code: -32602, message: "Unknown tool: nope", data: { tool: "nope" } };
        sendStatus(res, 400, "application/json", JSON.stringify({ jsonrpc: "2.0", id: body(req)["id"], error }));
      }),
      );
      const { s } = await connect(srv);
      const err = await failure(s.callTool("nope", {}));
      expect(err.kind).toBe("rpc");
      expect(err.code).toBe(-32602);
      expect(err.data).toEqual({ tool: "nope" });
      expect(err.serverId).toBe("a");
      expect(err.message).toContain("Unknown tool: nope");
      await s.ping();
    });

    it("turns a 400 whose body is a JSON-RPC error without an id into kind rpc with that code", async () => {
      const srv = await startServer();
      srv.route(
        onMethod("tools/call", (_req, res) => {
        sendStatus(res, 400, "application/json", JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Bad Request: nope" } }));
      }),
      );
      const { s } = await connect(srv);
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("rpc");
      expect(err.code).toBe(-32600);
      expect(err.message).toContain("Bad Request: nope");
    });

    it("turns a 500 with a plain-text body into kind transport naming the status", async () => {
      const srv = await startServer();
      srv.route(
        onMethod("tools/call", (_req, res) => {
        sendStatus(res, 500, "text/plain", "internal kaboom");
      }),
      );
      const { s } = await connect(srv);
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("transport");
      expect(err.code).toBeUndefined();
      expect(err.message).toMatch(/HTTP 500/);
      expect(err.message).toContain("internal kaboom");
      expect(err.data).toEqual({ status: 500 });
      await s.ping();
    });

    it("turns a 202 for a request into kind protocol", async () => {
      const srv = await startServer();
      srv.route(
        onMethod("tools/call", (_req, res) => {
        sendStatus(res, 202, undefined);
      }),
      );
      const { s } = await connect(srv);
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("protocol");
      expect(err.message).toMatch(/202/);
      await s.ping();
    });

    it("turns a JSON reply that does not parse into kind protocol", async () => {
      const srv = await startServer();
      srv.route(
        onMethod("tools/call", (_req, res) => {
        sendStatus(res, 200, "application/json", '{"jsonrpc":"2.0","id":');
      }),
      );
      const { s } = await connect(srv);
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("protocol");
      expect(err.message).toMatch(/does not parse/);
      expect(err.data).toBe('{"jsonrpc":"2.0","id":');
      await s.ping();
    });

    it("turns a 200 with an unexpected Content-Type into kind protocol", async () => {
      const srv = await startServer();
      srv.route(
        onMethod("tools/call", (_req, res) => {
        sendStatus(res, 200, "text/html", "<h1>hello</h1>");
      }),
      );
      const { s } = await connect(srv);
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("protocol");
      expect(err.message).toContain("text/html");
    });

    it("turns a JSON body larger than maxMessageBytes into kind transport", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => text("x".repeat(20_000)));
      const { s } = await connect(srv, { maxMessageBytes: 4096 });
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("transport");
      expect(err.message).toMatch(/maxMessageBytes \(4096 bytes\)/);
      // Over maxMessageBytes the connection ends, as over stdio: a server cannot make every call cost that much.
      expect(await s.closed).toMatchObject({ kind: "transport", message: expect.stringMatching(/maxMessageBytes \(4096 bytes\)/) });
    });

    it("stops reading a JSON body at maxMessageBytes without waiting for its end", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv, { maxMessageBytes: 4096 });
      const call = s.callTool("echo", {}, { timeout: 10_000 });
      const p = await srv.nextPending("tools/call");
      p.res.writeHead(200, { "content-type": "application/json" });
      p.res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(p.id)},"result":{"content":[{"type":"text","text":"${"x".repeat(20_000)}`);
      const err = await failure(call);
      expect(err.kind).toBe("transport");
      expect(err.message).toMatch(/maxMessageBytes \(4096 bytes\)/);
      await p.closed;
      expect(await s.closed).toMatchObject({ kind: "transport", message: expect.stringMatching(/maxMessageBytes \(4096 bytes\)/) });
    });

    it("turns an SSE event larger than maxMessageBytes into kind transport", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv, { maxMessageBytes: 4096 });
      const call = s.callTool("echo", {});
      const p = await srv.nextPending("tools/call");
      // The stream stays open: the client must stop at the limit and let go of it.
      p.write({ jsonrpc: "2.0", id: p.id, result: text("y".repeat(20_000)) });
      const err = await failure(call);
      expect(err.kind).toBe("transport");
      expect(err.message).toMatch(/maxMessageBytes \(4096 bytes\)/);
      await p.closed;
      expect(await s.closed).toMatchObject({ kind: "transport", message: expect.stringMatching(/maxMessageBytes \(4096 bytes\)/) });
    });

    it("does not resume a stream whose event outgrew maxMessageBytes: the call fails with kind transport", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv, { maxMessageBytes: 4096 });
      const call = s.callTool("echo", {});
      const p = await srv.nextPending("tools/call");
      startSse(p.res);
      writeSse(p.res, { id: "e-1", retry: 10, data: "" });
      writeSse(p.res, { id: "e-2", data: { jsonrpc: "2.0", id: p.id, result: text("z".repeat(20_000)) } });
      p.res.end();
      const err = await failure(call);
      expect(err.kind).toBe("transport");
      expect(err.message).toMatch(/maxMessageBytes \(4096 bytes\)/);
      expect(srv.requests.filter((r) => r.headers["last-event-id"] !== undefined)).toEqual([]);
      expect(await s.closed).toMatchObject({ kind: "transport", message: expect.stringMatching(/maxMessageBytes \(4096 bytes\)/) });
    });

    it("counts an SSE event's size in UTF-8 bytes", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv, { maxMessageBytes: 4096 });
      const call = s.callTool("echo", {});
      const p = await srv.nextPending("tools/call");
      // 2 000 characters, 6 000 bytes: under the limit in characters, over it in bytes.
      p.respond(text("€".repeat(2_000)), { sse: true });
      expect((await failure(call)).kind).toBe("transport");
    });

    it("fails a call with kind transport when the server is gone", async () => {
      const srv = await startServer();
      const { s } = await connect(srv);
      await srv.close();
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("transport");
      expect(err.serverId).toBe("a");
      expect(err.message).toContain(srv.url);
    });
  });

  // -------------------------------------------------------------------------
  describe("timeout and cancellation", () => {
    it("rejects with kind timeout and POSTs notifications/cancelled naming the request", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv);
      const call = s.callTool("slow", {}, { timeout: 300 });
      const p = await srv.nextPending("tools/call");
      const err = await failure(call);
      expect(err.kind).toBe("timeout");
      expect(err.serverId).toBe("a");
      const cancel = await srv.nextRequest("notifications/cancelled");
      expect(cancel.method).toBe("POST");
      expect(body(cancel)).toMatchObject({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: p.id } });
      expect(cancel.headers["mcp-session-id"]).toBe("s-1");
      expect(cancel.headers["mcp-protocol-version"]).toBe("2025-11-25");
      // The client let go of the response it no longer wants.
      await p.closed;
      await s.ping();
    });

    it("rejects with kind cancelled on abort and POSTs notifications/cancelled naming the request", async () => {
      const srv = await startServer();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv);
      const controller = new AbortController();
      const call = s.callTool("slow", {}, { signal: controller.signal });
      const p = await srv.nextPending("tools/call");
      p.write({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "streaming" } });
      const reason = new Error("user pressed stop");
      controller.abort(reason);
      const err = await failure(call);
      expect(err.kind).toBe("cancelled");
      expect(err.cause).toBe(reason);
      const cancel = await srv.nextRequest("notifications/cancelled");
      expect(body(cancel)).toMatchObject({ method: "notifications/cancelled", params: { requestId: p.id } });
      await p.closed;
      await s.ping();
    });

    // That initialize is never cancelled is tested over stdio, where the pipe keeps order.
    it("fails a handshake that times out with kind timeout, and registers nothing", async () => {
      const srv = await startServer();
      srv.handle("initialize", () => undefined);
      const { client } = startClient();
      const err = await failure(client.connect("a", target(srv), { connectTimeout: 200 }));
      expect(err.kind).toBe("timeout");
      expect(client.server("a")).toBeUndefined();
    });
  });

  // -------------------------------------------------------------------------
  describe("several servers", () => {
    it("keeps two HTTP servers on one Client apart: one failing, the other still answering", async () => {
      const a = await startServer({ getStream: true });
      const b = await startServer({ getStream: true });
      a.route(
        onMethod("tools/call", (_req, res) => {
        sendStatus(res, 500, "text/plain", "a is broken");
      }),
      );
      b.handle("tools/call", () => text("b answers"));
      const { client } = startClient();
      const seen: ServerNotification[] = [];
      client.onNotification((n) => {
        seen.push(n);
      });
      const fetchOpt = backend === "fetch" ? { fetch: recordingFetch } : {};
      const sa = await client.connect("a", { url: a.url, headers: { "x-server": "a" }, ...fetchOpt });
      const sb = await client.connect("b", { url: b.url, headers: { "x-server": "b" }, ...fetchOpt });

      const [ra, rb] = await Promise.allSettled([sa.callTool("echo", {}), sb.callTool("echo", {})]);
      expect(ra.status).toBe("rejected");
      const errA = (ra as PromiseRejectedResult).reason as ClientError;
      expect(errA).toBeInstanceOf(ClientError);
      expect(errA.kind).toBe("transport");
      expect(errA.serverId).toBe("a");
      expect(rb).toEqual({ status: "fulfilled", value: text("b answers") });

      await b.nextGetStream();
      b.pushGet({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      await vi.waitFor(() => expect(seen).toEqual([{ serverId: "b", method: "notifications/tools/list_changed", params: {} }]));

      // Server a goes away entirely; b does not notice.
      await a.close();
      const gone = await failure(sa.ping());
      expect(gone.kind).toBe("transport");
      expect(gone.serverId).toBe("a");
      await sb.ping();
      expect(await sb.callTool("echo", {})).toEqual(text("b answers"));
      expect(sb.state).toBe("ready");

      for (const r of a.requests) expect(r.headers["x-server"]).toBe("a");
      for (const r of b.requests) expect(r.headers["x-server"]).toBe("b");
    });
  });
});
