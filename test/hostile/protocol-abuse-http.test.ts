// Protocol abuse over HTTP (the stdio battery is protocol-abuse.test.ts): what a broken or
// malicious server may put in its replies — as a JSON body, on a POST's event stream, on the
// standalone GET stream of Streamable HTTP, on the one stream of HTTP+SSE — each case with its
// exact outcome (the ClientError, or the message ignored and counted in `stats()`), and the
// client still answering afterwards, on the same server or on another server of the same Client.
//
// Over HTTP nothing invalid is answered (each answer would be a POST a server could multiply),
// so a refusal shows in `stats()` and the log, never on the wire. Counts on a stream are read
// after a round trip on that stream (`syncGet`, `syncOld`): order holds within a stream only.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "../../src/node.js";
import { LIST_BOUNDS } from "../../src/protocol/results.js";
import { ANSWERED_REPLY_GRACE_MS } from "../../src/transport/http-linger.js";
import { NEXT, startRawHttp, startSse, viaSse, writeSse, type RecordedRequest } from "../helpers/raw-http.js";
import { deferred, initializeResult, withTimeout, type RpcMessage } from "../helpers/raw-stdio.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { startRawSse } from "./protocol-abuse-http-sse.js";
import { count, safetyRow } from "./safety.js";
import { DEFAULT_MAX_MESSAGE_BYTES, MB, sampleMemory } from "./probe.js";
import {
  another,
  answerTo,
  endlessInitialize,
  event,
  heldCall,
  jsonBody,
  oldCall,
  oldHttp,
  sseBytes,
  streamable,
  syncGet,
  syncOld,
  textResult,
} from "./protocol-abuse-http-setup.js";
import { QUEUED, STORM, hooks, legacyStorm, modernStorm, oldStorm } from "./protocol-abuse-http-storm.js";

const BOTH = "Streamable HTTP, HTTP+SSE";
/** Notifications held while a connection negotiates (src/protocol/early-messages.ts). */
const EARLY_NOTIFICATIONS = 256;
/** The bounds of a connect to a server that says nothing. */
const CONNECT_TIMEOUT_MS = 400;
const PROBE_TIMEOUT_MS = 200;
/** A call's own timeout, against a server that says nothing or half a message. */
const CALL_TIMEOUT_MS = 300;
const mib = (bytes: number): string => `${count(bytes / MB)} MiB`;
const rpc = (id: unknown, body: Record<string, unknown>) => ({ jsonrpc: "2.0", id, ...body });

// Vitest reports an unhandled rejection as an error of the run; this says which test made it.
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(() => void process.off("unhandledRejection", onUnhandled));
const noUnhandled = (): void => expect(unhandled).toEqual([]);

describe("responses the client did not ask for", () => {
  it("drops responses to ids never sent and the second of duplicates, counted; a JSON reply that answers another id fails its call", async (context) => {
    const { raw, server, stream } = await streamable();
    // On the call's event stream and on the GET stream: dropped, counted, the call answered.
    const held = await heldCall(raw, server);
    held.pending.write(rpc(999_999, { result: {} }));
    held.pending.write(rpc(String(held.id), { result: textResult("the id as a string") }));
    held.pending.write(rpc(-1, { error: { code: -32603, message: "x" } }));
    writeSse(stream, { data: rpc(424_242, { result: {} }) });
    held.pending.write(rpc(held.id, { result: textResult("first") }));
    held.pending.write(rpc(held.id, { result: textResult("second") }));
    held.pending.res.end();
    expect(await held.outcome).toEqual({ value: textResult("first") });
    await syncGet(raw, stream);
    expect(server.stats()).toMatchObject({ staleResponses: 5, invalidMessages: 0 });
    // Answered as a JSON body, then again on the GET stream: the second is stale.
    const answered = await heldCall(raw, server);
    jsonBody(answered.pending, JSON.stringify(rpc(answered.id, { result: textResult("json") })));
    expect(await answered.outcome).toEqual({ value: textResult("json") });
    writeSse(stream, { data: rpc(answered.id, { result: textResult("again") }) });
    await syncGet(raw, stream);
    expect(server.stats()).toMatchObject({ staleResponses: 6 });
    // A JSON body holds the one response to its request: another id leaves nothing to wait for.
    const other = await heldCall(raw, server);
    jsonBody(other.pending, JSON.stringify(rpc(777, { result: textResult("not yours") })));
    expect((await other.outcome).error).toMatchObject({ kind: "protocol", serverId: "raw", message: "the server's JSON reply is not the response to the request" });
    expect(server.stats()).toMatchObject({ staleResponses: 7, invalidMessages: 0 });
    await server.ping();
    noUnhandled();

    // 2025-03-26 has batches: a JSON reply may hold the response twice.
    const batches = await streamable({ raw: { protocolVersion: "2025-03-26" } });
    const batched = await heldCall(batches.raw, batches.server);
    jsonBody(batched.pending, JSON.stringify([rpc(batched.id, { result: textResult("first") }), rpc(batched.id, { result: textResult("second") }), rpc(31_337, { result: {} })]));
    expect(await batched.outcome).toEqual({ value: textResult("first") });
    expect(batches.server.stats()).toMatchObject({ staleResponses: 2, invalidMessages: 0 });

    const old = await oldHttp();
    const call = await oldCall(old.raw, old.server);
    old.raw.send(rpc(999_999, { result: {} }));
    old.raw.send(rpc(String(call.id), { result: {} }));
    old.raw.send(rpc(call.id, { result: textResult("first") }));
    old.raw.send(rpc(call.id, { result: textResult("second") }));
    expect(await call.outcome).toEqual({ value: textResult("first") });
    await old.server.ping();
    expect(old.server.stats()).toMatchObject({ staleResponses: 3, invalidMessages: 0 });
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "responses to ids never sent (numbers, the id as a string), the same response twice",
      over: "Streamable HTTP (a POST's event stream, the GET stream, a 2025-03-26 batch), HTTP+SSE",
      outcome: "dropped and counted as `staleResponses`, the first of duplicates taken; a JSON reply that answers another id fails its call at once (`protocol`)",
    });
  });

  it("refuses a response with both a result and an error as a protocol error", async (context) => {
    const { raw, server } = await streamable();
    const both = rpc(0, { result: textResult("r"), error: { code: 1, message: "e" } });
    const malformed = { kind: "protocol", message: expect.stringMatching(/^the response to tools\/call is malformed: it needs exactly one of "result" or a valid "error"/) };
    const json = await heldCall(raw, server);
    jsonBody(json.pending, JSON.stringify({ ...both, id: json.id }));
    expect(await json.outcome).toMatchObject({ error: { ...malformed, serverId: "raw", data: { ...both, id: json.id } } });
    const sse = await heldCall(raw, server);
    sse.pending.write({ ...both, id: sse.id });
    sse.pending.res.end();
    expect(await sse.outcome).toMatchObject({ error: malformed });
    await server.ping();
    const old = await oldHttp();
    const call = await oldCall(old.raw, old.server);
    old.raw.send({ ...both, id: call.id });
    expect(await call.outcome).toMatchObject({ error: { ...malformed, serverId: "old" } });
    await old.server.ping();
    expect(server.stats()).toMatchObject({ staleResponses: 0, invalidMessages: 0 });
    expect(old.server.stats()).toMatchObject({ staleResponses: 0, invalidMessages: 0 });
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "a response with both `result` and `error`",
      over: BOTH,
      outcome: "the call fails with `protocol` (malformed response; `data` is the message)",
    });
  });
});

describe("ids no request has", () => {
  it("drops responses whose id is an object, an array, a float, null or a megabyte string; refuses requests with such ids, the Handler not called", async (context) => {
    let listed = 0;
    const handler = {
      listRoots: () => {
        listed += 1;
        return { roots: [] };
      },
    };
    const HUGE_ID = MB;
    const huge = "i".repeat(HUGE_ID);
    const odd = (id: number): unknown[] => [{ id }, [id], id + 0.5, null, huge];
    const { raw, server, stream, logger } = await streamable({ handler });
    const held = await heldCall(raw, server);
    for (const id of odd(held.id)) held.pending.write(rpc(id, { result: textResult("odd id") }));
    held.pending.respond(textResult("real"));
    expect(await held.outcome).toEqual({ value: textResult("real") });
    // On a request's own stream an error that names no id answers that request.
    const unnamed = await heldCall(raw, server);
    unnamed.pending.write(rpc(null, { error: { code: -32600, message: "bad" } }));
    expect(await unnamed.outcome).toMatchObject({ error: { kind: "rpc", code: -32600, message: "tools/call failed: bad (code -32600)" } });
    // Requests on the GET stream: an id that is no string or number is refused unanswered.
    for (const id of [{ toString: 1 }, [1], null]) writeSse(stream, { data: rpc(id, { method: "roots/list" }) });
    writeSse(stream, { data: rpc(null, { error: { code: -32600, message: "bad" } }) });
    writeSse(stream, { data: rpc(1.5, { method: "roots/list" }) });
    writeSse(stream, { data: rpc(huge, { method: "ping" }) });
    expect(await answerTo(raw, 1.5)).toEqual(rpc(1.5, { result: { roots: [] } }));
    expect(await answerTo(raw, huge)).toEqual(rpc(huge, { result: {} }));
    await syncGet(raw, stream);
    expect(server.stats()).toMatchObject({ staleResponses: 6, invalidMessages: 3 });
    expect(logger.warnings("request id is neither a string nor a number")).toHaveLength(3);
    expect(logger.warnings("reported an error without an id")).toHaveLength(1);
    expect(listed).toBe(1);
    await server.ping();

    const old = await oldHttp({ handler });
    const call = await oldCall(old.raw, old.server);
    for (const id of odd(call.id)) old.raw.send(rpc(id, { result: textResult("odd id") }));
    for (const id of [{ toString: 1 }, [1], null]) old.raw.send(rpc(id, { method: "roots/list" }));
    old.raw.send(rpc(2.5, { method: "roots/list" }));
    expect(await old.raw.next((m) => m.id === 2.5)).toEqual(rpc(2.5, { result: { roots: [] } }));
    old.raw.send(rpc(call.id, { result: textResult("real") }));
    expect(await call.outcome).toEqual({ value: textResult("real") });
    await syncOld(old.raw);
    expect(old.server.stats()).toMatchObject({ staleResponses: 5, invalidMessages: 3 });
    expect(listed).toBe(2);
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `ids that are objects, arrays, floats, null or a string of ${mib(HUGE_ID)}, in responses and in requests`,
      over: BOTH,
      outcome: "responses dropped and counted (`staleResponses`; an error with a null id on a request's own stream answers that request); requests with an object, array or null id refused unanswered and counted (`invalidMessages`), the Handler not called; float and string ids answered as given",
    });
  });
});

describe("bytes no parser should have to take", () => {
  const depth = 100_000;
  const deepArray = `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const deepResult = (id: number): string => `{"jsonrpc":"2.0","id":${id},"result":{"content":[],"_meta":{"deep":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}}}`;
  const empty = { value: { content: [], _meta: expect.anything() } };

  it("takes JSON nested 100 000 levels deep without a RangeError escaping", async (context) => {
    let deepParams = 0;
    const handler = { handleNotification: (method: string) => void (method === "notifications/deep" && (deepParams += 1)) };
    const { raw, client, server, stream } = await streamable({ handler });
    // As a JSON body: an array is no response to the request (and a batch of batches).
    const asBody = await heldCall(raw, server);
    jsonBody(asBody.pending, deepArray);
    expect(await asBody.outcome).toMatchObject({ error: { kind: "protocol", message: "the server's JSON reply is not the response to the request" } });
    const deepBody = await heldCall(raw, server);
    jsonBody(deepBody.pending, deepResult(deepBody.id));
    expect(await deepBody.outcome).toMatchObject(empty);
    // On the call's event stream: refused, then a deep result taken.
    const onStream = await heldCall(raw, server);
    sseBytes(onStream.pending.res, event(deepArray));
    sseBytes(onStream.pending.res, event(deepResult(onStream.id)));
    expect(await onStream.outcome).toMatchObject(empty);
    // On the GET stream: as a message, as an id, in a notification's params.
    sseBytes(stream, event(deepArray));
    sseBytes(stream, event(`{"jsonrpc":"2.0","id":${deepArray},"result":{}}`));
    sseBytes(stream, event(`{"jsonrpc":"2.0","method":"notifications/deep","params":{"deep":${deepArray}}}`));
    await syncGet(raw, stream);
    await client.notificationsSettled();
    expect(deepParams).toBe(1);
    expect(server.stats()).toMatchObject({ invalidMessages: 3, staleResponses: 1 });
    await server.ping();

    const old = await oldHttp();
    const call = await oldCall(old.raw, old.server);
    old.raw.sendRaw(event(deepArray));
    old.raw.sendRaw(event(deepResult(call.id)));
    expect(await call.outcome).toMatchObject(empty);
    expect(old.server.stats()).toMatchObject({ invalidMessages: 1, staleResponses: 0 });
    await old.server.ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `JSON nested ${count(depth)} levels deep: as a message, as an id, in a result, in a notification's params`,
      over: "Streamable HTTP (JSON body, event streams), HTTP+SSE",
      outcome: "no RangeError escapes: an array for a message is refused and counted (as a JSON reply, its call fails with `protocol`), the deep id is stale, the deep result and params are delivered",
    });
  });

  it("reads invalid UTF-8 as U+FFFD: a message of it is not JSON, inside a string it is replaced", async (context) => {
    const garbage = Buffer.from([0xff, 0xfe, 0x80]);
    // 0xff is no UTF-8 at all; 0xc3 starts a sequence that "b" does not continue.
    const inText = (id: number): Buffer =>
      Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"a`), Buffer.from([0xff, 0xc3]), Buffer.from('b"}]}}')]);
    const replaced = { value: textResult("a\uFFFD\uFFFDb") };
    const { raw, server, stream, logger } = await streamable();
    const asBody = await heldCall(raw, server);
    jsonBody(asBody.pending, garbage);
    expect(await asBody.outcome).toMatchObject({ error: { kind: "protocol", message: "the server's JSON reply does not parse" } });
    const inBody = await heldCall(raw, server);
    jsonBody(inBody.pending, inText(inBody.id));
    expect(await inBody.outcome).toEqual(replaced);
    const onStream = await heldCall(raw, server);
    sseBytes(onStream.pending.res, event(garbage));
    sseBytes(onStream.pending.res, event(inText(onStream.id)));
    expect(await onStream.outcome).toEqual(replaced);
    sseBytes(stream, event(garbage));
    await syncGet(raw, stream);
    expect(server.stats()).toMatchObject({ invalidMessages: 2, staleResponses: 0 });
    expect(logger.warnings("that is not JSON")).toHaveLength(2);

    const old = await oldHttp();
    const call = await oldCall(old.raw, old.server);
    old.raw.sendRaw(event(garbage));
    old.raw.sendRaw(event(inText(call.id)));
    expect(await call.outcome).toEqual(replaced);
    expect(old.server.stats()).toMatchObject({ invalidMessages: 1 });
    await old.server.ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "invalid UTF-8: a whole message of it, and bytes inside a string",
      over: "Streamable HTTP (JSON body, event streams), HTTP+SSE",
      outcome: "read as U+FFFD: an event of it is not JSON, dropped and counted (`invalidMessages`), a JSON reply of it fails its call (`protocol`); inside a string it is replaced and the call answered",
    });
  });

  it("refuses a message with a raw NUL inside as not JSON, and the call is still answered", async (context) => {
    const withNul = (id: number): string => `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"a\u0000b"}]}}`;
    const { raw, server, stream, logger } = await streamable();
    const asBody = await heldCall(raw, server);
    jsonBody(asBody.pending, withNul(asBody.id));
    expect(await asBody.outcome).toMatchObject({ error: { kind: "protocol", message: "the server's JSON reply does not parse" } });
    const onStream = await heldCall(raw, server);
    sseBytes(onStream.pending.res, event(withNul(onStream.id)));
    onStream.pending.respond(textResult("after the NUL"));
    expect(await onStream.outcome).toEqual({ value: textResult("after the NUL") });
    sseBytes(stream, event(withNul(1)));
    await syncGet(raw, stream);
    expect(server.stats()).toMatchObject({ invalidMessages: 2, staleResponses: 0 });
    expect(logger.warnings("that is not JSON")).toHaveLength(2);

    const old = await oldHttp();
    const call = await oldCall(old.raw, old.server);
    old.raw.sendRaw(event(withNul(call.id)));
    old.raw.send(rpc(call.id, { result: textResult("after the NUL") }));
    expect(await call.outcome).toEqual({ value: textResult("after the NUL") });
    expect(old.server.stats()).toMatchObject({ invalidMessages: 1, staleResponses: 0 });
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "a raw NUL inside a message",
      over: "Streamable HTTP (JSON body, event streams), HTTP+SSE",
      outcome: "not JSON: on a stream dropped, counted (`invalidMessages`) and logged, the call then answered; as a JSON reply its call fails (`protocol`)",
    });
  });
});

describe("servers that say too little", () => {
  it("ends connect at connectTimeout and a call at its timeout when the server writes nothing, and tells the server", async (context) => {
    const mute = track(await startRawHttp());
    mute.route(() => {});
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await client.connect("mute", { url: mute.url }, { connectTimeout: CONNECT_TIMEOUT_MS, probeTimeout: PROBE_TIMEOUT_MS }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout", serverId: "mute", message: `connecting timed out after ${CONNECT_TIMEOUT_MS} ms` });
    expect(client.server("mute")).toBeUndefined();
    await (await another(client)).ping();

    const { raw, server } = await streamable();
    const timedOut = { error: { kind: "timeout", serverId: "raw", message: `tools/call timed out after ${CALL_TIMEOUT_MS} ms (timeout)` } };
    const cancelledFor = async (id: number): Promise<void> => {
      const cancel = await raw.nextRequest((r) => (r.json as { method?: unknown } | undefined)?.method === "notifications/cancelled");
      expect(cancel.json).toMatchObject({ params: { requestId: id } });
    };
    // No status line at all, then a status and an event stream that says nothing.
    const silent = await heldCall(raw, server, CALL_TIMEOUT_MS);
    expect(await silent.outcome).toMatchObject(timedOut);
    await silent.pending.closed;
    await cancelledFor(silent.id);
    const quiet = await heldCall(raw, server, CALL_TIMEOUT_MS);
    startSse(quiet.pending.res);
    expect(await quiet.outcome).toMatchObject(timedOut);
    await quiet.pending.closed;
    await cancelledFor(quiet.id);
    await server.ping();

    // Over HTTP+SSE, `initialize` is sent with connectTimeout for its own timeout, a moment after
    // the connect's bound of connectTimeout began: two timers of the same length, a few
    // milliseconds apart. On a loaded machine, a loop late for both ran the request's first (its
    // expiry, armed from a fresher clock, could be the earlier) and the connect failed with
    // "initialize timed out" instead. On a fake clock both fall due at the same instant and run in
    // one synchronous step: the bound has fired before anything awaits the request's end.
    const silentOld = track(await startRawSse());
    silentOld.handle("initialize", () => undefined);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const onFakeClock = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const connecting = onFakeClock.connect("mute-old", { url: silentOld.url, transport: "sse" }, { connectTimeout: CONNECT_TIMEOUT_MS }).catch((e: unknown) => e);
    await silentOld.next("initialize");
    vi.advanceTimersByTime(CONNECT_TIMEOUT_MS - 1);
    let settled = false;
    void connecting.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    vi.useRealTimers();
    const oldError = await connecting;
    expect(oldError).toMatchObject({ kind: "timeout", serverId: "mute-old", message: `connecting timed out after ${CONNECT_TIMEOUT_MS} ms` });
    const old = await oldHttp();
    const call = await oldCall(old.raw, old.server, CALL_TIMEOUT_MS);
    expect(await call.outcome).toMatchObject({ error: { ...timedOut.error, serverId: "old" } });
    expect(await old.raw.next("notifications/cancelled")).toMatchObject({ params: { requestId: call.id } });
    await old.server.ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "a server that writes nothing: no status line, or an event stream that stays silent",
      over: BOTH,
      outcome: `\`connect\` ends at \`connectTimeout\` (${count(CONNECT_TIMEOUT_MS)} ms here, \`timeout\`), a call at its \`timeout\` (${count(CALL_TIMEOUT_MS)} ms here, \`timeout\`), the server told with \`notifications/cancelled\` and the POST let go`,
    });
  });

  it("times a call out on half a message then silence; on a stream the message's end is then garbage", async (context) => {
    const half = (id: number): string => `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"te`;
    const { raw, server, stream } = await streamable();
    const timedOut = { error: { kind: "timeout", message: `tools/call timed out after ${CALL_TIMEOUT_MS} ms (timeout)` } };
    const onStream = await heldCall(raw, server, CALL_TIMEOUT_MS);
    sseBytes(onStream.pending.res, `data: ${half(onStream.id)}`);
    expect(await onStream.outcome).toMatchObject(timedOut);
    const inBody = await heldCall(raw, server, CALL_TIMEOUT_MS);
    inBody.pending.res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    inBody.pending.res.write(half(inBody.id));
    expect(await inBody.outcome).toMatchObject(timedOut);
    expect(server.state).toBe("ready");
    // Half a body and then the connection gone: that reply can never come.
    const cut = await heldCall(raw, server);
    cut.pending.res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    cut.pending.res.write(half(cut.id), () => cut.pending.res.socket?.destroy());
    expect(await cut.outcome).toMatchObject({ error: { kind: "transport", serverId: "raw" } });
    // On the GET stream: the calls go on meanwhile; the message's end makes it garbage.
    sseBytes(stream, `data: ${half(1)}`);
    await server.ping();
    stream.write("\n\n");
    await syncGet(raw, stream);
    expect(server.stats()).toMatchObject({ invalidMessages: 1, staleResponses: 0 });

    const old = await oldHttp();
    const call = await oldCall(old.raw, old.server, CALL_TIMEOUT_MS);
    old.raw.sendRaw(`event: message\ndata: ${half(call.id)}`);
    expect(await call.outcome).toMatchObject(timedOut);
    old.raw.sendRaw("\n\n");
    await syncOld(old.raw);
    expect(old.server.stats()).toMatchObject({ invalidMessages: 1 });
    await old.server.ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "half a message, then silence: on an event stream, in a JSON body (then its connection cut)",
      over: BOTH,
      outcome: `the call ends at its \`timeout\` (${count(CALL_TIMEOUT_MS)} ms here, \`timeout\`; \`transport\` once the connection is cut), the server stays ready; on a stream the message's end is then not JSON, dropped and counted`,
    });
  });

  it("fails the connect with transport when the connection drops during initialize; the client answers on", async (context) => {
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const dropped = async (id: string, target: Parameters<Client["connect"]>[1]): Promise<unknown> => {
      const error = await client.connect(id, target).catch((e: unknown) => e);
      expect(client.server(id)).toBeUndefined();
      return error;
    };
    const isInitialize = (r: RecordedRequest): boolean => (r.json as { method?: unknown } | undefined)?.method === "initialize";
    const beforeHeaders = track(await startRawHttp());
    beforeHeaders.route((r, res) => (isInitialize(r) ? void res.socket?.destroy() : NEXT));
    expect(await dropped("before", { url: beforeHeaders.url })).toMatchObject({ kind: "transport", serverId: "before", message: expect.stringContaining("failed: socket hang up") });
    const onStream = track(await startRawHttp());
    onStream.route((r, res) => {
      if (!isInitialize(r)) return NEXT;
      // The stream's headers and a comment reach the client, then the connection goes.
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": primed\n\n", () => res.socket?.destroy());
      return undefined;
    });
    expect(await dropped("stream", { url: onStream.url })).toMatchObject({ kind: "transport", serverId: "stream", message: expect.stringContaining("the server's event stream ended before it answered") });
    const old = track(await startRawSse());
    old.handle("initialize", () => void old.drop());
    expect(await dropped("old", { url: old.url, transport: "sse" })).toMatchObject({ kind: "transport", serverId: "old", message: expect.stringContaining("the HTTP+SSE stream of") });
    await (await another(client)).ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "the connection dropped during `initialize`: before the reply's headers, on its event stream, the HTTP+SSE stream",
      over: BOTH,
      outcome: "`connect` fails with `transport` naming the cause, the id is free, another server on the same Client answers",
    });
  });
});

describe("servers that say too much", () => {
  it("keeps server requests whose ids collide with the client's own apart from them", async (context) => {
    const gate = deferred<void>();
    let listed = 0;
    const handler = {
      listRoots: async () => {
        listed += 1;
        await gate.promise;
        return { roots: [] };
      },
    };
    const { raw, server, stream, logger } = await streamable({ handler });
    const held = await heldCall(raw, server);
    // On the call's own stream and on the GET stream, under the call's id.
    held.pending.write(rpc(held.id, { method: "ping" }));
    expect(await answerTo(raw, held.id)).toEqual(rpc(held.id, { result: {} }));
    writeSse(stream, { data: rpc(held.id, { method: "ping" }) });
    expect(await answerTo(raw, held.id)).toEqual(rpc(held.id, { result: {} }));
    // A request of the server's own still running: the second under its id is refused.
    writeSse(stream, { data: rpc(held.id, { method: "roots/list" }) });
    writeSse(stream, { data: rpc(held.id, { method: "roots/list" }) });
    await syncGet(raw, stream);
    expect(logger.warnings(`request id ${held.id} is already in use`)).toHaveLength(1);
    gate.resolve();
    expect(await answerTo(raw, held.id)).toEqual(rpc(held.id, { result: { roots: [] } }));
    held.pending.respond(textResult("mine"));
    expect(await held.outcome).toEqual({ value: textResult("mine") });
    await syncGet(raw, stream);
    expect(listed).toBe(1);
    expect(raw.requests.filter((r) => (r.json as { id?: unknown } | undefined)?.id === held.id && r.method === "POST")).toHaveLength(4);
    expect(server.stats()).toMatchObject({ staleResponses: 0, invalidMessages: 1 });

    const old = await oldHttp({ handler });
    const call = await oldCall(old.raw, old.server);
    old.raw.send(rpc(call.id, { method: "ping" }));
    expect(await old.raw.next((m) => m.id === call.id && "result" in m)).toEqual(rpc(call.id, { result: {} }));
    old.raw.send(rpc(call.id, { method: "roots/list" }));
    expect(await old.raw.next((m) => m.id === call.id && "result" in m)).toEqual(rpc(call.id, { result: { roots: [] } }));
    old.raw.send(rpc(call.id, { result: textResult("mine") }));
    expect(await call.outcome).toEqual({ value: textResult("mine") });
    expect(listed).toBe(2);
    expect(old.server.stats()).toMatchObject({ staleResponses: 0, invalidMessages: 0 });
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "server requests under the id of a call of the client's in flight, and under the id of its own request still running",
      over: "Streamable HTTP (a call's event stream, the GET stream), HTTP+SSE",
      outcome: "answered under that id and kept apart from the call, which gets its own response; the second of the server's own refused unanswered and counted, the Handler called once",
    });
  });

  it(`takes a 10 MB initialize result under the default maxMessageBytes (${count(64 * MB)} bytes), and refuses it over the bound`, async (context) => {
    const INSTRUCTIONS = 10 * MB;
    const BOUND = MB;
    const instructions = "i".repeat(INSTRUCTIONS);
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const asJson = track(await startRawHttp({ instructions }));
    const asSse = track(await startRawHttp());
    asSse.handle("initialize", (m) => viaSse(initializeResult(m, { instructions })));
    for (const raw of [asJson, asSse]) raw.handle("ping", () => ({}));
    const old = track(await startRawSse());
    old.handle("initialize", (m) => initializeResult(m, { protocolVersion: "2024-11-05", instructions }));
    const targets = [
      { id: "json", target: { url: asJson.url }, over: `a response body exceeded maxMessageBytes (${BOUND} bytes)` },
      { id: "sse", target: { url: asSse.url }, over: `an event-stream message exceeded maxMessageBytes (${BOUND} bytes)` },
      { id: "old", target: { url: old.url, transport: "sse" as const }, over: `an event-stream message exceeded maxMessageBytes (${BOUND} bytes)` },
    ];
    for (const { id, target, over } of targets) {
      const server = await client.connect(id, target);
      expect(server.instructions).toHaveLength(INSTRUCTIONS);
      await server.ping();
      await server.close();
      const error = await client.connect(id, target, { maxMessageBytes: BOUND }).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: "transport", serverId: id, message: expect.stringContaining(over) });
      expect(client.server(id)).toBeUndefined();
    }
    // Over the default itself: the body is refused at 64 MiB, not read to its end.
    const huge = track(await startRawHttp());
    huge.route((r, res) => ((r.json as { method?: unknown } | undefined)?.method === "initialize" ? void endlessInitialize(res) : NEXT));
    const error = await client.connect("huge", { url: huge.url }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", serverId: "huge", message: expect.stringContaining(`a response body exceeded maxMessageBytes (${DEFAULT_MAX_MESSAGE_BYTES} bytes)`) });
    await (await another(client)).ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `an \`initialize\` result of ${mib(INSTRUCTIONS)} (JSON body, event stream, HTTP+SSE), and one of more than ${mib(DEFAULT_MAX_MESSAGE_BYTES)}`,
      over: BOTH,
      outcome: `taken under the default \`maxMessageBytes\` (${count(DEFAULT_MAX_MESSAGE_BYTES)} bytes); over the bound (${count(BOUND)} bytes, or the default) \`connect\` fails with \`transport\` naming it, the id free`,
    });
  });

  it(`lists ${count(LIST_BOUNDS.items)} tools in one page and refuses ${count(LIST_BOUNDS.items + 1)}`, async (context) => {
    const tools = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: "object" } }));
    const all = tools(LIST_BOUNDS.items);
    const { raw, server } = await streamable();
    for (const answer of [() => ({ tools: all }), () => viaSse({ tools: all })]) {
      raw.handle("tools/list", answer);
      const listed = await server.listTools();
      expect(listed).toHaveLength(LIST_BOUNDS.items);
      expect(listed.at(-1)?.name).toBe(`tool_${LIST_BOUNDS.items - 1}`);
    }
    raw.handle("tools/list", () => ({ tools: tools(LIST_BOUNDS.items + 1) }));
    await expect(server.listTools()).rejects.toMatchObject({ kind: "protocol", serverId: "raw", message: expect.stringContaining(`tools/list listed more than ${LIST_BOUNDS.items} items (at page 1)`) });
    await server.ping();
    const old = await oldHttp();
    old.raw.handle("tools/list", () => ({ tools: all }));
    expect(await old.server.listTools()).toHaveLength(LIST_BOUNDS.items);
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `${count(LIST_BOUNDS.items)} tools in one page, and ${count(LIST_BOUNDS.items + 1)}`,
      over: "Streamable HTTP (JSON body, event stream), HTTP+SSE",
      outcome: `all ${count(LIST_BOUNDS.items)} listed; one more fails the listing with \`protocol\` naming the bound (\`LIST_BOUNDS.items\`)`,
    });
  });

  it("stops a listing whose cursor repeats, never ends, or whose cursors outgrow LIST_BOUNDS", async (context) => {
    const tool = { name: "t", inputSchema: { type: "object" } };
    /** A repeat is seen at the second page; cursors of 1 MiB pass the bound at this one. */
    const REPEAT_PAGE = 2;
    const CURSOR_BYTES = MB;
    const CURSOR_CROSSING = Math.floor(LIST_BOUNDS.cursorCharacters / CURSOR_BYTES) + 1;
    const cursorOf = (m: RpcMessage): string | undefined => (m.params as { cursor?: string } | undefined)?.cursor;
    const { raw, server } = await streamable();
    const old = await oldHttp();
    for (const { handle, handleOf } of [
      { handle: server, handleOf: (fn: (m: RpcMessage) => Record<string, unknown>) => raw.handle("tools/list", fn) },
      { handle: old.server, handleOf: (fn: (m: RpcMessage) => Record<string, unknown>) => old.raw.handle("tools/list", fn) },
    ]) {
      let asked = 0;
      handleOf(() => ((asked += 1), { tools: [tool], nextCursor: "again" }));
      await expect(handle.listTools()).rejects.toMatchObject({ kind: "protocol", message: 'the server repeated the tools/list cursor "again"' });
      expect(asked).toBe(REPEAT_PAGE);
      asked = 0;
      handleOf((m) => ((asked += 1), { tools: [tool], nextCursor: String(Number(cursorOf(m) ?? 0) + 1) }));
      await expect(handle.listTools()).rejects.toMatchObject({ kind: "protocol", message: expect.stringContaining(`tools/list did not end after ${LIST_BOUNDS.pages} pages`) });
      expect(asked).toBe(LIST_BOUNDS.pages);
      await handle.ping();
    }
    const cursorMB = (n: number): string => String(n).padEnd(CURSOR_BYTES, "c");
    raw.handle("tools/list", (m) => ({ tools: [tool], nextCursor: cursorMB(Number(cursorOf(m)?.slice(0, 4).replace(/c/g, "") ?? 0) + 1) }));
    await expect(server.listTools()).rejects.toMatchObject({ kind: "protocol", message: expect.stringContaining(`tools/list's cursors passed ${LIST_BOUNDS.cursorCharacters} characters in all (at page ${CURSOR_CROSSING})`) });
    await server.ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `a cursor that repeats; a list that never ends; cursors of ${mib(CURSOR_BYTES)} each`,
      over: BOTH,
      outcome: `the listing fails with \`protocol\`: the repeat at page ${REPEAT_PAGE}, the endless list at page ${count(LIST_BOUNDS.pages)}, the cursors at page ${CURSOR_CROSSING}, past ${count(LIST_BOUNDS.cursorCharacters)} characters in all (\`LIST_BOUNDS\`)`,
    });
  });

  it(`takes a storm of ${count(STORM)} list_changed: the hooks get what the queue holds, the rest counted, the catalog lists once`, async (context) => {
    // The first hook runs and holds: what reaches the hooks then is the queue's bound.
    for (const over of [legacyStorm, modernStorm, oldStorm]) {
      const held = hooks();
      const { client, server, storm, listings } = await over(held);
      expect(await client.tools()).toHaveLength(1);
      const memory = sampleMemory();
      await storm(1);
      await storm(STORM);
      const peak = memory.stop();
      expect(client.droppedNotifications).toBe(STORM - QUEUED);
      expect(await client.tools()).toHaveLength(1);
      expect(await client.tools()).toHaveLength(1);
      expect(listings()).toBe(2);
      expect(peak.heapUsed / MB).toBeLessThan(64);
      expect(server.stats()).toMatchObject({ invalidMessages: 0, staleResponses: 0 });
      held.release();
      await client.notificationsSettled();
      expect(held.seen()).toBe(QUEUED + 1);
      await client.close();
    }
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `${count(STORM)} \`notifications/tools/list_changed\` at once, the hooks busy`,
      over: "Streamable HTTP (the GET stream; a 2026-07-28 `subscriptions/listen` stream), HTTP+SSE",
      outcome: `the hooks get ${count(QUEUED + 1)} (the one running and \`maxQueuedNotifications\`), ${count(STORM - QUEUED)} dropped and counted (\`droppedNotifications\`); the catalog lists the tools once again, not once per notification`,
    });
  });
});

describe("garbage by the thousand", () => {
  const n = 10_000;
  /** 1 to 10, 100, 1 000, 10 000, …: the log lines of a refusal that comes `times` times. */
  const logLines = (times: number): number => Math.min(times, 10) + Math.max(0, Math.floor(Math.log10(times)) - 1);

  it(`counts ${count(n)} of each kind of garbage on the GET stream, and logs a handful`, async (context) => {
    const { raw, server, stream, logger } = await streamable();
    const kinds = [
      "this is not json",
      '{"jsonrpc":"1.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/x","params":[1]}',
      '{"jsonrpc":"2.0","id":999999,"result":{}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}',
    ];
    for (const text of kinds) stream.write(`data: ${text}\n\n`.repeat(n));
    await syncGet(raw, stream);
    expect(server.stats()).toMatchObject({ invalidMessages: 3 * n, staleResponses: 2 * n });
    expect(logger.warnings()).toHaveLength(logLines(3 * n) + logLines(n));
    expect(logger.entries.length).toBeLessThanOrEqual(logLines(3 * n) + 2 * logLines(n));
    await server.ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `${count(n)} each of: not JSON, not JSON-RPC, params that are no object, responses to no request, errors with a null id`,
      over: "Streamable HTTP (the GET stream)",
      outcome: `each counted (\`invalidMessages\`, \`staleResponses\`), none answered; logged the 1st to 10th, 100th, 1 000th, … time: ${logLines(3 * n) + logLines(n)} warnings in all`,
    });
  });

  it(`holds what a server sends before the handshake ends within bounds, and logs a handful of the ${count(n)} dropped`, async (context) => {
    let notified = 0;
    const handler = { handleNotification: (method: string) => void (method === "notifications/early" && (notified += 1)) };
    const raw = track(await startRawHttp());
    raw.handle("ping", () => ({}));
    const early = [
      ...Array.from({ length: n }, () => ({ jsonrpc: "2.0", method: "notifications/early" })),
      ...Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: `early-${i}`, method: "roots/list" })),
    ];
    raw.handle("initialize", (m) => viaSse(initializeResult(m), { before: early }));
    const logger = capturingLogger();
    const client = track(new Client({ name: "h", version: "0", logger, handler: { ...handler, listRoots: () => ({ roots: [] }) } }));
    const server = await client.connect("early", { url: raw.url });
    await client.notificationsSettled();
    expect(notified).toBe(EARLY_NOTIFICATIONS);
    expect(logger.warnings("before negotiation ended was dropped")).toHaveLength(logLines(n - EARLY_NOTIFICATIONS));
    expect(logger.warnings("before the connection was negotiated")).toHaveLength(logLines(n));
    await server.ping();
    expect(raw.requests.filter((r) => String((r.json as { id?: unknown } | undefined)?.id).startsWith("early-"))).toEqual([]);
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `${count(n)} notifications and ${count(n)} requests on the stream of \`initialize\`, before its response`,
      over: "Streamable HTTP (the event stream of `initialize`)",
      outcome: `the first ${count(EARLY_NOTIFICATIONS)} notifications held and delivered once ready, the rest dropped; the requests left unanswered, the Handler not called; a handful of warnings (the 1st to 10th, 100th, …)`,
    });
  });

  it(`ignores ${count(n)} requests of a modern server, which has none to send, and logs a handful`, async (context) => {
    let listed = 0;
    const raw = track(await startRawHttp({ session: false }));
    raw.handle("server/discover", () => ({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } }));
    const requests = Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "roots/list" }));
    raw.handle("tools/call", () => viaSse(textResult("modern"), { before: requests }));
    const logger = capturingLogger();
    const handler = { listRoots: () => ((listed += 1), { roots: [] }) };
    const client = track(new Client({ name: "h", version: "0", logger, handler }));
    const server = await client.connect("modern", { url: raw.url });
    expect(server.era).toBe("modern");
    expect(await server.callTool("t")).toEqual(textResult("modern"));
    expect(listed).toBe(0);
    expect(logger.warnings("on a modern connection; ignored")).toHaveLength(logLines(n));
    expect(raw.requests.filter((r) => r.method === "POST" && (r.json as { method?: unknown } | undefined)?.method === undefined)).toEqual([]);
    expect(server.stats()).toMatchObject({ invalidMessages: 0, staleResponses: 0 });
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `${count(n)} \`roots/list\` requests on a call's stream from a 2026-07-28 server (the era has no server requests)`,
      over: "Streamable HTTP",
      outcome: "ignored: none answered, the Handler not called, the call answered; a handful of warnings (the 1st to 10th, 100th, …)",
    });
  });
});

describe("streams held open after the answer", () => {
  // The client read a call's event stream until the server ended it, also after the response
  // came on it or elsewhere: a server that never ends its streams pinned one socket per answered
  // call, without bound. An answered call's reply now has a second to end (http-linger.ts).
  it("lets go of a call's POST once the call is answered, whether on its own stream or on another", async (context) => {
    // Each waits out the grace of a second: six, three answered each way, are enough.
    const calls = 6;
    /** The grace, and as much again for a loaded machine. */
    const LET_GO_WITHIN_MS = 2 * ANSWERED_REPLY_GRACE_MS;
    const { raw, server, stream } = await streamable();
    for (let i = 0; i < calls; i++) {
      const held = await heldCall(raw, server);
      if (i % 2 === 0) held.pending.write(rpc(held.id, { result: textResult("on its own stream") }));
      else {
        sseBytes(held.pending.res, ": open\n\n");
        writeSse(stream, { data: rpc(held.id, { result: textResult("on the GET stream") }) });
      }
      expect((await held.outcome).value).toBeDefined();
      await withTimeout(held.pending.closed, LET_GO_WITHIN_MS, `call ${i}'s POST to be let go`);
    }
    expect(raw.pendingResponses).toEqual([]);
    await server.ping();
    noUnhandled();
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `${count(calls)} calls answered (on their own event stream or on the GET stream) whose streams the server never ends`,
      over: "Streamable HTTP",
      outcome: `each call's POST is let go of within ${count(LET_GO_WITHIN_MS)} ms of its answer (\`ANSWERED_REPLY_GRACE_MS\`, ${count(ANSWERED_REPLY_GRACE_MS)} ms, and as much again): no socket stays held for an answered call`,
    });
  });
});
