// Protocol abuse over stdio: what a broken or malicious server may write on its stdout, each case
// with its exact outcome (the ClientError, or the message ignored and counted in `stats()`), and
// the client still answering afterwards, on the same server or, when that one is gone, on
// another server of the same Client.
//
// Most cases script the raw relay (test/helpers/raw-stdio.ts); the few that need bytes the relay
// cannot write (invalid UTF-8) or an fd it cannot close (stdout) run a small inline server.
import { describe, expect, it } from "vitest";
import { Client, type ClientError, type Handler, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { deferred, startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import { LIST_BOUNDS } from "../../src/protocol/results.js";
import { DEFAULT_MAX_MESSAGE_BYTES, MB, sampleMemory } from "./probe.js";
import { count as n, safetyRow } from "./safety.js";

const textResult = (text: string) => ({ content: [{ type: "text", text }] });
/** A line no parser should take, and the bounds it is held to. */
const LINE_BYTES = 100 * MB;
const RSS_BOUND_MB = 64;
const DEFAULT_RSS_BOUND_MB = 128;
/** JSON nested this deep, in a message and in a result. */
const DEPTH = 100_000;
/** The bounds of a connect to a server that says nothing, and of a call left half answered. */
const CONNECT_TIMEOUT_MS = 400;
const PROBE_TIMEOUT_MS = 200;
const CALL_TIMEOUT_MS = 300;
/** An `initialize` result this large is taken whole. */
const INSTRUCTIONS_BYTES = 10 * MB;

interface Setup {
  raw: RawStdioServer;
  client: Client;
  server: ServerHandle;
  logger: CapturingLogger;
}

async function setup(options: { connect?: Parameters<Client["connect"]>[2]; handler?: Handler } = {}): Promise<Setup> {
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  raw.handle("ping", () => ({}));
  const logger = capturingLogger();
  const client = track(new Client({ name: "h", version: "0", logger, ...(options.handler ? { handler: options.handler } : {}) }));
  const server = await client.connect("raw", raw.target, options.connect);
  await raw.next("notifications/initialized");
  return { raw, client, server, logger };
}

/** A second, well-behaved server on the same Client: proves the client answers when the first is gone. */
async function another(client: Client): Promise<ServerHandle> {
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  raw.handle("ping", () => ({}));
  raw.handle("tools/list", () => ({ tools: [{ name: "ok", inputSchema: { type: "object" } }] }));
  return client.connect("other", raw.target);
}

/** The pending tools/call the server sees, and the caller's outcome, never unhandled. */
async function pendingCall(raw: RawStdioServer, server: ServerHandle, timeout?: number): Promise<{ id: number; outcome: Promise<unknown> }> {
  const outcome = server.callTool("t", {}, timeout === undefined ? undefined : { timeout }).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const request = await raw.next("tools/call");
  expect(typeof request.id).toBe("number");
  return { id: request.id as number, outcome };
}

// A minimal legacy server in one `node -e`: it writes with fs.writeSync on fd 1, so that it can
// write bytes that are not UTF-8 and close its stdout while it keeps running.
const SCRIPT = String.raw`
const fs = require("fs");
const out = (o) => fs.writeSync(1, JSON.stringify(o) + "\n");
let rest = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  rest += chunk;
  let nl;
  while ((nl = rest.indexOf("\n")) !== -1) {
    const line = rest.slice(0, nl);
    rest = rest.slice(nl + 1);
    let m;
    try { m = JSON.parse(line); } catch { continue; }
    if (m.method === "server/discover") out({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
    else if (m.method === "initialize") out({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "s", version: "0" } } });
    else if (m.method === "ping") out({ jsonrpc: "2.0", id: m.id, result: {} });
    else if (m.method === "tools/call" && m.params.name === "invalid-utf8") {
      fs.writeSync(1, Buffer.from([0xff, 0xfe, 0x80, 0x0a]));
      fs.writeSync(1, Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":' + m.id + ',"result":{"content":[{"type":"text","text":"a'),
        Buffer.from([0xff, 0xc3]),
        Buffer.from('b"}]}}\n'),
      ]));
    } else if (m.method === "tools/call" && m.params.name === "close-stdout") fs.closeSync(1);
  }
});
process.stdin.on("end", () => process.exit(0));
`;

const scripted = { command: process.execPath, args: ["-e", SCRIPT] };

describe("responses the client did not ask for", () => {
  it("drops responses to ids never sent, and counts them", async (context) => {
    const { raw, server } = await setup();
    const neverSent = [
      { jsonrpc: "2.0", id: 999_999, result: {} },
      { jsonrpc: "2.0", id: "never-sent", result: {} },
      { jsonrpc: "2.0", id: -1, error: { code: -32603, message: "x" } },
    ];
    for (const response of neverSent) await raw.send(response);
    await server.ping();
    expect(server.stats()).toMatchObject({ staleResponses: neverSent.length, invalidMessages: 0 });
    safetyRow(context, { area: "Protocol abuse", tried: "responses to ids never sent (a number, a string, an error)", over: "stdio", outcome: `dropped and counted in \`stats().staleResponses\` (${neverSent.length}); the server still answers` });
  });

  it("takes the first of duplicate responses and counts the second", async (context) => {
    const { raw, server } = await setup();
    const { id, outcome } = await pendingCall(raw, server);
    await raw.send({ jsonrpc: "2.0", id, result: textResult("first") });
    await raw.send({ jsonrpc: "2.0", id, result: textResult("second") });
    expect(await outcome).toEqual({ value: textResult("first") });
    await server.ping();
    expect(server.stats()).toMatchObject({ staleResponses: 1, invalidMessages: 0 });
    safetyRow(context, { area: "Protocol abuse", tried: "two responses to one call", over: "stdio", outcome: "the call settles with the first; the second is counted as stale" });
  });

  it("refuses a response with both a result and an error as a protocol error", async (context) => {
    const { raw, server } = await setup();
    const { id, outcome } = await pendingCall(raw, server);
    await raw.send({ jsonrpc: "2.0", id, result: textResult("r"), error: { code: 1, message: "e" } });
    expect(await outcome).toMatchObject({
      error: { kind: "protocol", serverId: "raw", message: expect.stringMatching(/^the response to tools\/call is malformed: it needs exactly one of "result" or a valid "error"/) },
    });
    await server.ping();
    safetyRow(context, { area: "Protocol abuse", tried: "a response with both `result` and `error`", over: "stdio", outcome: 'the call fails with `protocol` ("it needs exactly one of result or a valid error"); the server still answers' });
  });

  it("drops a response whose id is an object as stale, and answers a request whose id is one as invalid", async (context) => {
    const { raw, server } = await setup();
    const { id, outcome } = await pendingCall(raw, server);
    await raw.send({ jsonrpc: "2.0", id: { id }, result: textResult("object id") });
    await raw.send({ jsonrpc: "2.0", id: { toString: 1 }, method: "ping" });
    const refusal = await raw.next((m) => m.id === null && "error" in m);
    expect(refusal.error).toMatchObject({ code: -32600 });
    await raw.send({ jsonrpc: "2.0", id, result: textResult("real") });
    expect(await outcome).toEqual({ value: textResult("real") });
    await server.ping();
    expect(server.stats()).toMatchObject({ staleResponses: 1, invalidMessages: 1 });
    safetyRow(context, { area: "Protocol abuse", tried: "ids that are objects, on a response and on a request", over: "stdio", outcome: "the response is stale (counted), the request answered `-32600` with id null; the real answer still settles the call" });
  });
});

describe("lines no parser should have to take", () => {
  it("ends the connection at maxMessageBytes on a 100 MB line, memory bounded, and the client answers on", async (context) => {
    const bound = MB;
    const { raw, client, server } = await setup({ connect: { maxMessageBytes: bound } });
    const memory = sampleMemory();
    const { id, outcome } = await pendingCall(raw, server);
    void raw.sendBig({ id, bytes: LINE_BYTES });
    const message = `a message exceeded maxMessageBytes (${bound} bytes)`;
    expect(await outcome).toMatchObject({ error: { kind: "transport", serverId: "raw", message: expect.stringContaining(message) } });
    expect(await server.closed).toMatchObject({ kind: "transport" });
    const peak = memory.stop();
    expect(peak.rss / MB).toBeLessThan(RSS_BOUND_MB);
    await (await another(client)).ping();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `a single line of ${n(LINE_BYTES / MB)} MiB, against \`maxMessageBytes\` of ${n(bound / MB)} MiB`,
      over: "stdio",
      outcome: `the connection ends with \`transport\` ("${message}"), nothing of it parsed; RSS < ${RSS_BOUND_MB} MiB; another server answers`,
    });
  });

  it("does the same at the default 64 MiB", async (context) => {
    const { raw, client, server } = await setup();
    const memory = sampleMemory();
    const { id, outcome } = await pendingCall(raw, server);
    void raw.sendBig({ id, bytes: LINE_BYTES });
    expect(await outcome).toMatchObject({ error: { kind: "transport", message: expect.stringContaining(`a message exceeded maxMessageBytes (${DEFAULT_MAX_MESSAGE_BYTES} bytes)`) } });
    const peak = memory.stop();
    // What was held of the line before it crossed the bound, and no more.
    expect(peak.rss / MB).toBeLessThan(DEFAULT_RSS_BOUND_MB);
    await (await another(client)).ping();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `a single line of ${n(LINE_BYTES / MB)} MiB, at the default \`maxMessageBytes\``,
      over: "stdio",
      outcome: `the connection ends with \`transport\` at ${n(DEFAULT_MAX_MESSAGE_BYTES)} bytes; RSS < ${DEFAULT_RSS_BOUND_MB} MiB; another server answers`,
    });
  }, 15_000);

  it("takes JSON nested 100 000 levels deep without a RangeError escaping", async (context) => {
    const { raw, server } = await setup();
    const depth = DEPTH;
    // Alone on its line: a batch whose member is a batch, refused as invalid.
    await raw.sendRaw(`${"[".repeat(depth)}${"]".repeat(depth)}\n`);
    const refusal = await raw.next((m) => m.id === null && "error" in m);
    expect(refusal.error).toMatchObject({ code: -32600 });
    // As the result of a pending call, deep in a field the client does not check.
    const { id, outcome } = await pendingCall(raw, server);
    const deep = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    await raw.sendRaw(`{"jsonrpc":"2.0","id":${id},"result":{"content":[],"_meta":{"deep":${deep}}}}\n`);
    const settled = (await outcome) as { value?: { content: unknown[] }; error?: ClientError };
    expect(settled.error).toBeUndefined();
    expect(settled.value?.content).toEqual([]);
    expect(server.stats()).toMatchObject({ invalidMessages: 1, staleResponses: 0 });
    await server.ping();
    expect(server.state).toBe("ready");
    safetyRow(context, { area: "Protocol abuse", tried: `JSON nested ${n(depth)} levels deep, alone and inside a result`, over: "stdio", outcome: "alone: answered `-32600`, counted invalid; in a field the client does not check: the call succeeds; no RangeError escapes" });
  });

  it("refuses a line with a NUL inside as not JSON, and the call is still answered", async (context) => {
    const { raw, server, logger } = await setup();
    const { id, outcome } = await pendingCall(raw, server);
    await raw.sendRaw(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"a\u0000b"}]}}\n`);
    const refusal = await raw.next((m) => m.id === null && "error" in m);
    expect(refusal.error).toMatchObject({ code: -32700 });
    const warnings = 1;
    expect(logger.warnings("not JSON")).toHaveLength(warnings);
    await raw.send({ jsonrpc: "2.0", id, result: textResult("after the NUL") });
    expect(await outcome).toEqual({ value: textResult("after the NUL") });
    expect(server.stats()).toMatchObject({ invalidMessages: 1, staleResponses: 0 });
    safetyRow(context, { area: "Protocol abuse", tried: "a NUL inside a line", over: "stdio", outcome: `the line is not JSON: answered \`-32700\`, ${warnings} warning, counted invalid; the call is answered by the next line` });
  });

  it("reads invalid UTF-8 as U+FFFD: a line of it is not JSON, inside a string it is replaced", async (context) => {
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("bytes", scripted);
    const result = await server.callTool("invalid-utf8");
    expect(server.stats()).toMatchObject({ invalidMessages: 1 });
    // 0xff is no UTF-8 at all; 0xc3 starts a sequence that "b" does not continue.
    expect(result.content).toEqual([{ type: "text", text: "a\uFFFD\uFFFDb" }]);
    await server.ping();
    safetyRow(context, { area: "Protocol abuse", tried: "invalid UTF-8 bytes, as a line and inside a string", over: "stdio", outcome: "a line of them is counted invalid; inside a string each becomes U+FFFD" });
  });
});

describe("servers that say too little", () => {
  it("times connect out within connectTimeout when the server writes nothing", async (context) => {
    const raw = track(await startRawStdio());
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await client.connect("mute", raw.target, { connectTimeout: CONNECT_TIMEOUT_MS, probeTimeout: PROBE_TIMEOUT_MS }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout", serverId: "mute", message: expect.stringContaining(`connecting timed out after ${CONNECT_TIMEOUT_MS} ms`) });
    expect(client.server("mute")).toBeUndefined();
    await (await another(client)).ping();
    safetyRow(context, { area: "Protocol abuse", tried: "a server that writes nothing", over: "stdio", outcome: `\`connect\` fails with \`timeout\` at \`connectTimeout\` (${n(CONNECT_TIMEOUT_MS)} ms here); the server is not registered; another server answers` });
  });

  it("times a call out on half a message then silence; the line's end is garbage, then it answers", async (context) => {
    const { raw, server } = await setup();
    const { id, outcome } = await pendingCall(raw, server, CALL_TIMEOUT_MS);
    await raw.sendRaw(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"te`);
    expect(await outcome).toMatchObject({ error: { kind: "timeout", serverId: "raw", message: `tools/call timed out after ${CALL_TIMEOUT_MS} ms (timeout)` } });
    expect(server.state).toBe("ready");
    await raw.sendRaw("\n");
    const refusal = await raw.next((m) => m.id === null && "error" in m);
    expect(refusal.error).toMatchObject({ code: -32700 });
    await server.ping();
    expect(server.stats()).toMatchObject({ invalidMessages: 1 });
    safetyRow(context, { area: "Protocol abuse", tried: "half a message, then silence", over: "stdio", outcome: `the call fails with \`timeout\` at its own timeout (${n(CALL_TIMEOUT_MS)} ms here), the connection stays ready; the line's late end is answered \`-32700\`` });
  });

  it("fails the connect with transport and the exit code on an exit during initialize", async (context) => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("initialize", () => {
      void raw.exit(3);
      return undefined;
    });
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await client.connect("dies", raw.target).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", serverId: "dies", message: expect.stringContaining("exited with code 3") });
    expect(client.server("dies")).toBeUndefined();
    await (await another(client)).ping();
    safetyRow(context, { area: "Protocol abuse", tried: "an exit during `initialize`", over: "stdio", outcome: "`connect` fails with `transport` naming the exit code; another server answers" });
  });
});

describe("servers that say too much", () => {
  it("keeps a server request whose id collides with a pending request of the client apart from it", async (context) => {
    const { raw, server } = await setup({ handler: { listRoots: () => ({ roots: [] }) } });
    const { id, outcome } = await pendingCall(raw, server);
    await raw.send({ jsonrpc: "2.0", id, method: "ping" });
    expect(await raw.next((m) => m.id === id && "result" in m)).toEqual({ jsonrpc: "2.0", id, result: {} });
    await raw.send({ jsonrpc: "2.0", id, method: "roots/list" });
    expect(await raw.next((m) => m.id === id && "result" in m)).toEqual({ jsonrpc: "2.0", id, result: { roots: [] } });
    await raw.send({ jsonrpc: "2.0", id, result: textResult("mine") });
    expect(await outcome).toEqual({ value: textResult("mine") });
    await server.ping();
    expect(server.stats()).toMatchObject({ staleResponses: 0, invalidMessages: 0 });
    safetyRow(context, { area: "Protocol abuse", tried: "server requests whose id is that of the client's pending call", over: "stdio", outcome: "each answered on its own (`ping`, `roots/list`); the client's call settles by its own response; nothing counted stale" });
  });

  it("takes a 10 MB initialize result", async (context) => {
    const raw = track(await startRawStdio());
    const instructions = "i".repeat(INSTRUCTIONS_BYTES);
    raw.autoInitialize({ instructions });
    raw.handle("ping", () => ({}));
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("big-init", raw.target);
    expect(server.state).toBe("ready");
    expect(server.instructions).toHaveLength(INSTRUCTIONS_BYTES);
    await server.ping();
    safetyRow(context, { area: "Protocol abuse", tried: `an \`initialize\` result of ${n(INSTRUCTIONS_BYTES / MB)} MiB (its instructions)`, over: "stdio", outcome: "taken whole, under `maxMessageBytes`: the connection is ready" });
  });

  it("lists as many tools in one page as a listing takes", async (context) => {
    const { raw, server } = await setup();
    const count = LIST_BOUNDS.items;
    const tools = Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: "object" } }));
    raw.handle("tools/list", () => ({ tools }));
    const listed = await server.listTools();
    expect(listed).toHaveLength(count);
    expect(listed[count - 1]?.name).toBe(`tool_${count - 1}`);
    await server.ping();
    safetyRow(context, { area: "Protocol abuse", tried: `${n(count)} tools in one page`, over: "stdio", outcome: `all ${n(count)} listed, in order (\`LIST_BOUNDS.items\` is ${n(LIST_BOUNDS.items)})` });
  });

  it("drops 100 000 tools it cannot use, logging a dozen lines, not 100 000", async (context) => {
    const { raw, server, logger } = await setup();
    const count = 100_000;
    // No inputSchema: an entry the client cannot use; one good tool at the end.
    const tools: unknown[] = Array.from({ length: count }, (_, i) => ({ name: `broken_${i}` }));
    tools.push({ name: "good", inputSchema: { type: "object" } });
    raw.handle("tools/list", () => ({ tools }));
    expect((await server.listTools()).map((tool) => tool.name)).toEqual(["good"]);
    // The first ten, then the 100th, 1 000th, 10 000th and 100 000th.
    const lines = logger.warnings("dropped entry");
    const warnings = 14;
    expect(lines).toHaveLength(warnings);
    expect(lines.at(-1)).toContain(`(${count} so far)`);
    await server.ping();
    safetyRow(context, { area: "Protocol abuse", tried: `a list of ${n(count)} tools the client cannot use (no \`inputSchema\`)`, over: "stdio", outcome: `each dropped from the list; ${warnings} warnings (the first 10, then the 100th, 1 000th, …, with the count so far)` });
  });

  it("gives a list_changed storm to the hooks as far as the queue allows, counts the rest, memory bounded", async (context) => {
    const count = 100_000;
    const queued = 1000; // maxQueuedNotifications' default
    const release = deferred<void>();
    let seen = 0;
    // The first hook blocks: what reaches the hooks is then the one running and the queue's bound.
    const { raw, client, server, logger } = await setup({
      handler: {
        handleNotification: async (method) => {
          if (method === "notifications/tools/list_changed") seen += 1;
          await release.promise;
        },
      },
    });
    const memory = sampleMemory();
    expect((await raw.flood({ count, method: "notifications/tools/list_changed", notify: true })).ok).toBe(true);
    await server.ping();
    const peak = memory.stop();
    expect(client.droppedNotifications).toBe(count - queued - 1);
    // Logged at the 1st, 10th, 100th, 1 000th and 10 000th drop.
    const warnings = 5;
    expect(logger.warnings("notification queue full")).toHaveLength(warnings);
    const heapBoundMb = 64;
    expect(peak.heapUsed / MB).toBeLessThan(heapBoundMb);
    release.resolve();
    await client.notificationsSettled();
    expect(seen).toBe(queued + 1);
    expect(server.stats()).toMatchObject({ invalidMessages: 0, staleResponses: 0 });
    await server.ping();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `a storm of ${n(count)} \`notifications/tools/list_changed\` while the hook is busy`,
      over: "stdio",
      outcome: `${n(queued + 1)} reach the hooks (one running, ${n(queued)} waiting), ${n(count - queued - 1)} dropped and counted, ${warnings} warnings (the 1st, 10th, …); heap < ${heapBoundMb} MiB`,
    });
  });
});

describe("stdout closed while the process runs", () => {
  it("ends the connection with transport, failing the pending call long before its timeout", async (context) => {
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("closes", scripted);
    // A timeout would fail the call with "timeout": "transport" is the connection's end, heard.
    const error = await server.callTool("close-stdout", {}, { timeout: 20_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", serverId: "closes", message: expect.stringContaining("the server closed its stdout but is still running") });
    expect(await server.closed).toMatchObject({ kind: "transport" });
    await (await another(client)).ping();
    safetyRow(context, { area: "Protocol abuse", tried: "stdout closed while the process runs", over: "stdio", outcome: 'the pending call fails with `transport` ("the server closed its stdout but is still running"), not at its timeout; the connection ends' });
  });
});
