// Traces (issue 25): with `openTelemetry()` as the Client's `tracing`, every request is a client
// span named after the MCP conventions, its MRTR rounds and what the Handler does for them are
// children, and the W3C trace context of the span reaches the server in `params._meta`, in both
// eras. A host's own `meta` keys arrive beside it, and the keys the protocol reserves are refused
// before anything is sent. Against a real server process (tracing-server.mjs) that records the
// `_meta` of every request it receives, with the SDK's in-memory exporter.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { context, propagation, trace, type Span } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, ClientError, InvalidArgumentError, memoryStore, type Handler, type Tracing } from "../../src/node.js";
import { openTelemetry } from "../../src/tracing/opentelemetry.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { startRawHttp, type JsonObject } from "../helpers/raw-http.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { TASKS_EXTENSION, done, scriptTasks } from "../helpers/modern-tasks.js";
import { approve, handshakeDone, startOAuthServers } from "../helpers/oauth-server.js";

const SERVER = fileURLToPath(new URL("../fixtures/tracing-server.mjs", import.meta.url));
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

interface Received {
  method: string;
  name?: string;
  meta: Record<string, unknown> | null;
}

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const folders: string[] = [];

beforeAll(() => {
  // Children follow their parent across awaits only with a context manager, as in a host.
  context.setGlobalContextManager(contextManager.enable());
  // What an SDK's start-up does: W3C trace context and baggage.
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
});
afterAll(() => {
  context.disable();
  propagation.disable();
});
afterEach(() => {
  exporter.reset();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function logFile(): string {
  const folder = mkdtempSync(join(tmpdir(), "conduit-tracing-"));
  folders.push(folder);
  return join(folder, "server.log");
}

function received(file: string): Received[] {
  return readFileSync(file, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Received);
}

const handler: Handler = {
  handleElicitation: () => {
    // What the Handler does is traced by the host; it nests under the round.
    trace.getTracer("host").startActiveSpan("ask the person", (span: Span) => span.end());
    return { action: "accept", content: { name: "Ada" } };
  },
};

async function connected(file: string, legacy = false, tracing = true): Promise<Client> {
  const client = track(new Client({ name: "traced-host", version: "1", handler, logger: capturingLogger(), ...(tracing ? { tracing: openTelemetry({ tracerProvider: provider }) } : {}) }));
  await client.connect("srv", { command: process.execPath, args: [SERVER, "--log", file, ...(legacy ? ["--legacy"] : [])] });
  return client;
}

/**
 * Calls `ask` (one question to the person) with the host's own tracer registered globally, as
 * the Handler's spans need, and undoes it after; the server's log file is returned.
 */
async function askWithHostTracer(legacy: boolean): Promise<string> {
  const file = logFile();
  const client = await connected(file, legacy);
  trace.setGlobalTracerProvider(provider);
  try {
    const result = await client.server("srv")!.callTool("ask", {});
    expect(result.content).toEqual([{ type: "text", text: "hello Ada" }]);
  } finally {
    trace.disable();
  }
  return file;
}

const spanNamed = (name: string): ReadableSpan => {
  const found = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(found, `spans named ${name}`).toHaveLength(1);
  return found[0]!;
};

describe("tracing", () => {
  for (const legacy of [false, true]) {
    it(`makes a client span per request and sends its trace context in _meta (${legacy ? "2025-11-25" : "2026-07-28"})`, async () => {
      const file = logFile();
      const client = await connected(file, legacy);
      const result = await client.server("srv")!.callTool("echo", { text: "hi" });
      expect(result.content).toEqual([{ type: "text", text: "hi" }]);

      const span = spanNamed("tools/call echo");
      expect(span.kind).toBe(2); // SpanKind.CLIENT
      expect(span.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "echo",
        "gen_ai.operation.name": "execute_tool",
        "mcp.protocol.version": legacy ? "2025-11-25" : "2026-07-28",
        "network.transport": "pipe",
        "conduit.server.id": "srv",
      });
      const call = received(file).find((entry) => entry.method === "tools/call")!;
      const parent = TRACEPARENT.exec(String(call.meta?.traceparent));
      expect(parent, "a W3C traceparent in _meta").not.toBeNull();
      expect(parent![1]).toBe(span.spanContext().traceId);
      expect(parent![2]).toBe(span.spanContext().spanId);
      // The modern envelope is still there beside it.
      if (!legacy) expect(call.meta?.["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
    });
  }

  it("sends the trace context in the body's _meta over Streamable HTTP too", async () => {
    const srv = track(await startRawHttp({ session: false, strictSession: false }));
    const complete = (result: JsonObject): JsonObject => ({ resultType: "complete", ...result });
    srv.handle("server/discover", () => complete({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, _meta: { "io.modelcontextprotocol/serverInfo": { name: "http", version: "1" } } }));
    srv.handle("tools/call", () => complete({ content: [{ type: "text", text: "ok" }] }));
    const client = track(new Client({ name: "traced-host", version: "1", logger: capturingLogger(), tracing: openTelemetry({ tracerProvider: provider }) }));
    await client.connect("web", { url: srv.url });
    await client.server("web")!.callTool("echo", {}, { meta: { "com.example/tenant": "acme" } });
    const span = spanNamed("tools/call echo");
    expect(span.attributes["network.transport"]).toBe("tcp");
    const posted = srv.requests.map((request) => request.json as { method?: string; params?: { _meta?: Record<string, unknown> } }).find((body) => body?.method === "tools/call")!;
    expect(String(posted.params?._meta?.traceparent)).toContain(span.spanContext().spanId);
    expect(posted.params?._meta?.["com.example/tenant"]).toBe("acme");
  });

  it("a request made inside a host's span is its child, and carries the host's trace", async () => {
    const file = logFile();
    const client = await connected(file);
    const host = provider.getTracer("host");
    await host.startActiveSpan("agent turn", async (turn) => {
      await client.server("srv")!.listTools();
      turn.end();
    });
    const turn = spanNamed("agent turn");
    const ping = spanNamed("tools/list");
    expect(ping.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(ping.spanContext().traceId).toBe(turn.spanContext().traceId);
    const sent = received(file).find((entry) => entry.method === "tools/list")!;
    expect(String(sent.meta?.traceparent)).toContain(turn.spanContext().traceId);
  });

  it("an MRTR round is a child span of its request, each input request a child of the round, and the Handler's work nests under it", async () => {
    const file = await askWithHostTracer(false);
    const call = spanNamed("tools/call ask");
    const round = spanNamed("mcp.input_round");
    const input = spanNamed("elicitation/create");
    const asked = spanNamed("ask the person");
    expect(round.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(round.attributes["mcp.input_requests"]).toBe(1);
    expect(input.parentSpanContext?.spanId).toBe(round.spanContext().spanId);
    expect(input.kind).toBe(0); // SpanKind.INTERNAL: the client's own step
    expect(asked.parentSpanContext?.spanId).toBe(input.spanContext().spanId);
    // Both legs of the call carried the call's context.
    const legs = received(file).filter((entry) => entry.method === "tools/call");
    expect(legs).toHaveLength(2);
    for (const leg of legs) expect(String(leg.meta?.traceparent)).toContain(call.spanContext().spanId);
  });

  it("a modern task's polls are spans with the task's id, each carrying its own trace context", async () => {
    const raw = track(await startRawStdio());
    raw.handle("server/discover", () => ({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-tasks", version: "1" } },
    }));
    const script = scriptTasks(raw, [{ status: "working" }, done("finished")]);
    const client = track(new Client({ name: "traced-host", version: "1", logger: capturingLogger(), tracing: openTelemetry({ tracerProvider: provider }) }));
    const server = await client.connect("tasks", raw.target);
    const result = await server.callTool("slow", {});
    expect(result.content).toEqual([{ type: "text", text: "finished" }]);
    const polls = exporter.getFinishedSpans().filter((span) => span.name === "tasks/get");
    expect(polls.length).toBe(script.gets.length);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (const poll of polls) expect(poll.attributes).toMatchObject({ "mcp.method.name": "tasks/get", "conduit.task.id": "task-1" });
    const sent = script.gets.map((get) => String((get.message.params?._meta as Record<string, unknown> | undefined)?.traceparent));
    expect(new Set(sent).size).toBe(sent.length);
    for (const poll of polls) expect(sent).toContain(`00-${poll.spanContext().traceId}-${poll.spanContext().spanId}-01`);
    expect(spanNamed("tools/call slow").attributes["gen_ai.tool.name"]).toBe("slow");
  });

  it("a legacy task's polls and its tasks/result are spans with the task's id, each carrying its own trace context", async () => {
    const capabilities = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
    const srv = track(await startRawHttp({ protocolVersion: "2025-11-25", capabilities }));
    const task = (status: string): JsonObject => ({ taskId: "t-1", status, createdAt: new Date().toISOString(), ttl: 60_000, pollInterval: 10 });
    let gets = 0;
    srv.handle("tools/list", () => ({ tools: [{ name: "job", inputSchema: { type: "object" }, execution: { taskSupport: "required" } }] }));
    srv.handle("tools/call", () => ({ task: task("working") }));
    srv.handle("tasks/get", () => task(++gets < 2 ? "working" : "completed"));
    srv.handle("tasks/result", () => ({ content: [{ type: "text", text: "legacy done" }], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t-1" } } }));
    const client = track(new Client({ name: "traced-host", version: "1", logger: capturingLogger(), tracing: openTelemetry({ tracerProvider: provider }) }));
    const server = await client.connect("jobs", { url: srv.url });
    expect(server.protocolVersion).toBe("2025-11-25");
    expect((await server.callTool("job", {})).content).toEqual([{ type: "text", text: "legacy done" }]);
    const spans = exporter.getFinishedSpans().filter((span) => span.name === "tasks/get" || span.name === "tasks/result");
    expect(spans.map((span) => span.name).sort()).toEqual([...Array(gets).fill("tasks/get"), "tasks/result"].sort());
    for (const span of spans) expect(span.attributes).toMatchObject({ "mcp.method.name": span.name, "conduit.task.id": "t-1", "mcp.protocol.version": "2025-11-25" });
    const sent = srv.requests
      .map((request) => request.json as { method?: string; params?: { _meta?: Record<string, unknown> } } | undefined)
      .filter((message) => message?.method === "tasks/get" || message?.method === "tasks/result")
      .map((message) => String(message?.params?._meta?.traceparent));
    expect(new Set(sent).size).toBe(spans.length);
    for (const span of spans) expect(sent).toContain(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it("a legacy server's request is a server span that continues the server's trace, and the Handler's work nests under it", async () => {
    await askWithHostTracer(true);
    const call = spanNamed("tools/call ask");
    const answered = spanNamed("elicitation/create");
    const asked = spanNamed("ask the person");
    expect(answered.kind).toBe(1); // SpanKind.SERVER
    expect(answered.attributes).toMatchObject({ "mcp.method.name": "elicitation/create", "mcp.protocol.version": "2025-11-25", "conduit.server.id": "srv" });
    // The server's request named its own span, a child of the call: the answer continues it.
    expect(answered.spanContext().traceId).toBe(call.spanContext().traceId);
    expect(answered.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(asked.parentSpanContext?.spanId).toBe(answered.spanContext().spanId);
    expect(answered.status.code).not.toBe(2);
  });

  it("a legacy server's request the Handler fails on is a failed span, and the server is still answered with the error", async () => {
    const file = logFile();
    const failing: Handler = { handleElicitation: () => { throw new Error("the person's window crashed"); } };
    const client = track(new Client({ name: "traced-host", version: "1", handler: failing, logger: capturingLogger(), tracing: openTelemetry({ tracerProvider: provider }) }));
    await client.connect("srv", { command: process.execPath, args: [SERVER, "--log", file, "--legacy"] });
    // The fixture reads the answer's content: an error response has none.
    expect((await client.server("srv")!.callTool("ask", {})).content).toEqual([{ type: "text", text: "hello undefined" }]);
    const answered = spanNamed("elicitation/create");
    expect(answered.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(answered.attributes["error.type"]).toBe("handler");
  });

  it("OAuth's discovery, authorization and refresh are spans, the refresh a child of the request that met the 401", async () => {
    const servers = await startOAuthServers();
    const store = memoryStore();
    const auth = { redirectUri: "http://127.0.0.1:7777/callback", store, authorize: (url: URL) => approve(url) };
    const client = track(new Client({ name: "traced-host", version: "1", logger: capturingLogger(), tracing: openTelemetry({ tracerProvider: provider }) }));
    const server = await client.connect("p", { url: servers.resourceUrl, auth });
    await handshakeDone(servers);
    expect(spanNamed("oauth.discovery").attributes["conduit.server.id"]).toBe("p");
    expect(spanNamed("oauth.authorization").attributes["conduit.oauth.grant"]).toBe("authorization_code");
    expect(exporter.getFinishedSpans().filter((span) => span.name === "oauth.refresh")).toHaveLength(0);

    servers.revokeAll();
    expect((await server.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-2" }]);
    const refresh = spanNamed("oauth.refresh");
    expect(refresh.parentSpanContext?.spanId).toBe(spanNamed("tools/call whoami").spanContext().spanId);
    expect(refresh.status.code).not.toBe(2);
    // No token, code or secret in any span.
    const attributes = JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes));
    expect(attributes).not.toMatch(/tok-\d/);
  });

  it("records a failed request and a tool's own error on the span", async () => {
    const file = logFile();
    const client = await connected(file);
    const server = client.server("srv")!;
    const broken = await server.callTool("broken", {});
    expect(broken.isError).toBe(true);
    expect(spanNamed("tools/call broken").attributes["error.type"]).toBe("tool_error");
    expect(spanNamed("tools/call broken").status.code).toBe(2); // SpanStatusCode.ERROR

    const missing = await server.request("prompts/get", { name: "nope" }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ClientError);
    // Refused before anything was sent (the server declared no prompts): no span, nothing sent.
    expect(exporter.getFinishedSpans().filter((span) => span.name.startsWith("prompts/get"))).toHaveLength(0);

    const unknown = await server.callTool("no-such-tool", {}).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ClientError);
    const failed = spanNamed("tools/call no-such-tool");
    expect(failed.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602", "conduit.error.kind": "rpc" });
    expect(failed.status.code).toBe(2);
  });

  it("without tracing, a request carries no trace context and no span is made", async () => {
    const file = logFile();
    const client = await connected(file, false, false);
    await client.server("srv")!.callTool("echo", { text: "plain" });
    const call = received(file).find((entry) => entry.method === "tools/call")!;
    expect(call.meta).not.toHaveProperty("traceparent");
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("holds a host's Tracing that misbehaves to nothing: a result, a throw or no call of its own changes no answer", async () => {
    const misbehaving: Tracing[] = [
      { request: (_request, send) => (void send({}).catch(() => {}), Promise.resolve("not the result") as never), step: () => { throw new Error("a bug in the host's step"); } },
      { request: () => { throw new Error("a bug in the host's request"); }, step: () => Promise.resolve(undefined as never) },
      { request: (_request, send) => send([] as never), step: (_step, run) => run().then(() => 42 as never) },
    ];
    for (const tracing of misbehaving) {
      for (const legacy of [false, true]) {
        const file = logFile();
        const client = track(new Client({ name: "traced-host", version: "1", handler, logger: capturingLogger(), tracing }));
        await client.connect("srv", { command: process.execPath, args: [SERVER, "--log", file, ...(legacy ? ["--legacy"] : [])] });
        const server = client.server("srv")!;
        expect((await server.callTool("echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
        expect((await server.callTool("ask", {})).content).toEqual([{ type: "text", text: "hello Ada" }]);
        await client.close();
      }
    }
  });

  it("refuses a tracing option that is not a Tracing", () => {
    expect(() => new Client({ name: "h", version: "1", tracing: {} as never })).toThrow(InvalidArgumentError);
  });
});

describe("a call's own _meta keys", () => {
  for (const legacy of [false, true]) {
    it(`reach the server beside the client's (${legacy ? "2025-11-25" : "2026-07-28"})`, async () => {
      const file = logFile();
      const client = await connected(file, legacy);
      const meta = { "com.example/tenant": "acme", requestTag: "r-1", "com.example/route": { region: "eu" } };
      await client.server("srv")!.callTool("echo", { text: "m" }, { meta, onProgress: () => undefined });
      const call = received(file).find((entry) => entry.method === "tools/call")!;
      expect(call.meta).toMatchObject(meta);
      expect(call.meta?.progressToken).toBeDefined();
      expect(String(call.meta?.traceparent)).toMatch(TRACEPARENT);
    });
  }

  it("ride on every leg of an MRTR call", async () => {
    const file = logFile();
    const client = await connected(file, false, false);
    await client.server("srv")!.callTool("ask", {}, { meta: { "com.example/tenant": "acme" } });
    const legs = received(file).filter((entry) => entry.method === "tools/call");
    expect(legs).toHaveLength(2);
    for (const leg of legs) expect(leg.meta?.["com.example/tenant"]).toBe("acme");
  });

  it("are checked before anything is sent", async () => {
    const file = logFile();
    const client = await connected(file, false, false);
    const server = client.server("srv")!;
    const refusals: [unknown, RegExp][] = [
      [{ "io.modelcontextprotocol/protocolVersion": "1999-01-01" }, /reserved/],
      [{ "dev.mcp/anything": 1 }, /reserved/],
      [{ progressToken: 7 }, /progressToken/],
      [{ "bad key": 1 }, /not a _meta key/],
      [{ "-x/ok": 1 }, /prefix/],
      [[1, 2], /object/],
      [{ big: "x".repeat(20_000) }, /16384 bytes/],
      [Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])), /65 keys/],
      [{ when: new Map() }, /not JSON/],
    ];
    for (const [meta, message] of refusals) {
      await expect(server.callTool("echo", { text: "x" }, { meta: meta as Record<string, unknown> })).rejects.toThrow(message);
    }
    expect(received(file).filter((entry) => entry.method === "tools/call")).toHaveLength(0);
    // Through the catalog too.
    const echo = (await client.tools()).find((tool) => tool.name === "echo")!;
    await expect(client.callTool(echo.qualifiedName, { text: "x" }, { meta: { "mcp/x": 1 } })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
