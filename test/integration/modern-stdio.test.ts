// The modern era (2026-07-28) over stdio against the raw scripted server: negotiation, the
// envelope, resultType, and MRTR through the Handler pipeline, with what no good server sends.
import { describe, expect, it, vi } from "vitest";
import { Client, RpcError, type ClientOptions, type CreateMessageResult, type Handler, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { deferred, startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const DISCOVERED = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {}, resources: {}, prompts: {} },
  ttlMs: 0,
  cacheScope: "private",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "7" } },
};

interface Setup {
  raw: RawStdioServer;
  client: Client;
  server: ServerHandle;
  logger: CapturingLogger;
}

async function setup(handler?: Handler, options: Partial<ClientOptions> = {}, connect: Parameters<Client["connect"]>[2] = {}): Promise<Setup> {
  const raw = track(await startRawStdio());
  raw.handle("server/discover", () => DISCOVERED);
  const logger = capturingLogger();
  const client = track(new Client({ name: "host", version: "2", handler, logger, assigns: { who: "client" }, ...options }));
  const server = await client.connect("modern", raw.target, connect);
  return { raw, client, server, logger };
}

const text = (value: string) => ({ resultType: "complete", content: [{ type: "text", text: value }] });
const sampled: CreateMessageResult = { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" };
const elicitForm = { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" }, tea: { type: "boolean", default: true } }, required: ["name"] } } };
const params = (m: RpcMessage) => m.params as Record<string, unknown>;
const meta = (m: RpcMessage) => params(m)._meta as Record<string, unknown>;

describe("negotiation", () => {
  it("probes with server/discover and speaks 2026-07-28 when the server is modern", async () => {
    const { raw, server } = await setup({ listRoots: () => ({ roots: [] }), handleElicitation: () => ({ action: "decline" }), elicitationModes: ["form", "url"] });
    expect(server.era).toBe("modern");
    expect(server.protocolVersion).toBe("2026-07-28");
    expect(server.serverInfo).toEqual({ name: "raw-modern", version: "7" });
    expect(server.serverCapabilities).toEqual(DISCOVERED.capabilities);
    const probe = raw.messages[0] as RpcMessage;
    expect(probe.method).toBe("server/discover");
    expect(meta(probe)).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "host", version: "2" },
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} }, roots: {}, extensions: { "io.modelcontextprotocol/tasks": {} } },
    });
    expect(raw.messages.some((m) => (m as RpcMessage).method === "initialize")).toBe(false);
  });

  it("falls back to initialize when the probe goes unanswered for probeTimeout, and drops the late answer", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("server/discover", () => undefined);
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("slow", raw.target, { probeTimeout: 200 });
    expect(server.era).toBe("legacy");
    const probe = await raw.next("server/discover");
    expect(raw.messages.some((m) => (m as RpcMessage).method === "notifications/cancelled")).toBe(false);
    await raw.send({ jsonrpc: "2.0", id: probe.id, result: DISCOVERED });
    raw.handle("tools/call", () => ({ content: [] }));
    await server.callTool("x");
    expect(server.stats().staleResponses).toBe(1);
  });

  it("retries -32022 with a version in common, falls back to initialize when only legacy ones are, and does not loop", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("server/discover", () => ({ error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2025-11-25"], requested: "2026-07-28" } } }));
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("dual", raw.target);
    expect(server.era).toBe("legacy");
    expect(server.protocolVersion).toBe("2025-11-25");

    const liar = track(await startRawStdio());
    let probes = 0;
    liar.handle("server/discover", () => (probes++, { error: { code: -32022, message: "no", data: { supported: ["2026-07-28"] } } }));
    const error = await client.connect("liar", liar.target).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "unsupported", serverId: "liar" });
    expect((error as Error).message).toContain("refused 2026-07-28 although it lists it as supported");
    // One retry of a version the server lists, then no more: no loop.
    expect(probes).toBe(2);

    const stranger = track(await startRawStdio());
    stranger.handle("server/discover", () => ({ error: { code: -32022, message: "no", data: { supported: ["2027-01-01"] } } }));
    const strange = await client.connect("stranger", stranger.target).catch((e: unknown) => e);
    expect(strange).toMatchObject({ kind: "unsupported" });
    expect((strange as Error).message).toContain("2027-01-01");
  });

  it("a modern pin against a legacy-only server fails naming what each side supports", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize({ protocolVersion: "2025-06-18" });
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await client.connect("old", raw.target, { protocolVersion: "2026-07-28" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "unsupported", serverId: "old" });
    expect((error as Error).message).toMatch(/server supports 2025-06-18.*accepts 2026-07-28/);
  });

  it("a legacy pin against a modern-only server fails naming what each side supports", async () => {
    const raw = track(await startRawStdio());
    raw.handle("initialize", () => ({ error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "2025-11-25" } } }));
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await client.connect("new", raw.target, { protocolVersion: "2025-11-25" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "unsupported", serverId: "new" });
    expect((error as Error).message).toMatch(/server supports 2026-07-28.*accepts 2025-11-25/);
    expect(raw.messages.some((m) => (m as RpcMessage).method === "server/discover")).toBe(false);
  });

  it("a modern pin still sends server/discover to learn the server", async () => {
    const { raw, server } = await setup(undefined, {}, { protocolVersion: "2026-07-28" });
    expect(server.era).toBe("modern");
    expect((raw.messages[0] as RpcMessage).method).toBe("server/discover");
  });
});

describe("the modern wire", () => {
  it("puts the envelope on every request and keeps the caller's _meta; no initialized, no ping", async () => {
    const { raw, server } = await setup();
    raw.handle("tools/list", () => ({ resultType: "complete", tools: [{ name: "t", inputSchema: { type: "object" } }], ttlMs: 0, cacheScope: "private" }));
    raw.handle("tools/call", () => text("ok"));
    await server.listTools();
    await server.callTool("t", { a: 1 }, { logLevel: "warning" });
    const list = raw.messages.find((m) => (m as RpcMessage).method === "tools/list") as RpcMessage;
    expect(meta(list)).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "host", version: "2" },
      "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
    });
    const call = raw.messages.find((m) => (m as RpcMessage).method === "tools/call") as RpcMessage;
    expect(params(call)).toMatchObject({ name: "t", arguments: { a: 1 } });
    expect(meta(call)["io.modelcontextprotocol/logLevel"]).toBe("warning");
    expect(raw.messages.some((m) => (m as RpcMessage).method === "notifications/initialized")).toBe(false);
  });

  it("refuses locally what the version does not have, sending nothing", async () => {
    const { raw, server } = await setup();
    const count = raw.lines.length;
    await expect(server.ping()).rejects.toMatchObject({ kind: "unsupported", serverId: "modern" });
    await expect(server.subscribeResource("mem://x")).rejects.toMatchObject({ kind: "unsupported" });
    // One way to set the level in both eras: here nothing is sent, every later request asks.
    await server.setLogLevel("error");
    expect(raw.lines.length).toBe(count);
  });

  it("asks for the level setLogLevel set on every later request; a call's own level wins", async () => {
    const { raw, server } = await setup();
    raw.handle("tools/call", () => text("ok"));
    await server.setLogLevel("error");
    await server.callTool("t", {});
    await server.callTool("t", {}, { logLevel: "debug" });
    const calls = raw.messages.filter((m) => (m as RpcMessage).method === "tools/call") as RpcMessage[];
    expect(calls.map((c) => meta(c)["io.modelcontextprotocol/logLevel"])).toEqual(["error", "debug"]);
  });

  it("watches through subscriptions/listen: the filter asked for is the one sent", async () => {
    const { raw, server } = await setup();
    const watching = server.watch({ toolsListChanged: true, resourceSubscriptions: ["mem://a"] });
    const listen = await raw.next("subscriptions/listen");
    expect(params(listen)["notifications"]).toEqual({ toolsListChanged: true, resourceSubscriptions: ["mem://a"] });
    await raw.send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": listen.id } } });
    const watch = await watching;
    expect(watch.honoured).toEqual({ toolsListChanged: true });
    await watch.close();
  });

  it("rejects an unknown resultType and input_required where it is not allowed, as protocol errors", async () => {
    const { raw, server } = await setup();
    raw.handle("tools/call", () => ({ resultType: "weird", content: [] }));
    raw.handle("tools/list", () => ({ resultType: "input_required", inputRequests: { a: { method: "roots/list" } } }));
    await expect(server.callTool("x")).rejects.toMatchObject({ kind: "protocol", serverId: "modern", data: { resultType: "weird", content: [] } });
    await expect(server.listTools()).rejects.toMatchObject({ kind: "protocol" });
  });

  it("keeps tool schemas and structured content exactly as received", async () => {
    const { raw, server } = await setup();
    const schema = { type: "object", $defs: { p: { type: "string", $ref: "https://example.com/never-fetched.json" } }, properties: { a: { $ref: "#/$defs/p" } }, "x-mcp-header": undefined };
    const tool = { name: "t", inputSchema: { type: "object", $defs: schema.$defs, properties: schema.properties }, outputSchema: { type: "array", items: { type: "number" } } };
    raw.handle("tools/list", () => ({ tools: [tool] }));
    raw.handle("tools/call", () => ({ content: [], structuredContent: [1, 2, 3] }));
    expect(await server.listTools()).toEqual([tool]);
    expect((await server.callTool("t")).structuredContent).toEqual([1, 2, 3]);
  });

  it("does not answer a server request on a modern connection, and logs it", async () => {
    const { raw, server, logger } = await setup({ listRoots: () => ({ roots: [] }) });
    await raw.send({ jsonrpc: "2.0", id: "s1", method: "roots/list" });
    await raw.send({ jsonrpc: "2.0", id: "s2", method: "ping" });
    await vi.waitFor(() => expect(logger.warnings("modern connection")).toHaveLength(2));
    // A round trip: whatever the client wrote before this call has reached the server by its reply.
    raw.handle("tools/list", () => ({ tools: [] }));
    await server.listTools();
    expect(raw.messages.some((m) => (m as RpcMessage).id === "s1" || (m as RpcMessage).id === "s2")).toBe(false);
  });

  it("cancels with notifications/cancelled on stdio", async () => {
    const { raw, server } = await setup();
    const controller = new AbortController();
    const outcome = server.callTool("slow", {}, { signal: controller.signal }).catch((e: unknown) => e);
    const request = await raw.next("tools/call");
    controller.abort();
    expect(await outcome).toMatchObject({ kind: "cancelled" });
    expect(params(await raw.next("notifications/cancelled"))).toMatchObject({ requestId: request.id });
  });
});

describe("MRTR", () => {
  it("answers each input request through the Handler and retries with a new id, the original params, the answers and the state", async () => {
    const seen: unknown[] = [];
    const { raw, server } = await setup({
      handleSampling: (p, ctx) => (seen.push({ kind: "sampling", maxTokens: p.maxTokens, era: ctx.era, related: ctx.relatedRequestId, assigns: ctx.assigns }), sampled),
      handleElicitation: (_p, ctx) => (seen.push({ kind: "elicitation", mode: ctx.mode }), { action: "accept", content: { name: "Ada" } }),
      listRoots: () => ({ roots: [{ uri: "file:///a/../b" }, { uri: "file://far/x" }] }),
    });
    let round = 0;
    raw.handle("tools/call", (m) => {
      round += 1;
      if (round === 1) {
        return {
          resultType: "input_required",
          inputRequests: {
            s: { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "q" } }], maxTokens: 99_999 } },
            e: elicitForm,
            r: { method: "roots/list" },
          },
          requestState: "state-1 ✓ \"quoted\"",
        };
      }
      return text(JSON.stringify(params(m)));
    });
    const result = await server.callTool("tool", { x: [1] }, { assigns: { turn: 4 } });
    const [first, retry] = raw.messages.filter((m) => (m as RpcMessage).method === "tools/call") as RpcMessage[];
    expect(retry!.id).not.toBe(first!.id);
    expect(params(retry!)).toMatchObject({
      name: "tool",
      arguments: { x: [1] },
      requestState: "state-1 ✓ \"quoted\"",
      inputResponses: {
        s: sampled,
        e: { action: "accept", content: { name: "Ada", tea: true } },
        r: { roots: [{ uri: "file:///b" }] },
      },
    });
    expect(Object.keys(params(retry!).inputResponses as object)).toEqual(["s", "e", "r"]);
    expect(seen).toEqual([
      { kind: "sampling", maxTokens: 4096, era: "modern", related: null, assigns: { turn: 4 } },
      { kind: "elicitation", mode: "form" },
    ]);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toHaveProperty("inputResponses");
  });

  it("answers a round whose answers come some at once and some later in the server's order, and stops at the first that fails", async () => {
    const asked: string[] = [];
    const { raw, server } = await setup({
      handleSampling: () => (asked.push("s"), sampled),
      listRoots: () => (asked.push("r"), { roots: [{ uri: "file:///r" }] }),
      handleElicitation: (p) => {
        const message = (p as { message: string }).message;
        asked.push(message);
        if (message === "now-throw") throw new RpcError(-8, "refused at once");
        if (message === "later-throw") return Promise.reject(new RpcError(-7, "refused later"));
        return message.startsWith("later") ? Promise.resolve({ action: "accept", content: { name: message } }) : { action: "accept", content: { name: message } };
      },
    });
    const form = (message: string) => ({ method: "elicitation/create", params: { message, requestedSchema: { type: "object", properties: { name: { type: "string" } } } } });
    const sampling = { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "q" } }], maxTokens: 5 } };
    let inputRequests: Record<string, unknown> = { r: { method: "roots/list" }, l1: form("later-1"), s: sampling, n: form("now"), l2: form("later-2") };
    raw.handle("tools/call", (m) => (params(m).inputResponses === undefined ? { resultType: "input_required", inputRequests } : text(JSON.stringify(params(m).inputResponses))));
    const result = await server.callTool("t");
    const answers = JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
    expect(Object.keys(answers)).toEqual(["r", "l1", "s", "n", "l2"]);
    expect(answers).toEqual({
      r: { roots: [{ uri: "file:///r" }] },
      l1: { action: "accept", content: { name: "later-1" } },
      s: sampled,
      n: { action: "accept", content: { name: "now" } },
      l2: { action: "accept", content: { name: "later-2" } },
    });
    expect(asked).toEqual(["r", "later-1", "s", "now", "later-2"]);
    // A failure after an answer that came later, and one after an answer that came at once: the
    // call stops there, nothing after it is asked, and no retry is sent.
    for (const [failing, code] of [["later-throw", -7], ["now-throw", -8]] as const) {
      asked.length = 0;
      inputRequests = { l: form("later-ok"), f: form(failing), r: { method: "roots/list" } };
      const before = raw.messages.length;
      const error = await server.callTool("t").catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: "input_handler", code });
      expect(asked).toEqual(["later-ok", failing]);
      expect(raw.messages.slice(before).filter((m) => (m as RpcMessage).method === "tools/call")).toHaveLength(1);
    }
  });

  it("a retry in flight when the connection closes ends with the connection's error, though it listens on nothing of its own", async () => {
    const { raw, client, server } = await setup({ handleElicitation: () => ({ action: "accept", content: { name: "Ada" } }) });
    const retried = deferred<void>();
    raw.handle("tools/call", (m) => {
      if (params(m).inputResponses === undefined) return { resultType: "input_required", inputRequests: { e: elicitForm } };
      retried.resolve();
      return new Promise(() => {});
    });
    const call = server.callTool("t").catch((e: unknown) => e);
    await retried.promise;
    await client.close();
    expect(await call).toMatchObject({ kind: "closed", serverId: "modern" });
  });

  it("each retry repeats the arguments as the first leg sent them, though the caller changed them while the Handler was asked", async () => {
    const args: Record<string, unknown> = { path: "a.txt", lines: [1, 2] };
    const { raw, server } = await setup({
      handleElicitation: () => {
        args.path = "changed";
        (args.lines as number[]).push(3);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    let round = 0;
    raw.handle("tools/call", () => (++round <= 2 ? { resultType: "input_required", inputRequests: { e: elicitForm }, requestState: `s${round}` } : text("done")));
    await server.callTool("read", args);
    const legs = raw.lines.filter((line) => line.includes('"method":"tools/call"'));
    expect(legs).toHaveLength(3);
    const [first, ...retries] = legs.map((line) => JSON.parse(line) as RpcMessage);
    for (const [index, retry] of retries.entries()) {
      expect(Object.keys(params(retry))).toEqual(["name", "arguments", "inputResponses", "requestState", "_meta"]);
      expect(params(retry).arguments).toEqual({ path: "a.txt", lines: [1, 2] });
      expect(params(retry).requestState).toBe(`s${index + 1}`);
      expect(meta(retry)).toEqual(meta(first!));
    }
  });

  it("sends a decline back as an answer, and no requestState when the server gave none", async () => {
    const { raw, server } = await setup({ handleElicitation: () => ({ action: "decline" }) });
    let round = 0;
    raw.handle("tools/call", () => (++round === 1 ? { resultType: "input_required", inputRequests: { e: elicitForm } } : text("done")));
    await server.callTool("t");
    const retry = (raw.messages.filter((m) => (m as RpcMessage).method === "tools/call") as RpcMessage[])[1]!;
    expect(params(retry).inputResponses).toEqual({ e: { action: "decline" } });
    expect("requestState" in params(retry)).toBe(false);
  });

  it("echoes a 1 MB requestState byte for byte, and never into a parallel call", async () => {
    const { raw, server } = await setup({ listRoots: () => ({ roots: [] }) });
    const big = "é".repeat(512 * 1024) + "\u2028end";
    raw.handle("tools/call", (m) => {
      const p = params(m);
      if (p.name === "plain") return text("plain");
      if (p.requestState === undefined) return { resultType: "input_required", inputRequests: { r: { method: "roots/list" } }, requestState: big };
      return text(String(p.requestState === big));
    });
    const [stateful, plain] = await Promise.all([server.callTool("stateful"), server.callTool("plain"), server.callTool("plain")]);
    expect((stateful.content[0] as { text: string }).text).toBe("true");
    expect((plain.content[0] as { text: string }).text).toBe("plain");
    const plains = raw.messages.filter((m) => (m as RpcMessage).method === "tools/call" && params(m as RpcMessage).name === "plain") as RpcMessage[];
    for (const call of plains) expect(params(call)).not.toHaveProperty("requestState");
  });

  it("retries state-only rounds with the state and no answers, until the result comes", async () => {
    const { raw, server } = await setup();
    let calls = 0;
    raw.handle("tools/call", () => (++calls <= 3 ? { resultType: "input_required", requestState: `s${calls}` } : text("done")));
    expect((await server.callTool("t")).content).toEqual([{ type: "text", text: "done" }]);
    const sent = (raw.messages.filter((m) => (m as RpcMessage).method === "tools/call") as RpcMessage[]).map(params);
    expect(sent.map((p) => p.requestState)).toEqual([undefined, "s1", "s2", "s3"]);
    expect(sent.every((p) => !("inputResponses" in p))).toBe(true);
  });

  it("answers 10 rounds and fails the 11th as a protocol error carrying that result", async () => {
    const { raw, server } = await setup({ listRoots: () => ({ roots: [] }) }, { inputRateLimit: { burst: 100 } });
    raw.handle("tools/call", (m) => ({ resultType: "input_required", inputRequests: { r: { method: "roots/list" } }, requestState: `after ${String(params(m).requestState)}` }));
    const error = await server.callTool("t").catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "protocol", serverId: "modern" });
    expect((error as { data: { requestState: string } }).data.requestState).toMatch(/^after /);
    expect(raw.messages.filter((m) => (m as RpcMessage).method === "tools/call")).toHaveLength(11);
  });

  it("stops on input for an undeclared capability (protocol) before any callback", async () => {
    let calls = 0;
    const { raw, server } = await setup({ listRoots: () => (calls++, { roots: [] }) });
    raw.handle("tools/call", () => ({ resultType: "input_required", inputRequests: { r: { method: "roots/list" }, s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } } }));
    await expect(server.callTool("t")).rejects.toMatchObject({ kind: "protocol", serverId: "modern" });
    expect(calls).toBe(1);
    expect(raw.messages.filter((m) => (m as RpcMessage).method === "tools/call")).toHaveLength(1);
  });

  it("refusals are input_refused with the legacy code; handler failures are input_handler; nothing reaches the server", async () => {
    const { raw, server } = await setup({
      handleSampling: () => sampled,
      elicitationModes: ["form", "url"],
      handleElicitation: (p) => {
        if ((p as { message: string }).message === "throw") throw new RpcError(-1, "user said no");
        if ((p as { message: string }).message === "crash") throw new Error("boom");
        return { action: "accept", content: { wrong: 1 } } as never;
      },
    });
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ method: "sampling/createMessage", params: { messages: [], maxTokens: 0 } }, { kind: "input_refused", code: -32602 }],
      [{ method: "elicitation/create", params: { mode: "url", message: "go", url: "http://plain.example/" } }, { kind: "input_refused", code: -32602 }],
      [{ method: "elicitation/create", params: { message: "nested", requestedSchema: { type: "object", properties: { o: { type: "object" } } } } }, { kind: "input_refused", code: -32602 }],
      [{ method: "elicitation/create", params: { message: "throw", requestedSchema: { type: "object", properties: {} } } }, { kind: "input_handler", code: -1 }],
      [{ method: "elicitation/create", params: { message: "crash", requestedSchema: { type: "object", properties: {} } } }, { kind: "input_handler", code: -32603 }],
      [{ method: "elicitation/create", params: { message: "bad answer", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } }, { kind: "input_handler" }],
      [{ method: "tools/call", params: { name: "x" } }, { kind: "protocol" }],
    ];
    for (const [input, expected] of cases) {
      raw.handle("tools/call", () => ({ resultType: "input_required", inputRequests: { k: input } }));
      const before = raw.messages.length;
      const error = await server.callTool("t").catch((e: unknown) => e);
      expect(error, JSON.stringify(input)).toMatchObject({ serverId: "modern", ...expected });
      const sent = raw.messages.slice(before).filter((m) => (m as RpcMessage).method === "tools/call");
      expect(sent).toHaveLength(1);
    }
  });

  it("1 000 input requests in one round: the budget refuses the 21st", async () => {
    let answered = 0;
    const { raw, server } = await setup({ listRoots: () => (answered++, { roots: [] }) });
    const inputRequests = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, { method: "roots/list" }]));
    raw.handle("tools/call", () => ({ resultType: "input_required", inputRequests }));
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    const error = await server.callTool("t").catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "input_refused", code: -32000 });
    expect(answered).toBe(20);
  });

  it("each leg has the call's timeout; Handler time between legs does not count; maxTotalTimeout bounds it all", async () => {
    let answer!: () => void;
    const asked = deferred<void>();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw, server } = await setup({
      handleElicitation: () => {
        asked.resolve();
        return new Promise((resolve) => (answer = () => resolve({ action: "decline" })));
      },
    });
    let round = 0;
    raw.handle("tools/call", () => (++round === 1 ? { resultType: "input_required", inputRequests: { e: elicitForm } } : undefined));
    const outcome = server.callTool("t", {}, { timeout: 1000, maxTotalTimeout: 100_000 }).catch((e: unknown) => e);
    await asked.promise;
    await vi.advanceTimersByTimeAsync(50_000);
    answer();
    const retry = await raw.next((m) => m.method === "tools/call" && "inputResponses" in params(m));
    await vi.advanceTimersByTimeAsync(999);
    await raw.send({ jsonrpc: "2.0", id: retry.id, result: text("in time") });
    expect(await outcome).toMatchObject({ content: [{ text: "in time" }] });

    const asked2 = deferred<void>();
    const { raw: raw2, server: server2 } = await setup({ handleElicitation: () => (asked2.resolve(), new Promise(() => {})) }, { handlerTimeout: { elicitation: 10 ** 9 } });
    raw2.handle("tools/call", () => ({ resultType: "input_required", inputRequests: { e: elicitForm } }));
    const stuck = server2.callTool("t", {}, { timeout: 1000, maxTotalTimeout: 5000 }).catch((e: unknown) => e);
    await asked2.promise;
    await vi.advanceTimersByTimeAsync(5000);
    const error = await stuck;
    expect(error).toMatchObject({ kind: "timeout" });
    expect((error as Error).message).toContain("maxTotalTimeout");
  });

  it("an abort during the Handler stops the flow with cancelled and aborts the callback's signal", async () => {
    let signal!: AbortSignal;
    const asked = deferred<void>();
    const { raw, server } = await setup({
      handleElicitation: (_p, ctx) => {
        signal = ctx.signal;
        asked.resolve();
        return new Promise(() => {});
      },
    });
    raw.handle("tools/call", () => ({ resultType: "input_required", inputRequests: { e: elicitForm } }));
    const controller = new AbortController();
    const outcome = server.callTool("t", {}, { signal: controller.signal }).catch((e: unknown) => e);
    await asked.promise;
    controller.abort(new Error("stop"));
    expect(await outcome).toMatchObject({ kind: "cancelled" });
    expect(signal.aborted).toBe(true);
    expect(raw.messages.filter((m) => (m as RpcMessage).method === "tools/call")).toHaveLength(1);
  });

  it("MRTR works on resources/read and prompts/get too", async () => {
    const { raw, server } = await setup({ listRoots: () => ({ roots: [] }) });
    for (const method of ["resources/read", "prompts/get"]) {
      let first = true;
      raw.handle(method, () => {
        if (first) return (first = false), { resultType: "input_required", inputRequests: { r: { method: "roots/list" } } };
        return method === "resources/read" ? { contents: [{ uri: "mem://a", text: "a" }] } : { messages: [] };
      });
    }
    expect((await server.readResource("mem://a")).contents).toEqual([{ uri: "mem://a", text: "a" }]);
    expect((await server.getPrompt("p")).messages).toEqual([]);
  });
});

describe("subscriptions/listen over stdio", () => {
  it("opens, is acknowledged, routes its notifications, and cancels on close", async () => {
    const { raw, client, server } = await setup({ handleNotification: () => {} });
    const heard: string[] = [];
    client.onNotification((n) => heard.push(n.method));
    const opening = server.listen({ toolsListChanged: true, resourceSubscriptions: ["mem://a"] });
    const listen = await raw.next("subscriptions/listen");
    expect(params(listen).notifications).toEqual({ toolsListChanged: true, resourceSubscriptions: ["mem://a"] });
    const tag = { "io.modelcontextprotocol/subscriptionId": listen.id };
    await raw.send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: tag } });
    const sub = await opening;
    expect(sub.honoured).toEqual({ toolsListChanged: true });
    await raw.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tag } });
    await vi.waitFor(() => expect(heard).toEqual(["notifications/tools/list_changed"]));
    await sub.close();
    expect(params(await raw.next("notifications/cancelled"))).toMatchObject({ requestId: listen.id });
    expect(await sub.ended).toBeUndefined();
  });

  it("ends when the server cancels it or answers it", async () => {
    const { raw, server } = await setup();
    for (const ending of ["cancel", "result"] as const) {
      const opening = server.listen({ promptsListChanged: true });
      const listen = await raw.next("subscriptions/listen");
      await raw.send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: {}, _meta: { "io.modelcontextprotocol/subscriptionId": listen.id } } });
      const sub = await opening;
      if (ending === "cancel") await raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: listen.id } });
      else await raw.send({ jsonrpc: "2.0", id: listen.id, result: { resultType: "complete" } });
      expect(await sub.ended).toBeUndefined();
    }
  });

  it("is unsupported on a legacy connection", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("old", raw.target);
    await expect(server.listen({ toolsListChanged: true })).rejects.toMatchObject({ kind: "unsupported", serverId: "old" });
  });
});
