// Integration tests of the client over Streamable HTTP in the modern era (2026-07-28
// basic/transports/streamable-http, basic/versioning, basic/patterns/mrtr, server/tools
// "x-mcp-header"), against the scripted raw HTTP server of test/helpers/raw-http.ts acting as a
// modern server: no sessions, POST only (GET and DELETE get 405), `server/discover` answered.
// Real sockets, over both HTTP backends of the client (node:http, and an injected fetch).
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { Client } from "../../src/node.js";
import type { ConnectOptions, Handler, HttpTarget, Progress, ServerHandle, ServerNotification } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { body, failure, onMethod, posts, rpcMethod, sendJson, sendStatus } from "../helpers/http-requests.js";
import { NEXT, startRawHttp, viaSse } from "../helpers/raw-http.js";
import type { JsonObject, RawHttpServer, RecordedRequest } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";
import { deferred } from "../helpers/raw-stdio.js";

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

const MODERN = "2026-07-28";
const PV = "io.modelcontextprotocol/protocolVersion";
const CI = "io.modelcontextprotocol/clientInfo";
const CC = "io.modelcontextprotocol/clientCapabilities";
const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

const SERVER_INFO = { name: "raw-modern", version: "1" };
const CAPABILITIES = { tools: {}, resources: {}, prompts: {} };
const CLIENT_INFO = { name: "t", version: "0" };

/** A modern result: `resultType` and the server's identity in `_meta`, as the spec asks. */
function complete(result: JsonObject): JsonObject {
  return { resultType: "complete", ...result, _meta: { [SERVER_INFO_KEY]: SERVER_INFO } };
}

function discoverResult(capabilities: JsonObject = CAPABILITIES): JsonObject {
  return {
    resultType: "complete",
    supportedVersions: [MODERN],
    capabilities,
    ttlMs: 0,
    cacheScope: "private",
    _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
  };
}

const text = (value: string): JsonObject => ({ content: [{ type: "text", text: value }] });

const ECHO_TOOL = { name: "echo", inputSchema: { type: "object" } };

function params(r: RecordedRequest): JsonObject {
  return body(r)["params"] as JsonObject;
}

function meta(r: RecordedRequest): JsonObject {
  return params(r)["_meta"] as JsonObject;
}

/** The Mcp-Param-* headers of a request, by lowercased name. */
function paramHeaders(r: RecordedRequest): Record<string, string> {
  return Object.fromEntries(Object.entries(r.headers).filter(([name]) => name.startsWith("mcp-param-")));
}

/** The spec's sentinel form of a header value: `=?base64?<Base64 of UTF-8>?=`. */
function sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** A header value read back: the sentinel decoded, anything else as is. */
function decodeHeader(value: string): string {
  const m = /^=\?base64\?(.*)\?=$/.exec(value);
  return m === null ? value : Buffer.from(m[1]!, "base64").toString("utf8");
}

function rpcError(req: RecordedRequest, code: number, message: string, data?: unknown): JsonObject {
  const error: JsonObject = { code, message };
  if (data !== undefined) error["data"] = data;
  return { jsonrpc: "2.0", id: body(req)["id"] ?? null, error };
}

/**
 * A modern-only server: POST only, no sessions; `server/discover` answered; `initialize` refused
 * with 400 -32022 naming the versions it speaks; the usual lists and calls answered.
 */
async function startModern(capabilities: JsonObject = CAPABILITIES): Promise<RawHttpServer> {
  const srv = track(await startRawHttp({ session: false, strictSession: false }));
  srv.route((req, res) => {
    if (req.method === "GET" || req.method === "DELETE") {
      res.writeHead(405, { allow: "POST" }).end();
      return undefined;
    }
    if (rpcMethod(req) === "initialize") {
      const requested = (params(req)?.["protocolVersion"] as string | undefined) ?? "";
      sendJson(res, 400, rpcError(req, -32022, "Unsupported protocol version", { supported: [MODERN], requested }));
      return undefined;
    }
    return NEXT;
  });
  srv.handle("server/discover", () => discoverResult(capabilities));
  srv.handle("tools/list", () => complete({ tools: [ECHO_TOOL] }));
  srv.handle("tools/call", (m) => complete(text(JSON.stringify(m.params?.["arguments"] ?? null))));
  srv.handle("resources/list", () => complete({ resources: [] }));
  srv.handle("resources/templates/list", () => complete({ resourceTemplates: [] }));
  srv.handle("resources/read", (m) => complete({ contents: [{ uri: m.params?.["uri"], text: "hello" }] }));
  srv.handle("prompts/list", () => complete({ prompts: [] }));
  srv.handle("prompts/get", () => complete({ messages: [] }));
  return srv;
}

/** A legacy-only server: sessions, initialize; `server/discover` is a method it does not know. */
async function startLegacy(): Promise<RawHttpServer> {
  const srv = track(await startRawHttp());
  srv.handle("tools/list", () => ({ tools: [ECHO_TOOL] }));
  srv.handle("ping", () => ({}));
  return srv;
}

/** The tasks extension, which a modern client declares on every request beside what its Handler gives (the helpers add it). */
const WITH_TASKS: JsonObject = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** What every request of a modern client must look like (2026-07-28 streamable-http, "_meta"). */
function expectModernRequest(r: RecordedRequest, capabilities: JsonObject = {}): void {
  const what = `${r.method} ${rpcMethod(r) ?? "(no method)"}`;
  expect(r.method, what).toBe("POST");
  expect(r.path, what).toBe("/mcp");
  expect(r.headers["mcp-session-id"], what).toBeUndefined();
  expect(r.headers["content-type"], what).toBe("application/json");
  expect(r.headers["accept"]!.split(",").map((t) => t.trim()), what).toEqual(expect.arrayContaining(["application/json", "text/event-stream"]));
  const msg = body(r);
  // Modern clients send requests only: no notifications, no responses.
  expect(typeof msg["id"], what).toBe("number");
  expect(msg["jsonrpc"], what).toBe("2.0");
  expect(r.headers["mcp-method"], what).toBe(msg["method"]);
  expect(r.headers["mcp-protocol-version"], what).toBe(MODERN);
  expect(meta(r)[PV], what).toBe(r.headers["mcp-protocol-version"]);
  expect(meta(r)[CI], what).toEqual(CLIENT_INFO);
  expect(meta(r)[CC], what).toEqual({ ...capabilities, ...WITH_TASKS });
  const method = rpcMethod(r);
  const named = method === "tools/call" || method === "prompts/get" ? params(r)["name"] : method === "resources/read" ? params(r)["uri"] : undefined;
  if (named === undefined) expect(r.headers["mcp-name"], what).toBeUndefined();
  else expect(decodeHeader(r.headers["mcp-name"] ?? ""), what).toBe(named);
}

function expectAllModern(srv: RawHttpServer, capabilities: JsonObject = {}): void {
  expect(srv.requests.length).toBeGreaterThan(0);
  for (const r of srv.requests) expectModernRequest(r, capabilities);
}

// ---------------------------------------------------------------------------
// The suite runs over both HTTP backends of the client
// ---------------------------------------------------------------------------

const BACKENDS = ["node:http", "fetch"] as const;

describe.each(BACKENDS)("modern Streamable HTTP over %s", (backend) => {
  function target(srv: RawHttpServer): HttpTarget {
    return { url: srv.url, ...(backend === "fetch" ? { fetch: (input, init) => fetch(input, init) } : {}) };
  }

  function startClient(handler?: Handler): { client: Client; log: CapturingLogger } {
    const log = capturingLogger();
    const client = track(new Client({ name: CLIENT_INFO.name, version: CLIENT_INFO.version, logger: log, ...(handler ? { handler } : {}) }));
    return { client, log };
  }

  async function connect(
    srv: RawHttpServer,
    opts: { id?: string; handler?: Handler; options?: ConnectOptions } = {},
  ): Promise<{ client: Client; s: ServerHandle; log: CapturingLogger }> {
    const { client, log } = startClient(opts.handler);
    const s = await client.connect(opts.id ?? "a", target(srv), { connectTimeout: 10_000, ...opts.options });
    return { client, s, log };
  }

  // -------------------------------------------------------------------------
  describe("negotiation", () => {
    it("probes with server/discover (modern headers, the _meta envelope) and speaks modern without initialize, session, GET or DELETE", async () => {
      const srv = await startModern();
      // A session id the server should not send must not stick either.
      srv.route(
        onMethod("server/discover", (req, res) => sendJson(res, 200, { jsonrpc: "2.0", id: body(req)["id"], result: discoverResult() }, { "mcp-session-id": "bogus" })),
      );
      srv.route(
        onMethod("tools/list", (req, res) =>
          sendJson(res, 200, { jsonrpc: "2.0", id: body(req)["id"], result: complete({ tools: [ECHO_TOOL] }) }, { "mcp-session-id": "bogus-2" }),
        ),
      );
      const { s } = await connect(srv);
      expect(s.era).toBe("modern");
      expect(s.protocolVersion).toBe(MODERN);
      expect(s.serverInfo).toEqual(SERVER_INFO);
      expect(s.serverCapabilities).toEqual(CAPABILITIES);

      const probe = srv.requests[0]!;
      expect(probe.method).toBe("POST");
      expect(probe.headers["mcp-protocol-version"]).toBe(MODERN);
      expect(probe.headers["mcp-method"]).toBe("server/discover");
      expect(body(probe)).toEqual({
        jsonrpc: "2.0",
        id: expect.any(Number),
        method: "server/discover",
        params: { _meta: { [PV]: MODERN, [CI]: CLIENT_INFO, [CC]: WITH_TASKS } },
      });

      expect(await s.listTools()).toEqual([ECHO_TOOL]);
      expect(await s.callTool("echo", { x: 1 })).toEqual(complete(text('{"x":1}')));
      await s.close();
      expect(srv.requests.map((r) => `${r.method} ${rpcMethod(r) ?? ""}`)).toEqual([
        "POST server/discover",
        "POST tools/list",
        "POST tools/call",
      ]);
      expectAllModern(srv);
    });

    it("fails with kind unsupported naming both sides when -32022 names only versions the client does not speak", async () => {
      const srv = await startModern();
      srv.route(
        onMethod("server/discover", (req, res) =>
          sendJson(res, 400, rpcError(req, -32022, "Unsupported protocol version", { supported: ["2099-01-01"], requested: MODERN })),
        ),
      );
      const { client } = startClient();
      const err = await failure(client.connect("a", target(srv), { connectTimeout: 10_000 }));
      expect(err.kind).toBe("unsupported");
      expect(err.serverId).toBe("a");
      expect(err.message).toContain("2099-01-01");
      expect(err.message).toContain(MODERN);
      expect(err.data).toMatchObject({ serverSupports: ["2099-01-01"], clientAccepts: expect.arrayContaining([MODERN]) });
      // A recognised modern error: the server is modern, so no fallback to initialize.
      expect(posts(srv, "initialize")).toEqual([]);
      expect(posts(srv, "server/discover")).toHaveLength(1);
      expect(client.server("a")).toBeUndefined();
    });

    it.each(["2025-11-25", "2025-06-18"])("falls back to initialize offering %s when -32022 names only that legacy version", async (legacy) => {
      const srv = await startLegacy();
      srv.route(
        onMethod("server/discover", (req, res) =>
          sendJson(res, 400, rpcError(req, -32022, "Unsupported protocol version", { supported: [legacy], requested: MODERN })),
        ),
      );
      const { s } = await connect(srv);
      expect(s.era).toBe("legacy");
      expect(s.protocolVersion).toBe(legacy);
      // notifications/initialized is not awaited by connect: wait for it before reading the log.
      await srv.nextRequest("notifications/initialized");
      const sent = srv.requests.filter((r) => r.method === "POST").map((r) => rpcMethod(r));
      expect(sent.slice(0, 3)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
      expect(params(posts(srv, "initialize")[0]!)["protocolVersion"]).toBe(legacy);
    });

    const LEGACY_REPLIES: Array<[string, (req: RecordedRequest, res: ServerResponse) => void]> = [
      ["400 with a non-modern JSON-RPC error", (req, res) => sendJson(res, 400, rpcError(req, -32000, "Bad Request: Server not initialized"))],
      ["400 with a plain-text body", (_req, res) => sendStatus(res, 400, "text/plain", "Bad Request")],
      ["404 with an empty body", (_req, res) => sendStatus(res, 404)],
      ["405 with an empty body", (_req, res) => sendStatus(res, 405)],
    ];

    it.each(LEGACY_REPLIES)("falls back to initialize on a %s", async (_what, reply) => {
      const srv = await startLegacy();
      srv.route(onMethod("server/discover", reply));
      const { s } = await connect(srv);
      expect(s.era).toBe("legacy");
      expect(s.protocolVersion).toBe("2025-11-25");
      expect(s.serverInfo).toEqual({ name: "raw", version: "0" });
      const sent = srv.requests.filter((r) => r.method === "POST").map((r) => rpcMethod(r));
      expect(sent.slice(0, 2)).toEqual(["server/discover", "initialize"]);
      // The probe took no session; initialize carried no version header.
      expect(srv.requests[0]!.headers["mcp-session-id"]).toBeUndefined();
      expect(posts(srv, "initialize")[0]!.headers["mcp-protocol-version"]).toBeUndefined();
      await s.ping();
    });

    it("remembers a legacy verdict: a second connect of the same Client to the same URL goes straight to initialize", async () => {
      const srv = await startLegacy();
      srv.route(onMethod("server/discover", (_req, res) => sendStatus(res, 404)));
      const { client, s } = await connect(srv, { id: "first" });
      expect(s.era).toBe("legacy");
      expect(posts(srv, "server/discover")).toHaveLength(1);
      await srv.nextRequest("notifications/initialized");
      const before = srv.requests.length;

      const second = await client.connect("second", target(srv), { connectTimeout: 10_000 });
      expect(second.era).toBe("legacy");
      await srv.nextRequest("notifications/initialized");
      const later = srv.requests.slice(before).filter((r) => r.method === "POST");
      expect(later.map((r) => rpcMethod(r)).slice(0, 2)).toEqual(["initialize", "notifications/initialized"]);
      expect(posts(srv, "server/discover")).toHaveLength(1);
    });

    // A remembered verdict is a guess: when it fails (the server is modern-only now), probe again.
    it.each([
      { status: 400, code: -32022, message: "Unsupported protocol version" },
      { status: 404, code: -32601, message: "Method not found" },
      // A bare 404 is what a server of the old HTTP+SSE transport answers too: the fallback is
      // tried (the GET fails), and the probe still follows.
      { status: 404, code: undefined, message: "" },
    ])("re-probes when the remembered legacy verdict fails: initialize refused with HTTP $status ($code) leads to server/discover", async ({ status, code, message }) => {
      const srv = await startLegacy();
      let modern = false;
      srv.route(
        onMethod("server/discover", (req, res) =>
          modern ? sendJson(res, 200, { jsonrpc: "2.0", id: body(req)["id"], result: discoverResult() }) : sendStatus(res, 404),
        ),
      );
      srv.route((req, res) => {
        if (!modern || rpcMethod(req) !== "initialize") return NEXT;
        if (code === undefined) sendStatus(res, status);
        else sendJson(res, status, rpcError(req, code, message, { supported: [MODERN], requested: "2025-11-25" }));
        return undefined;
      });
      const { client } = await connect(srv, { id: "first" });
      await srv.nextRequest("notifications/initialized");
      // The server is upgraded: modern only, without sessions.
      modern = true;
      srv.options.session = false;
      const before = srv.requests.length;
      const second = await client.connect("second", target(srv), { connectTimeout: 10_000 });
      expect(second.era).toBe("modern");
      expect(second.serverInfo).toEqual(SERVER_INFO);
      await second.listTools();
      const later = srv.requests.slice(before).filter((r) => r.method === "POST");
      expect(later.map((r) => rpcMethod(r))).toEqual(["initialize", "server/discover", "tools/list"]);
      for (const r of later.slice(1)) expectModernRequest(r);
      // The HTTP+SSE stream was asked for only where the refusal looked like that transport's.
      const gets = srv.requests.slice(before).filter((r) => r.method === "GET" && r.headers["mcp-session-id"] === undefined);
      expect(gets.length > 0).toBe(code === undefined);
    });

    it("forgets the verdict when a connect fails: the next one probes again", async () => {
      const srv = await startLegacy();
      srv.route(onMethod("server/discover", (_req, res) => sendStatus(res, 404)));
      const { client } = await connect(srv, { id: "first" });
      await srv.nextRequest("notifications/initialized");
      const hold = srv.route((req) => (rpcMethod(req) === "initialize" ? new Promise<never>(() => {}) : NEXT));
      const failed = await failure(client.connect("second", target(srv), { connectTimeout: 300 }));
      expect(failed.kind).toBe("timeout");
      hold();
      const before = srv.requests.length;
      const third = await client.connect("third", target(srv), { connectTimeout: 10_000 });
      expect(third.era).toBe("legacy");
      const later = srv.requests.slice(before).filter((r) => r.method === "POST");
      expect(later.map((r) => rpcMethod(r)).slice(0, 2)).toEqual(["server/discover", "initialize"]);
    });

    it("pinned to 2026-07-28, speaks modern with a modern server", async () => {
      const srv = await startModern();
      const { s } = await connect(srv, { options: { protocolVersion: MODERN } });
      expect(s.era).toBe("modern");
      expect(s.protocolVersion).toBe(MODERN);
      await s.listTools();
      expect(srv.requests.map((r) => rpcMethod(r))).toEqual(["server/discover", "tools/list"]);
      expectAllModern(srv);
    });

    it("pinned to 2026-07-28, fails with kind unsupported against a legacy-only server, naming what each side supports", async () => {
      const srv = await startLegacy();
      const { client } = startClient();
      const err = await failure(client.connect("a", target(srv), { connectTimeout: 10_000, protocolVersion: MODERN }));
      expect(err.kind).toBe("unsupported");
      expect(err.message).toContain("2025-11-25");
      expect(err.message).toContain(MODERN);
      expect(err.data).toEqual({ serverSupports: ["2025-11-25"], clientAccepts: [MODERN] });
      expect(client.server("a")).toBeUndefined();
      // No request after the failed pin speaks the modern era as if it had worked.
      expect(posts(srv, "tools/list")).toEqual([]);
    });

    it("pinned to 2025-11-25, fails with kind unsupported against a modern-only server, naming what each side supports", async () => {
      const srv = await startModern();
      const { client } = startClient();
      const err = await failure(client.connect("a", target(srv), { connectTimeout: 10_000, protocolVersion: "2025-11-25" }));
      expect(err.kind).toBe("unsupported");
      expect(err.message).toContain("2025-11-25");
      expect(err.message).toContain(MODERN);
      expect(err.data).toEqual({ serverSupports: [MODERN], clientAccepts: ["2025-11-25"] });
      const init = posts(srv, "initialize");
      expect(init).toHaveLength(1);
      expect(params(init[0]!)["protocolVersion"]).toBe("2025-11-25");
      expect(posts(srv, "notifications/initialized")).toEqual([]);
      expect(client.server("a")).toBeUndefined();
    });
  });

  // -------------------------------------------------------------------------
  describe("the envelope and the headers of every request", () => {
    it("puts the three _meta keys on every request, with MCP-Protocol-Version equal to them, Mcp-Method always and Mcp-Name on calls", async () => {
      const srv = await startModern();
      const { s } = await connect(srv);
      await s.listTools();
      await s.listResources();
      await s.listResourceTemplates();
      await s.listPrompts();
      await s.callTool("echo", { a: 1 });
      await s.readResource("file:///tmp/a.txt");
      await s.getPrompt("greet", { who: "ada" });
      expect(srv.requests.map((r) => rpcMethod(r))).toEqual([
        "server/discover",
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
        "tools/call",
        "resources/read",
        "prompts/get",
      ]);
      expectAllModern(srv);
      for (const r of srv.requests) expect(Object.keys(meta(r)).sort()).toEqual([CC, CI, PV].sort());
      expect(posts(srv, "tools/call")[0]!.headers["mcp-name"]).toBe("echo");
      expect(posts(srv, "resources/read")[0]!.headers["mcp-name"]).toBe("file:///tmp/a.txt");
      expect(posts(srv, "prompts/get")[0]!.headers["mcp-name"]).toBe("greet");
      // The envelope is added to the params, which keep everything else.
      expect(params(posts(srv, "tools/call")[0]!)).toEqual({ name: "echo", arguments: { a: 1 }, _meta: expect.any(Object) });
      expect(params(posts(srv, "prompts/get")[0]!)).toEqual({ name: "greet", arguments: { who: "ada" }, _meta: expect.any(Object) });
      expect(params(posts(srv, "resources/read")[0]!)).toEqual({ uri: "file:///tmp/a.txt", _meta: expect.any(Object) });
    });

    const HANDLERS: Array<[string, Handler, JsonObject]> = [
      ["no callbacks", {}, {}],
      ["listRoots", { listRoots: () => ({ roots: [] }) }, { roots: {} }],
      ["form elicitation (default modes)", { handleElicitation: () => ({ action: "decline" }) }, { elicitation: { form: {} } }],
      [
        "form and url elicitation",
        { handleElicitation: () => ({ action: "decline" }), elicitationModes: ["form", "url"] },
        { elicitation: { form: {}, url: {} } },
      ],
      [
        "sampling",
        { handleSampling: () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }) },
        { sampling: {} },
      ],
      [
        "everything",
        {
          handleSampling: () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }),
          handleElicitation: () => ({ action: "decline" }),
          elicitationModes: ["url"],
          listRoots: () => ({ roots: [] }),
        },
        { sampling: {}, elicitation: { url: {} }, roots: {} },
      ],
    ];

    it.each(HANDLERS)("derives clientCapabilities in the 2026 form from a Handler with %s", async (_what, handler, expected) => {
      const srv = await startModern();
      const { s } = await connect(srv, { handler });
      await s.callTool("echo", {});
      await s.listTools();
      expect(srv.requests).toHaveLength(3);
      for (const r of srv.requests) expect(meta(r)[CC]).toStrictEqual({ ...expected, ...WITH_TASKS });
      expectAllModern(srv, expected);
    });

    const NAMES: Array<[string, "tool" | "prompt" | "resource", string, string]> = [
      ["plain ASCII tool name", "tool", "get_weather", "get_weather"],
      ["non-ASCII tool name", "tool", "héllo", "=?base64?aMOpbGxv?="],
      ["tool name with leading spaces", "tool", "  padded", sentinel("  padded")],
      ["tool name with a trailing space", "tool", "trailing ", sentinel("trailing ")],
      ["tool name with a tab", "tool", "tab\there", sentinel("tab\there")],
      ["tool name that looks like the sentinel", "tool", "=?base64?Zm9v?=", sentinel("=?base64?Zm9v?=")],
      ["prompt name with inner spaces", "prompt", "code review", "code review"],
      ["non-ASCII prompt name", "prompt", "résumé", sentinel("résumé")],
      ["resource URI", "resource", "https://example.com/a?b=c#d", "https://example.com/a?b=c#d"],
      ["non-ASCII resource URI", "resource", "file:///tmp/東京.txt", sentinel("file:///tmp/東京.txt")],
      ["tool name that tries header injection", "tool", "evil\r\nX-Injected: 1", sentinel("evil\r\nX-Injected: 1")],
    ];

    it.each(NAMES)("Mcp-Name for a %s", async (_what, kind, name, header) => {
      const srv = await startModern();
      const { s } = await connect(srv);
      if (kind === "tool") await s.callTool(name, {});
      else if (kind === "prompt") await s.getPrompt(name);
      else await s.readResource(name);
      const r = srv.requests[1]!;
      expect(r.headers["mcp-name"]).toBe(header);
      expect(decodeHeader(r.headers["mcp-name"]!)).toBe(name);
      // The body keeps the name as it is.
      expect(params(r)[kind === "resource" ? "uri" : "name"]).toBe(name);
      expect(r.headers["x-injected"]).toBeUndefined();
      expectAllModern(srv);
    });
  });

  // -------------------------------------------------------------------------
  describe("x-mcp-header", () => {
    const DEPLOY = {
      name: "deploy",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          count: { type: "integer", "x-mcp-header": "Count" },
          dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
          a: { type: "object", properties: { b: { type: "string", "x-mcp-header": "B" } } },
          note: { type: "string" },
        },
      },
    };

    async function deployServer(): Promise<{ srv: RawHttpServer; s: ServerHandle; log: CapturingLogger }> {
      const srv = await startModern();
      srv.handle("tools/list", () => complete({ tools: [DEPLOY] }));
      const { s, log } = await connect(srv);
      expect(await s.listTools()).toEqual([DEPLOY]);
      return { srv, s, log };
    }

    const lastCall = (srv: RawHttpServer): RecordedRequest => posts(srv, "tools/call").at(-1)!;

    it("sends an MRTR retry with the headers and the arguments of its first leg, though the caller changed an annotated argument while the Handler was asked", async () => {
      const srv = await startModern();
      srv.handle("tools/list", () => complete({ tools: [DEPLOY] }));
      const form = { mode: "form", message: "Sure?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } };
      srv.handle("tools/call", (m) =>
        m.params?.["inputResponses"] === undefined
          ? { resultType: "input_required", inputRequests: { sure: { method: "elicitation/create", params: form } }, requestState: "s1" }
          : complete(text("deployed")),
      );
      const args: Record<string, unknown> = { region: "us-west1", count: 3 };
      const handler: Handler = {
        handleElicitation: () => {
          args.region = "eu-north1";
          return { action: "accept", content: { ok: true } };
        },
      };
      const { s } = await connect(srv, { handler });
      await s.listTools();
      expect(await s.callTool("deploy", args)).toEqual(complete(text("deployed")));
      const [first, retry] = posts(srv, "tools/call");
      expect(posts(srv, "tools/call")).toHaveLength(2);
      expect(paramHeaders(first!)).toEqual({ "mcp-param-region": "us-west1", "mcp-param-count": "3" });
      expect(paramHeaders(retry!)).toEqual(paramHeaders(first!));
      expect(params(retry!)["arguments"]).toEqual({ region: "us-west1", count: 3 });
      expect(params(retry!)["requestState"]).toBe("s1");
    });

    it("mirrors annotated arguments into Mcp-Param-* headers: strings as is, integers in decimal, booleans as true/false, nested properties too", async () => {
      const { srv, s } = await deployServer();
      const args = { region: "us-west1", count: 3, dry: false, a: { b: "deep" }, note: "not a header" };
      await s.callTool("deploy", args);
      const call = lastCall(srv);
      expect(paramHeaders(call)).toEqual({
        "mcp-param-region": "us-west1",
        "mcp-param-count": "3",
        "mcp-param-dry-run": "false",
        "mcp-param-b": "deep",
      });
      expect(params(call)["arguments"]).toEqual(args);

      await s.callTool("deploy", { region: "eu-north1", count: -7, dry: true });
      expect(paramHeaders(lastCall(srv))).toEqual({ "mcp-param-region": "eu-north1", "mcp-param-count": "-7", "mcp-param-dry-run": "true" });
      expectAllModern(srv);
    });

    it("Base64-encodes a value that is not plain ASCII or has outer whitespace", async () => {
      const { srv, s } = await deployServer();
      await s.callTool("deploy", { region: "東京", a: { b: " spaced" } });
      expect(paramHeaders(lastCall(srv))).toEqual({ "mcp-param-region": sentinel("東京"), "mcp-param-b": sentinel(" spaced") });
      expect(decodeHeader(lastCall(srv).headers["mcp-param-region"]!)).toBe("東京");
    });

    it("sends no header for an absent or null argument", async () => {
      const { srv, s } = await deployServer();
      await s.callTool("deploy", { region: null, dry: true, a: {} });
      expect(paramHeaders(lastCall(srv))).toEqual({ "mcp-param-dry-run": "true" });
      await s.callTool("deploy", {});
      expect(paramHeaders(lastCall(srv))).toEqual({});
      await s.callTool("deploy");
      expect(paramHeaders(lastCall(srv))).toEqual({});
      // Only tools/call carries them.
      for (const r of srv.requests.filter((x) => rpcMethod(x) !== "tools/call")) expect(paramHeaders(r)).toEqual({});
    });

    const props = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({ type: "object", properties, ...extra });

    const INVALID: Record<string, JsonObject> = {
      "empty-name": props({ r: { type: "string", "x-mcp-header": "" } }),
      "space-in-name": props({ r: { type: "string", "x-mcp-header": "My Region" } }),
      "colon-in-name": props({ r: { type: "string", "x-mcp-header": "Region:1" } }),
      "newline-in-name": props({ r: { type: "string", "x-mcp-header": "Re\ngion" } }),
      "not-a-string-name": props({ r: { type: "string", "x-mcp-header": 7 } }),
      "case-duplicates": props({ a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "REGION" } }),
      "on-number": props({ n: { type: "number", "x-mcp-header": "N" } }),
      "on-object": props({ o: { type: "object", "x-mcp-header": "O", properties: {} } }),
      "on-array": props({ l: { type: "array", "x-mcp-header": "L", items: { type: "string" } } }),
      "under-items": props({ l: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
      "under-oneOf": props({ v: { oneOf: [{ type: "string", "x-mcp-header": "V" }, { type: "integer" }] } }),
      "under-anyOf": props({ v: { anyOf: [{ type: "string", "x-mcp-header": "V" }, { type: "boolean" }] } }),
      "under-allOf": props({ v: { allOf: [{ type: "string", "x-mcp-header": "V" }] } }),
      "under-not": props({ v: { type: "string", not: { type: "string", "x-mcp-header": "V" } } }),
      "under-additionalProperties": props({}, { additionalProperties: { type: "string", "x-mcp-header": "Extra" } }),
      "under-$defs": props({ r: { $ref: "#/$defs/R" } }, { $defs: { R: { type: "string", "x-mcp-header": "R" } } }),
      "beside-$ref": props({ r: { $ref: "#/$defs/R", "x-mcp-header": "R" } }, { $defs: { R: { type: "string" } } }),
      "on-the-root": { type: "object", "x-mcp-header": "Root", properties: {} },
    };

    const VALID = [
      DEPLOY,
      { name: "plain", inputSchema: props({ q: { type: "string" } }) },
      { name: "token-chars", inputSchema: props({ t: { type: "string", "x-mcp-header": "Trace_Id.v2" } }) },
      // Data that looks like an annotation is not one; nor is a property named like it.
      { name: "data-lookalike", inputSchema: props({ d: { type: "object", default: { "x-mcp-header": "nope" } }, "x-mcp-header": { type: "string" } }) },
      // The same name in two tools is fine: uniqueness is per schema.
      { name: "deploy-2", inputSchema: props({ region: { type: "string", "x-mcp-header": "Region" } }) },
    ];

    it("drops every tool with an invalid annotation from listTools(), warns about each, and keeps the valid ones", async () => {
      const srv = await startModern();
      const invalid = Object.entries(INVALID).map(([name, inputSchema]) => ({ name, inputSchema }));
      // Interleaved, so that a drop cannot take its neighbours with it.
      const all = invalid.flatMap((tool, i) => (i < VALID.length ? [tool, VALID[i]!] : [tool]));
      srv.handle("tools/list", () => complete({ tools: all }));
      const { s, log } = await connect(srv);
      expect(await s.listTools()).toEqual(VALID);
      const warnings = log.warnings();
      for (const name of Object.keys(INVALID)) {
        expect(
          warnings.some((w) => w.includes(`"${name}"`)),
          `a warning about ${name} in ${JSON.stringify(warnings)}`,
        ).toBe(true);
      }
      for (const tool of VALID) expect(warnings.some((w) => w.includes(`"${tool.name}"`))).toBe(false);
      // The one page is filtered the same way.
      expect((await s.listToolsPage()).tools).toEqual(VALID);
    });

    it("names the first 20 tools a listing drops, across its pages, then the 100th and 1 000th: not a line each", async () => {
      const srv = await startModern();
      const perPage = 400;
      const broken = (page: number) => Array.from({ length: perPage }, (_, i) => ({ name: `bad-${page}-${i}`, inputSchema: props({ x: { type: "object", "x-mcp-header": "X" } }) }));
      srv.handle("tools/list", (m) => {
        const page = Number((m.params as { cursor?: string } | undefined)?.cursor ?? 1);
        return complete({ tools: [...broken(page), DEPLOY], ...(page < 3 ? { nextCursor: String(page + 1) } : {}) });
      });
      const { s, log } = await connect(srv);
      expect(await s.listTools()).toEqual([DEPLOY, DEPLOY, DEPLOY]);
      const lines = log.warnings("dropped tool");
      expect(lines).toHaveLength(22);
      expect(lines[19]).toContain('"bad-1-19"');
      expect(lines[20]).toContain("(100 so far in this listing)");
      expect(lines[21]).toContain("(1000 so far in this listing)");
      // The next listing counts afresh.
      await s.listTools();
      expect(log.warnings("dropped tool")).toHaveLength(44);
    });

    it("re-lists tools and retries once when a call gets 400 -32020 (HeaderMismatch)", async () => {
      const srv = await startModern();
      let listings = 0;
      srv.handle("tools/list", () => {
        listings += 1;
        const header = listings === 1 ? "Region" : "Zone";
        return complete({ tools: [{ name: "deploy", inputSchema: props({ region: { type: "string", "x-mcp-header": header } }) }] });
      });
      let calls = 0;
      srv.route(
        onMethod("tools/call", (req, res) => {
          calls += 1;
          if (calls === 1) sendJson(res, 400, rpcError(req, -32020, "Header mismatch: Mcp-Param-Zone is missing"));
          else sendJson(res, 200, { jsonrpc: "2.0", id: body(req)["id"], result: complete(text("deployed")) });
        }),
      );
      const { s } = await connect(srv);
      await s.listTools();
      expect(await s.callTool("deploy", { region: "us-west1" })).toEqual(complete(text("deployed")));

      const sequence = srv.requests.slice(1).map((r) => rpcMethod(r));
      expect(sequence).toEqual(["tools/list", "tools/call", "tools/list", "tools/call"]);
      const [first, retry] = posts(srv, "tools/call");
      expect(paramHeaders(first!)).toEqual({ "mcp-param-region": "us-west1" });
      expect(paramHeaders(retry!)).toEqual({ "mcp-param-zone": "us-west1" });
      expect(body(retry!)["id"]).not.toBe(body(first!)["id"]);
      expect(params(retry!)["arguments"]).toEqual({ region: "us-west1" });
      expectAllModern(srv);
    });

    it("retries only once: a second -32020 fails the call with kind rpc and that code", async () => {
      const srv = await startModern();
      srv.handle("tools/list", () => complete({ tools: [DEPLOY] }));
      srv.route(onMethod("tools/call", (req, res) => sendJson(res, 400, rpcError(req, -32020, "Header mismatch"))));
      const { s } = await connect(srv);
      await s.listTools();
      const err = await failure(s.callTool("deploy", { region: "us-west1" }));
      expect(err.kind).toBe("rpc");
      expect(err.code).toBe(-32020);
      expect(srv.requests.slice(1).map((r) => rpcMethod(r))).toEqual(["tools/list", "tools/call", "tools/list", "tools/call"]);
    });
    it("keeps the call's maxTotalTimeout across the re-listing and the retry", async () => {
      const srv = await startModern();
      let listings = 0;
      srv.handle("tools/list", () => {
        listings += 1;
        // The re-listing never comes: only the total bound can end the call.
        return listings === 1 ? complete({ tools: [DEPLOY] }) : undefined;
      });
      srv.route(onMethod("tools/call", (req, res) => sendJson(res, 400, rpcError(req, -32020, "Header mismatch"))));
      const { s } = await connect(srv);
      await s.listTools();
      const err = await failure(s.callTool("deploy", { region: "us-west1" }, { maxTotalTimeout: 300 }));
      expect(err.kind).toBe("timeout");
      expect(err.message).toContain("maxTotalTimeout");
      expect(srv.requests.slice(1).map((r) => rpcMethod(r))).toEqual(["tools/list", "tools/call", "tools/list"]);
    });
  });

  // -------------------------------------------------------------------------
  describe("resultType", () => {
    it("takes a missing resultType as complete, and complete as complete", async () => {
      const srv = await startModern();
      let withType = false;
      srv.handle("tools/call", () => (withType ? complete(text("typed")) : text("untyped")));
      srv.handle("tools/list", () => ({ tools: [ECHO_TOOL] }));
      const { s } = await connect(srv);
      expect(await s.callTool("echo", {})).toEqual(text("untyped"));
      expect(await s.listTools()).toEqual([ECHO_TOOL]);
      withType = true;
      expect(await s.callTool("echo", {})).toEqual(complete(text("typed")));
      expect(posts(srv, "tools/call")).toHaveLength(2);
    });

    it("fails with kind protocol, data the result, on a resultType it does not know", async () => {
      const srv = await startModern();
      const weird = { ...text("?"), resultType: "weird" };
      srv.handle("tools/call", () => weird);
      srv.handle("tools/list", () => ({ resultType: "weird", tools: [] }));
      const { s } = await connect(srv);
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("protocol");
      expect(err.serverId).toBe("a");
      expect(err.data).toEqual(weird);
      const listErr = await failure(s.listTools());
      expect(listErr.kind).toBe("protocol");
      expect(listErr.data).toEqual({ resultType: "weird", tools: [] });
      // Not retried.
      expect(posts(srv, "tools/call")).toHaveLength(1);
      expect(posts(srv, "tools/list")).toHaveLength(1);
    });

    it("fails with kind protocol when tools/list answers input_required", async () => {
      const srv = await startModern();
      const asked = {
        resultType: "input_required",
        inputRequests: { r: { method: "roots/list" } },
        requestState: "s",
      };
      srv.handle("tools/list", () => asked);
      const roots: unknown[] = [];
      const { s } = await connect(srv, { handler: { listRoots: (ctx) => (roots.push(ctx), { roots: [] }) } });
      const err = await failure(s.listTools());
      expect(err.kind).toBe("protocol");
      expect(err.data).toEqual(asked);
      expect(roots).toEqual([]);
      expect(posts(srv, "tools/list")).toHaveLength(1);
    });

    it("returns tool schemas and structuredContent exactly as received, fetching no $ref", async () => {
      const srv = await startModern();
      const origin = new URL(srv.url).origin;
      const tool = {
        name: "search",
        title: "Search",
        inputSchema: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          $id: `${origin}/schemas/search-input.json`,
          type: "object",
          $defs: { query: { type: "string", minLength: 1 }, page: { $ref: `${origin}/schemas/page.json` } },
          properties: {
            q: { $ref: "#/$defs/query" },
            page: { $ref: "#/$defs/page" },
            filters: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false },
          },
          required: ["q"],
          unevaluatedProperties: false,
        },
        outputSchema: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "array",
          items: { $ref: `${origin}/schemas/hit.json` },
        },
        annotations: { readOnlyHint: true },
        _meta: { "example.com/extra": [1, { deep: null }] },
      };
      const result = {
        resultType: "complete",
        content: [{ type: "text", text: "[]" }],
        structuredContent: [{ id: 1, score: 0.5, tags: ["a"], extra: null }, 2, "three", [], {}],
        _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
      };
      srv.handle("tools/list", () => complete({ tools: [tool] }));
      srv.handle("tools/call", () => result);
      const { s } = await connect(srv);
      const tools = await s.listTools();
      expect(tools).toStrictEqual([tool]);
      expect(await s.callTool("search", { q: "x" })).toStrictEqual(result);
      expect(srv.requests.map((r) => `${r.method} ${r.path} ${rpcMethod(r) ?? ""}`)).toEqual([
        "POST /mcp server/discover",
        "POST /mcp tools/list",
        "POST /mcp tools/call",
      ]);
    });
  });

  // -------------------------------------------------------------------------
  describe("MRTR over HTTP", () => {
    const FORM = {
      mode: "form",
      message: "Who are you?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    };
    const KEY = "ask name/1 ü";
    // Opaque, with characters that a careless re-encoding would change.
    const STATE = 'v1.eyJhIjoxfQ==.+/_-~ é "quoted" \\back\\ \u2028 tail ';

    function elicitingHandler(seen: unknown[]): Handler {
      return {
        handleElicitation: (p, ctx) => {
          seen.push({ params: p, era: ctx.era, mode: ctx.mode, serverId: ctx.serverId });
          return { action: "accept", content: { name: "ada" } };
        },
      };
    }

    it("answers an input_required JSON result and retries as a new POST with the original params, inputResponses and requestState", async () => {
      const srv = await startModern();
      srv.handle("tools/call", (m) =>
        m.params?.["inputResponses"] === undefined
          ? { resultType: "input_required", inputRequests: { [KEY]: { method: "elicitation/create", params: FORM } }, requestState: STATE }
          : complete(text("hello ada")),
      );
      const seen: unknown[] = [];
      const { s } = await connect(srv, { handler: elicitingHandler(seen) });
      const args = { greeting: "hi", n: 2 };
      expect(await s.callTool("greet", args)).toEqual(complete(text("hello ada")));

      expect(seen).toEqual([{ params: FORM, era: "modern", mode: "form", serverId: "a" }]);
      const [first, retry] = posts(srv, "tools/call");
      expect(posts(srv, "tools/call")).toHaveLength(2);
      expect(body(retry!)["id"]).not.toBe(body(first!)["id"]);
      expect(params(retry!)["name"]).toBe("greet");
      expect(params(retry!)["arguments"]).toEqual(args);
      expect(params(retry!)["inputResponses"]).toStrictEqual({ [KEY]: { action: "accept", content: { name: "ada" } } });
      expect(params(retry!)["requestState"]).toBe(STATE);
      expect(retry!.body).toContain(JSON.stringify(STATE));
      expect(retry!.headers["mcp-name"]).toBe("greet");
      expect(Object.keys(params(retry!)).sort()).toEqual(["_meta", "arguments", "inputResponses", "name", "requestState"]);
      expect(params(first!)).not.toHaveProperty("inputResponses");
      expect(params(first!)).not.toHaveProperty("requestState");
      const capabilities = { elicitation: { form: {} } };
      expectAllModern(srv, capabilities);
    });

    it("takes input_required as the last event of an SSE stream that carried progress first; no requestState when none was sent", async () => {
      const srv = await startModern();
      srv.handle("tools/call", (m) => {
        if (m.params?.["inputResponses"] !== undefined) return complete(text("done"));
        const token = (m.params?.["_meta"] as JsonObject)["progressToken"];
        return viaSse(
          { resultType: "input_required", inputRequests: { [KEY]: { method: "elicitation/create", params: FORM } } },
          { before: [{ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2, message: "halfway" } }] },
        );
      });
      const seen: unknown[] = [];
      const progress: Progress[] = [];
      const { s } = await connect(srv, { handler: elicitingHandler(seen) });
      expect(await s.callTool("greet", { x: 1 }, { onProgress: (p) => progress.push(p) })).toEqual(complete(text("done")));

      expect(progress).toEqual([{ progress: 1, total: 2, message: "halfway" }]);
      expect(seen).toHaveLength(1);
      const [first, retry] = posts(srv, "tools/call");
      expect(params(retry!)).not.toHaveProperty("requestState");
      expect(params(retry!)["inputResponses"]).toStrictEqual({ [KEY]: { action: "accept", content: { name: "ada" } } });
      expect(params(retry!)["arguments"]).toEqual({ x: 1 });
      // A new request, so a new progress token.
      expect(meta(retry!)["progressToken"]).toBe(body(retry!)["id"]);
      expect(meta(retry!)["progressToken"]).not.toBe(meta(first!)["progressToken"]);
      expectAllModern(srv, { elicitation: { form: {} } });
    });

    it("keys inputResponses exactly as the latest round's inputRequests and echoes each round's requestState", async () => {
      const srv = await startModern();
      srv.handle("tools/call", (m) => {
        const state = m.params?.["requestState"];
        if (state === undefined) {
          return { resultType: "input_required", inputRequests: { "form-1": { method: "elicitation/create", params: FORM } }, requestState: "round-1" };
        }
        if (state === "round-1") {
          return {
            resultType: "input_required",
            inputRequests: { "roots-2": { method: "roots/list" }, "form-2": { method: "elicitation/create", params: FORM } },
            requestState: "round-2",
          };
        }
        return complete(text(`finished after ${JSON.stringify(state)}`));
      });
      const seen: unknown[] = [];
      const { s } = await connect(srv, {
        handler: { ...elicitingHandler(seen), listRoots: () => ({ roots: [{ uri: "file:///home/ada", name: "home" }] }) },
      });
      expect(await s.callTool("greet", {})).toEqual(complete(text('finished after "round-2"')));
      const calls = posts(srv, "tools/call");
      expect(calls).toHaveLength(3);
      expect(params(calls[1]!)["inputResponses"]).toStrictEqual({ "form-1": { action: "accept", content: { name: "ada" } } });
      expect(params(calls[1]!)["requestState"]).toBe("round-1");
      expect(params(calls[2]!)["inputResponses"]).toStrictEqual({
        "roots-2": { roots: [{ uri: "file:///home/ada", name: "home" }] },
        "form-2": { action: "accept", content: { name: "ada" } },
      });
      expect(params(calls[2]!)["requestState"]).toBe("round-2");
      expect(new Set(calls.map((c) => body(c)["id"])).size).toBe(3);
    });

    it.each(["resources/read", "prompts/get"] as const)("runs MRTR on %s too, retrying with the original params and Mcp-Name", async (method) => {
      const srv = await startModern();
      srv.handle(method, (m) => {
        if (m.params?.["inputResponses"] === undefined) {
          return { resultType: "input_required", inputRequests: { k: { method: "elicitation/create", params: FORM } }, requestState: "st" };
        }
        return method === "resources/read" ? complete({ contents: [{ uri: m.params?.["uri"], text: "secret" }] }) : complete({ messages: [] });
      });
      const { s } = await connect(srv, { handler: elicitingHandler([]) });
      if (method === "resources/read") await s.readResource("file:///r.txt");
      else await s.getPrompt("p", { a: "b" });
      const [first, retry] = posts(srv, method);
      expect(retry).toBeDefined();
      const { _meta: _m1, ...original } = params(first!);
      const { _meta: _m2, inputResponses, requestState, ...again } = params(retry!);
      expect(again).toEqual(original);
      expect(inputResponses).toEqual({ k: { action: "accept", content: { name: "ada" } } });
      expect(requestState).toBe("st");
      expect(retry!.headers["mcp-name"]).toBe(first!.headers["mcp-name"]);
      expect(retry!.headers["mcp-method"]).toBe(method);
    });
  });

  // -------------------------------------------------------------------------
  describe("cancellation closes the response stream", () => {
    it("an aborted call rejects with kind cancelled, its connection closes, and no notifications/cancelled is sent", async () => {
      const srv = await startModern();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv);
      const controller = new AbortController();
      const call = s.callTool("slow", {}, { signal: controller.signal });
      const p = await srv.nextPending("tools/call");
      p.write({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "none", progress: 1 } });
      const reason = new Error("user pressed stop");
      controller.abort(reason);
      const err = await failure(call);
      expect(err.kind).toBe("cancelled");
      expect(err.serverId).toBe("a");
      await p.closed;
      // The connection goes on; nothing but requests was ever sent.
      await s.listTools();
      expect(posts(srv, "notifications/cancelled")).toEqual([]);
      expectAllModern(srv);
    });

    it("a timed-out call rejects with kind timeout, its connection closes, and no notifications/cancelled is sent", async () => {
      const srv = await startModern();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv);
      const call = s.callTool("slow", {}, { timeout: 200 });
      const p = await srv.nextPending("tools/call");
      const err = await failure(call);
      expect(err.kind).toBe("timeout");
      await p.closed;
      await s.listTools();
      expect(posts(srv, "notifications/cancelled")).toEqual([]);
      expectAllModern(srv);
    });

    it("an abort while the Handler answers an input request ends the call with kind cancelled, aborts ctx.signal and sends no retry", async () => {
      const srv = await startModern();
      srv.handle("tools/call", () => ({
        resultType: "input_required",
        inputRequests: { k: { method: "elicitation/create", params: { mode: "form", message: "m", requestedSchema: { type: "object", properties: {} } } } },
        requestState: "st",
      }));
      const asked = deferred<AbortSignal>();
      const aborted = deferred<void>();
      const handler: Handler = {
        handleElicitation: (_p, ctx) =>
          new Promise((_resolve, reject) => {
            ctx.signal.addEventListener("abort", () => {
              aborted.resolve();
              reject(new Error("aborted"));
            });
            asked.resolve(ctx.signal);
          }),
      };
      const { s } = await connect(srv, { handler });
      const controller = new AbortController();
      const call = s.callTool("slow", {}, { signal: controller.signal });
      await asked.promise;
      controller.abort();
      expect((await failure(call)).kind).toBe("cancelled");
      await aborted.promise;
      await s.listTools();
      expect(posts(srv, "tools/call")).toHaveLength(1);
      expectAllModern(srv, { elicitation: { form: {} } });
    });

    it("a stream that ends before the answer fails the call with kind transport, without resuming (no GET, no Last-Event-ID)", async () => {
      const srv = await startModern();
      srv.handle("tools/call", () => undefined);
      const { s } = await connect(srv);
      const call = s.callTool("echo", {});
      const p = await srv.nextPending("tools/call");
      p.write({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }, { id: "1" });
      p.res.end();
      expect((await failure(call)).kind).toBe("transport");
      await s.listTools();
      expect(srv.requests.filter((r) => r.method !== "POST")).toEqual([]);
      expect(posts(srv, "tools/call")).toHaveLength(1);
      expectAllModern(srv);
    });

    it("an aborted list request closes its stream the same way", async () => {
      const srv = await startModern();
      srv.handle("tools/list", () => undefined);
      const { s } = await connect(srv);
      const controller = new AbortController();
      const list = s.listTools({ signal: controller.signal });
      const p = await srv.nextPending("tools/list");
      controller.abort();
      expect((await failure(list)).kind).toBe("cancelled");
      await p.closed;
      await s.callTool("echo", {});
      expect(posts(srv, "notifications/cancelled")).toEqual([]);
      expectAllModern(srv);
    });
  });

  // -------------------------------------------------------------------------
  describe("errors and what servers must not send", () => {
    it("turns a 404 with a JSON-RPC -32601 body into kind rpc with that code", async () => {
      const srv = await startModern();
      srv.route(onMethod("tools/call", (req, res) => sendJson(res, 404, rpcError(req, -32601, "Method not found"))));
      const { s } = await connect(srv);
      const err = await failure(s.callTool("echo", {}));
      expect(err.kind).toBe("rpc");
      expect(err.code).toBe(-32601);
      expect(err.serverId).toBe("a");
      // The connection is fine: it was one request's error.
      expect(await s.listTools()).toEqual([ECHO_TOOL]);
    });

    it.each([
      ["roots/list", undefined],
      ["elicitation/create", FORM_REQUEST()],
      ["ping", undefined],
    ] as const)("does not answer a %s request on a call's SSE stream, warns, and completes the call", async (method, requestParams) => {
      const srv = await startModern();
      srv.handle("tools/call", () => undefined);
      const calls: string[] = [];
      const handler: Handler = {
        listRoots: () => (calls.push("listRoots"), { roots: [] }),
        handleElicitation: () => (calls.push("handleElicitation"), { action: "decline" }),
      };
      const { s, log } = await connect(srv, { handler });
      const call = s.callTool("echo", {});
      const p = await srv.nextPending("tools/call");
      p.write({ jsonrpc: "2.0", id: "srv-1", method, ...(requestParams ? { params: requestParams } : {}) });
      p.respond(complete(text("ok")));
      expect(await call).toEqual(complete(text("ok")));
      await s.listTools();
      expect(calls).toEqual([]);
      expect(srv.requests.filter((r) => body(r)["id"] === "srv-1")).toEqual([]);
      expect(log.warnings(method).length).toBeGreaterThan(0);
      expectAllModern(srv, { elicitation: { form: {} }, roots: {} });
    });
  });

  // -------------------------------------------------------------------------
  describe("legacy-only methods", () => {
    const CALLS: Array<[string, (s: ServerHandle) => Promise<unknown>]> = [
      ["ping", (s) => s.ping()],
      ["subscribeResource", (s) => s.subscribeResource("file:///a")],
      ["unsubscribeResource", (s) => s.unsubscribeResource("file:///a")],
    ];

    it.each(CALLS)("%s fails locally with kind unsupported and sends nothing", async (_what, use) => {
      // Even a server declaring logging and subscriptions: the version has no such methods.
      const srv = await startModern({ ...CAPABILITIES, logging: {}, resources: { subscribe: true } });
      const { s } = await connect(srv);
      const before = srv.requests.length;
      const err = await failure(use(s));
      expect(err.kind).toBe("unsupported");
      expect(err.serverId).toBe("a");
      expect(err.message).toContain(MODERN);
      await s.listTools();
      expect(srv.requests.slice(before).map((r) => rpcMethod(r))).toEqual(["tools/list"]);
    });
  });

  // -------------------------------------------------------------------------
  describe("per-request log level", () => {
    it("puts io.modelcontextprotocol/logLevel in _meta only for a call that asks", async () => {
      const srv = await startModern();
      const { s } = await connect(srv);
      await s.callTool("echo", {}, { logLevel: "info" });
      await s.callTool("echo", {});
      await s.listTools();
      const [asked, plain] = posts(srv, "tools/call");
      expect(meta(asked!)[LOG_LEVEL]).toBe("info");
      expect(meta(plain!)).not.toHaveProperty(LOG_LEVEL);
      expect(meta(posts(srv, "tools/list")[0]!)).not.toHaveProperty(LOG_LEVEL);
      expect(meta(posts(srv, "server/discover")[0]!)).not.toHaveProperty(LOG_LEVEL);
    });

    it("applies connect's logLevel to every request, a call's own level winning", async () => {
      const srv = await startModern();
      const { s } = await connect(srv, { options: { logLevel: "debug" } });
      await s.listTools();
      await s.callTool("echo", {});
      await s.readResource("file:///a");
      await s.callTool("echo", {}, { logLevel: "error" });
      const after = srv.requests.slice(1);
      expect(after.map((r) => meta(r)[LOG_LEVEL])).toEqual(["debug", "debug", "debug", "error"]);
    });

    it("delivers a notifications/message on the call's SSE stream to handleLog and the subscribers", async () => {
      const srv = await startModern();
      const entry = { level: "warning", logger: "db", data: { slow: "query" } };
      srv.handle("tools/call", () => viaSse(complete(text("ok")), { before: [{ jsonrpc: "2.0", method: "notifications/message", params: entry }] }));
      const logged = deferred<unknown[]>();
      const heard = deferred<ServerNotification>();
      const { client, s } = await connect(srv, { handler: { handleLog: (level, p, ctx) => logged.resolve([level, p, ctx]) } });
      client.onNotification((n) => heard.resolve(n));
      expect(await s.callTool("echo", {}, { logLevel: "info" })).toEqual(complete(text("ok")));
      expect(await logged.promise).toEqual(["warning", entry, { client: "t", serverId: "a", era: "modern" }]);
      expect(await heard.promise).toEqual({ serverId: "a", method: "notifications/message", params: entry });
    });
  });

  // -------------------------------------------------------------------------
  describe("listen()", () => {
    it("POSTs subscriptions/listen, resolves on the acknowledgement, delivers list changes, and closes its stream on close()", async () => {
      const srv = await startModern();
      srv.handle("subscriptions/listen", () => undefined);
      const heard: ServerNotification[] = [];
      const changed = deferred<ServerNotification>();
      const handled: string[] = [];
      const { client, s } = await connect(srv, { handler: { handleNotification: (method) => void handled.push(method) } });
      client.onNotification((n) => {
        heard.push(n);
        if (n.method === "notifications/tools/list_changed") changed.resolve(n);
      });

      const listening = s.listen({ toolsListChanged: true, promptsListChanged: true });
      const p = await srv.nextPending("subscriptions/listen");
      expect(p.request.headers["mcp-method"]).toBe("subscriptions/listen");
      expect(params(p.request)["notifications"]).toEqual({ toolsListChanged: true, promptsListChanged: true });
      expectModernRequest(p.request);

      // The server honours only part of the filter.
      p.write({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: p.id } },
      });
      const sub = await listening;
      expect(sub.honoured).toEqual({ toolsListChanged: true });

      const change = { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUBSCRIPTION_ID]: p.id } } };
      p.write(change);
      expect(await changed.promise).toEqual({ serverId: "a", method: "notifications/tools/list_changed", params: change.params });
      // The acknowledgement is the subscription's own business.
      expect(heard.map((n) => n.method)).toEqual(["notifications/tools/list_changed"]);
      expect(handled).toEqual(["notifications/tools/list_changed"]);

      await sub.close();
      await p.closed;
      expect(await sub.ended).toBeUndefined();
      await s.listTools();
      expect(posts(srv, "notifications/cancelled")).toEqual([]);
      expectAllModern(srv);
    });
  });
});

/** A form elicitation request's params, as a (forbidden) server request would carry them. */
function FORM_REQUEST(): JsonObject {
  return { mode: "form", message: "m", requestedSchema: { type: "object", properties: {} } };
}
