// The Handler in the legacy era over stdio, driven by the raw scripted server: every rule of the
// handler contract, each bound crossed.
import { describe, expect, it, vi } from "vitest";
import { Client, RpcError, type ClientOptions, type CreateMessageResult, type Handler, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { deferred, startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

interface Setup {
  raw: RawStdioServer;
  client: Client;
  server: ServerHandle;
  logger: CapturingLogger;
}

async function setup(
  handler: Handler | undefined,
  options: Partial<ClientOptions> = {},
  connect: Parameters<Client["connect"]>[2] = {},
  init: Parameters<RawStdioServer["autoInitialize"]>[0] = {},
): Promise<Setup> {
  const raw = track(await startRawStdio());
  raw.autoInitialize(init);
  const logger = capturingLogger();
  const client = track(new Client({ name: "host", version: "1", handler, logger, assigns: { who: "client" }, ...options }));
  const server = await client.connect("srv", raw.target, connect);
  await raw.next("notifications/initialized");
  return { raw, client, server, logger };
}

let nextId = 1000;

/** The server asks; resolves with the client's response. */
async function ask(raw: RawStdioServer, method: string, params?: Record<string, unknown>): Promise<RpcMessage> {
  const id = nextId++;
  await raw.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
  return raw.next((m) => m.id === id && !("method" in m));
}

const sampleParams = (extra: Record<string, unknown> = {}) => ({
  messages: [{ role: "user", content: { type: "text", text: "hi" } }],
  maxTokens: 100,
  ...extra,
});
const sampled: CreateMessageResult = { role: "assistant", content: { type: "text", text: "hello" }, model: "test-model" };
const formParams = (schema?: Record<string, unknown>) => ({
  message: "Who are you?",
  requestedSchema: schema ?? {
    type: "object",
    properties: { name: { type: "string" }, subscribe: { type: "boolean", default: true } },
    required: ["name"],
  },
});
const rootsHandler: Handler = { listRoots: () => ({ roots: [{ uri: "file:///home/ada/project", name: "project" }] }) };

/** Starts a call the raw server leaves unanswered; returns it and its request. */
async function callInFlight(raw: RawStdioServer, server: ServerHandle, options: Parameters<ServerHandle["callTool"]>[2] = {}) {
  const outcome = server.callTool("work", {}, options).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const request = await raw.next("tools/call");
  return { outcome, request };
}

describe("capabilities come from the handler", () => {
  const capabilitiesFor = async (handler: Handler | undefined, init = {}) => {
    const { raw } = await setup(handler, {}, {}, init);
    return (raw.messages.find((m) => (m as { method?: string }).method === "initialize") as { params: { capabilities: unknown } }).params.capabilities;
  };

  it("declares nothing without a handler, or with none of the three callbacks", async () => {
    expect(await capabilitiesFor(undefined)).toEqual({});
    expect(await capabilitiesFor({ handleNotification: () => {} })).toEqual({});
  });

  it("declares sampling, elicitation (form by default) and roots with listChanged", async () => {
    expect(
      await capabilitiesFor({ handleSampling: () => sampled, handleElicitation: () => ({ action: "decline" }), ...rootsHandler }),
    ).toEqual({ sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } });
  });

  it("declares the elicitation modes of elicitationModes", async () => {
    expect(await capabilitiesFor({ handleElicitation: () => ({ action: "decline" }), elicitationModes: ["form", "url"] })).toEqual({
      elicitation: { form: {}, url: {} },
    });
  });

  it("refuses an undeclared capability with -32601 before any callback runs", async () => {
    let calls = 0;
    const { raw } = await setup({ handleElicitation: () => (calls++, { action: "decline" }) });
    expect((await ask(raw, "sampling/createMessage", sampleParams())).error).toMatchObject({ code: -32601 });
    expect((await ask(raw, "roots/list")).error).toMatchObject({ code: -32601 });
    expect((await ask(raw, "tasks/list")).error).toMatchObject({ code: -32601 });
    expect(calls).toBe(0);
  });
});

describe("supervision", () => {
  it("answers the 9th concurrent request -32000, and takes new ones once a slot frees", async () => {
    const releases: (() => void)[] = [];
    const { raw } = await setup({
      listRoots: () => new Promise((resolve) => releases.push(() => resolve({ roots: [] }))),
    });
    const ids = Array.from({ length: 9 }, () => nextId++);
    for (const id of ids) await raw.send({ jsonrpc: "2.0", id, method: "roots/list" });
    const ninth = await raw.next((m) => m.id === ids[8]);
    expect(ninth.error).toMatchObject({ code: -32000 });
    expect(releases).toHaveLength(8);
    releases[0]!();
    expect((await raw.next((m) => m.id === ids[0])).result).toEqual({ roots: [] });
    const again = ask(raw, "roots/list");
    await vi.waitFor(() => expect(releases).toHaveLength(9));
    releases[8]!();
    expect((await again).result).toEqual({ roots: [] });
    for (const release of releases.slice(1, 8)) release();
  });

  it("keeps reading while a handler is slow: other messages and calls go on", async () => {
    let release!: () => void;
    const { raw, server } = await setup({ listRoots: () => new Promise((resolve) => (release = () => resolve({ roots: [] }))) });
    const slow = ask(raw, "roots/list");
    raw.handle("tools/call", () => ({ content: [{ type: "text", text: "fast" }] }));
    await expect(server.callTool("x")).resolves.toMatchObject({ content: [{ text: "fast" }] });
    release();
    expect((await slow).result).toEqual({ roots: [] });
  });

  it("times out an elicitation after 5 minutes: ctx.signal aborts, the server gets -32603, a late answer is dropped", async () => {
    let signal!: AbortSignal;
    let answer!: (value: { action: "decline" }) => void;
    const called = deferred<void>();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw } = await setup({
      handleElicitation: (_params, ctx) => {
        signal = ctx.signal;
        called.resolve();
        return new Promise((resolve) => (answer = resolve));
      },
    });
    const id = nextId++;
    await raw.send({ jsonrpc: "2.0", id, method: "elicitation/create", params: formParams() });
    await called.promise;
    await vi.advanceTimersByTimeAsync(299_999);
    expect(signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal.aborted).toBe(true);
    const response = await raw.next((m) => m.id === id);
    expect(response.error).toMatchObject({ code: -32603 });
    answer({ action: "decline" });
    const pong = await ask(raw, "ping");
    expect(pong.result).toEqual({});
    expect(raw.messages.filter((m) => (m as RpcMessage).id === id)).toHaveLength(1);
  });

  it("times out sampling and roots after 60 s by default, and honours handlerTimeout", async () => {
    const started = { sampling: deferred<void>(), roots: deferred<void>(), elicitation: deferred<void>() };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw } = await setup(
      {
        handleSampling: () => (started.sampling.resolve(), new Promise<never>(() => {})),
        listRoots: () => (started.roots.resolve(), new Promise<never>(() => {})),
        handleElicitation: () => (started.elicitation.resolve(), new Promise<never>(() => {})),
      },
      { handlerTimeout: { elicitation: 1000 }, sampling: { allowIdle: true } },
    );
    const id = nextId++;
    await raw.send({ jsonrpc: "2.0", id, method: "sampling/createMessage", params: sampleParams() });
    const rootsId = nextId++;
    await raw.send({ jsonrpc: "2.0", id: rootsId, method: "roots/list" });
    await Promise.all([started.sampling.promise, started.roots.promise]);
    await vi.advanceTimersByTimeAsync(59_999);
    // A round trip after the last moment before the deadline: neither was answered yet.
    expect((await ask(raw, "ping")).result).toEqual({});
    expect(raw.messages.filter((m) => (m as RpcMessage).id === id || (m as RpcMessage).id === rootsId)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await raw.next((m) => m.id === id)).error).toMatchObject({ code: -32603 });
    expect((await raw.next((m) => m.id === rootsId)).error).toMatchObject({ code: -32603 });

    // handlerTimeout.elicitation set to 1 s replaces the 5 minutes.
    const elicitId = nextId++;
    await raw.send({ jsonrpc: "2.0", id: elicitId, method: "elicitation/create", params: formParams() });
    await started.elicitation.promise;
    await vi.advanceTimersByTimeAsync(999);
    expect((await ask(raw, "ping")).result).toEqual({});
    expect(raw.messages.filter((m) => (m as RpcMessage).id === elicitId)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await raw.next((m) => m.id === elicitId)).error).toMatchObject({ code: -32603 });
  });

  it("a request the server cancels aborts ctx.signal and is never answered", async () => {
    let signal!: AbortSignal;
    let answer!: (value: unknown) => void;
    const { raw } = await setup({
      listRoots: (ctx) => {
        signal = ctx.signal;
        return new Promise((resolve) => (answer = resolve)) as never;
      },
    });
    const id = nextId++;
    await raw.send({ jsonrpc: "2.0", id, method: "roots/list" });
    await vi.waitFor(() => expect(signal).toBeDefined());
    await raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "no longer needed" } });
    await vi.waitFor(() => expect(signal.aborted).toBe(true));
    answer({ roots: [] });
    expect((await ask(raw, "ping")).result).toEqual({});
    expect(raw.messages.some((m) => (m as RpcMessage).id === id)).toBe(false);
  });

  it("sends an RpcError's code, message and data, and -32603 with a generic message for any other throw", async () => {
    const { raw, logger } = await setup({
      listRoots: () => {
        throw new RpcError(-32042, "not now", { retry: true });
      },
      handleElicitation: () => {
        throw new Error("database password is hunter2 at /srv/secret");
      },
    });
    expect((await ask(raw, "roots/list")).error).toEqual({ code: -32042, message: "not now", data: { retry: true } });
    const crash = await ask(raw, "elicitation/create", formParams());
    expect(crash.error).toMatchObject({ code: -32603 });
    expect(JSON.stringify(crash.error)).not.toContain("hunter2");
    expect(logger.warnings("threw")).toHaveLength(1);
  });
});

describe("the related call", () => {
  it("stdio: a request during the one call in flight gets its id and assigns, and pauses its deadline", async () => {
    let seen: { assigns: unknown; relatedRequestId: unknown } | undefined;
    let answer!: (value: { action: "decline" }) => void;
    const called = deferred<void>();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw, server } = await setup({
      handleElicitation: (_params, ctx) => {
        seen = { assigns: ctx.assigns, relatedRequestId: ctx.relatedRequestId };
        called.resolve();
        return new Promise((resolve) => (answer = resolve));
      },
    });
    const { outcome, request } = await callInFlight(raw, server, { timeout: 1000, assigns: { turn: 7 } });
    await vi.advanceTimersByTimeAsync(500);
    const id = nextId++;
    await raw.send({ jsonrpc: "2.0", id, method: "elicitation/create", params: formParams() });
    await called.promise;
    expect(seen).toEqual({ assigns: { turn: 7 }, relatedRequestId: request.id });
    // The user takes long to answer: the call's deadline does not run meanwhile.
    await vi.advanceTimersByTimeAsync(100_000);
    answer({ action: "decline" });
    expect((await raw.next((m) => m.id === id)).result).toEqual({ action: "decline" });
    await vi.advanceTimersByTimeAsync(499);
    await raw.send({ jsonrpc: "2.0", id: request.id, result: { content: [] } });
    expect(await outcome).toEqual({ value: { content: [] } });
  });

  it("the paused deadline still ends at maxTotalTimeout", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw, server } = await setup({ handleElicitation: () => new Promise(() => {}) }, { handlerTimeout: { elicitation: 10 ** 9 } });
    const { outcome } = await callInFlight(raw, server, { timeout: 1000, maxTotalTimeout: 5000 });
    await raw.send({ jsonrpc: "2.0", id: nextId++, method: "elicitation/create", params: formParams() });
    await vi.advanceTimersByTimeAsync(4999);
    await vi.advanceTimersByTimeAsync(1);
    const result = await outcome;
    expect((result as { error: unknown }).error).toMatchObject({ kind: "timeout" });
  });

  it("with two calls in flight a request is related to neither: client assigns, relatedRequestId null", async () => {
    let seen: { assigns: unknown; relatedRequestId: unknown } | undefined;
    const { raw, server } = await setup({
      listRoots: (ctx) => {
        seen = { assigns: ctx.assigns, relatedRequestId: ctx.relatedRequestId };
        return { roots: [] };
      },
    });
    await callInFlight(raw, server, { assigns: { turn: 1 } });
    await callInFlight(raw, server, { assigns: { turn: 2 } });
    await ask(raw, "roots/list");
    expect(seen).toEqual({ assigns: { who: "client" }, relatedRequestId: null });
  });

  it("a call that gave no assigns passes the client's", async () => {
    let seen: unknown;
    const { raw, server } = await setup({ listRoots: (ctx) => ((seen = ctx.assigns), { roots: [] }) });
    await callInFlight(raw, server);
    await ask(raw, "roots/list");
    expect(seen).toEqual({ who: "client" });
  });

  it("a list request in flight is not a call", async () => {
    let seen: unknown = "unset";
    const { raw, server } = await setup({ listRoots: (ctx) => ((seen = ctx.relatedRequestId), { roots: [] }) });
    void server.listTools().catch(() => {});
    await raw.next("tools/list");
    await ask(raw, "roots/list");
    expect(seen).toBeNull();
  });
});

describe("budget", () => {
  it("refuses the 21st input of a burst: -32000 for roots, rejectionCode for sampling", async () => {
    const { raw, server } = await setup(
      { listRoots: () => ({ roots: [] }), handleSampling: () => sampled },
      { sampling: { rejectionCode: -4242, allowIdle: true } },
    );
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    for (let i = 0; i < 20; i++) expect((await ask(raw, "roots/list")).result).toEqual({ roots: [] });
    expect((await ask(raw, "roots/list")).error).toMatchObject({ code: -32000 });
    expect((await ask(raw, "sampling/createMessage", sampleParams())).error).toMatchObject({ code: -4242 });
    expect(server.stats().inputsOverBudget).toBe(2);
    vi.advanceTimersByTime(100);
    expect((await ask(raw, "roots/list")).result).toEqual({ roots: [] });
  });
});

describe("sampling checks", () => {
  it("refuses sampling while no call is in flight, with rejectionCode (default -1)", async () => {
    let calls = 0;
    const { raw } = await setup({ handleSampling: () => (calls++, sampled) });
    expect((await ask(raw, "sampling/createMessage", sampleParams())).error).toMatchObject({ code: -1 });
    expect(calls).toBe(0);
  });

  it("clamps maxTokens, coerces includeContext, and answers with the handler's result", async () => {
    let params: Record<string, unknown> | undefined;
    const { raw, server } = await setup({ handleSampling: (p) => ((params = p), sampled) });
    await callInFlight(raw, server);
    const answer = await ask(raw, "sampling/createMessage", sampleParams({ maxTokens: 100_000, includeContext: "allServers" }));
    expect(answer.result).toEqual(sampled);
    expect(params).toMatchObject({ maxTokens: 4096, includeContext: "none" });
  });

  it("lets context through when sampling.context is on, and idle sampling when allowIdle", async () => {
    let params: Record<string, unknown> | undefined;
    const { raw } = await setup({ handleSampling: (p) => ((params = p), sampled) }, { sampling: { context: true, allowIdle: true, maxTokens: 50 } });
    expect((await ask(raw, "sampling/createMessage", sampleParams({ includeContext: "thisServer" }))).result).toEqual(sampled);
    expect(params).toMatchObject({ maxTokens: 50, includeContext: "thisServer" });
  });

  it("refuses a bad maxTokens with -32602 and a tool loop past 5 turns with rejectionCode", async () => {
    const { raw } = await setup({ handleSampling: () => sampled }, { sampling: { allowIdle: true } });
    for (const maxTokens of [0, -3, 1.5, "10"]) {
      expect((await ask(raw, "sampling/createMessage", sampleParams({ maxTokens }))).error).toMatchObject({ code: -32602 });
    }
    const turn = (i: number) => [
      { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "search", input: {} }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: `t${i}`, content: [] }] },
    ];
    const five = Array.from({ length: 5 }, (_, i) => turn(i)).flat();
    expect((await ask(raw, "sampling/createMessage", sampleParams({ messages: five }))).result).toEqual(sampled);
    const six = Array.from({ length: 6 }, (_, i) => turn(i)).flat();
    expect((await ask(raw, "sampling/createMessage", sampleParams({ messages: six }))).error).toMatchObject({ code: -1 });
  });

  it("answers -32603 when the handler's result is not a valid CreateMessageResult for the version", async () => {
    let result: unknown = { role: "assistant", content: { type: "text", text: "x" } };
    const { raw } = await setup({ handleSampling: () => result as never }, { sampling: { allowIdle: true } }, {}, { protocolVersion: "2025-06-18" });
    expect((await ask(raw, "sampling/createMessage", sampleParams())).error).toMatchObject({ code: -32603 });
    result = { ...sampled, content: [{ type: "text", text: "array content is 2025-11-25+" }] };
    expect((await ask(raw, "sampling/createMessage", sampleParams())).error).toMatchObject({ code: -32603 });
  });
});

describe("elicitation checks", () => {
  const urlHandler = (seen: unknown[]): Handler => ({
    elicitationModes: ["form", "url"],
    handleElicitation: (_params, ctx) => {
      seen.push(ctx);
      return { action: "accept" };
    },
  });

  it("refuses URL mode when the handler declared only form", async () => {
    const { raw } = await setup({ handleElicitation: () => ({ action: "accept" }) });
    const answer = await ask(raw, "elicitation/create", { mode: "url", message: "Sign in", url: "https://example.com/a", elicitationId: "e1" });
    expect(answer.error).toMatchObject({ code: -32602 });
  });

  it("refuses every URL that is not absolute https without userinfo, before the callback", async () => {
    const seen: unknown[] = [];
    const { raw } = await setup(urlHandler(seen));
    for (const url of ["javascript:alert(1)", "http://example.com/", "file:///etc/passwd", "data:text/html,<b>x</b>", "https://user@example.com/", "https://a:b@example.com/", "/relative", "ftp://example.com/"]) {
      const answer = await ask(raw, "elicitation/create", { mode: "url", message: "Go", url, elicitationId: "e" });
      expect(answer.error, url).toMatchObject({ code: -32602 });
    }
    expect(seen).toEqual([]);
  });

  it("gives the handler the URL, host, punycode flag and origin mismatch; a URL accept carries no content", async () => {
    const seen: Record<string, unknown>[] = [];
    const { raw } = await setup(urlHandler(seen), {}, { elicitation: { origin: "https://example.com" } });
    const same = await ask(raw, "elicitation/create", { mode: "url", message: "Go", url: "https://example.com/auth?x=1", elicitationId: "e1" });
    expect(same.result).toEqual({ action: "accept" });
    await ask(raw, "elicitation/create", { mode: "url", message: "Go", url: "https://bücher.example:8443/pay", elicitationId: "e2" });
    expect(seen[0]).toMatchObject({ mode: "url", url: "https://example.com/auth?x=1", host: "example.com", idn: false, originMismatch: false, serverId: "srv" });
    expect(seen[1]).toMatchObject({ mode: "url", url: "https://xn--bcher-kva.example:8443/pay", host: "xn--bcher-kva.example:8443", idn: true, originMismatch: true });
  });

  it("over stdio without an origin option, every URL is an origin mismatch", async () => {
    const seen: Record<string, unknown>[] = [];
    const { raw } = await setup(urlHandler(seen));
    await ask(raw, "elicitation/create", { mode: "url", message: "Go", url: "https://example.com/", elicitationId: "e1" });
    expect(seen[0]).toMatchObject({ originMismatch: true });
  });

  it("refuses a nested form schema with -32602 and flags secret-looking fields", async () => {
    const seen: unknown[] = [];
    const { raw } = await setup({ handleElicitation: (_p, ctx) => (seen.push(ctx), { action: "decline" }) });
    const nested = formParams({ type: "object", properties: { address: { type: "object", properties: { street: { type: "string" } } } } });
    expect((await ask(raw, "elicitation/create", nested)).error).toMatchObject({ code: -32602 });
    const secret = formParams({ type: "object", properties: { user: { type: "string" }, apiKey: { type: "string", title: "Your key" } } });
    expect((await ask(raw, "elicitation/create", secret)).result).toEqual({ action: "decline" });
    expect(seen[0]).toMatchObject({ mode: "form", fields: { user: { sensitiveSuspected: false }, apiKey: { sensitiveSuspected: true } } });
  });

  it("validates the answer: a missing required field is -32603; defaults are filled in (2025-11-25)", async () => {
    let content: Record<string, unknown> = { subscribe: false };
    const { raw } = await setup({ handleElicitation: () => ({ action: "accept", content }) as never });
    expect((await ask(raw, "elicitation/create", formParams())).error).toMatchObject({ code: -32603 });
    content = { name: "Ada" };
    expect((await ask(raw, "elicitation/create", formParams())).result).toEqual({ action: "accept", content: { name: "Ada", subscribe: true } });
  });

  it("does not fill defaults in 2025-06-18", async () => {
    const { raw } = await setup({ handleElicitation: () => ({ action: "accept", content: { name: "Ada" } }) }, {}, {}, { protocolVersion: "2025-06-18" });
    // The capabilities of `initialize` follow the offered version, 2025-11-25.
    expect((raw.messages.find((m) => (m as { method?: string }).method === "initialize") as { params: { capabilities: unknown } }).params.capabilities).toEqual({ elicitation: { form: {} } });
    expect((await ask(raw, "elicitation/create", formParams())).result).toEqual({ action: "accept", content: { name: "Ada" } });
  });

  it("declares plain elicitation when 2025-06-18 is offered, and refuses URL mode there", async () => {
    const { raw } = await setup(
      { elicitationModes: ["form", "url"], handleElicitation: () => ({ action: "accept" }) },
      {},
      { protocolVersion: "2025-06-18" },
    );
    expect((raw.messages.find((m) => (m as { method?: string }).method === "initialize") as { params: { capabilities: unknown } }).params.capabilities).toEqual({ elicitation: {} });
    const answer = await ask(raw, "elicitation/create", { mode: "url", message: "Go", url: "https://example.com/" });
    expect(answer.error).toMatchObject({ code: -32602 });
  });

  it("a Handler of URL elicitation only declares no elicitation in 2025-06-18, and refuses a form there -32601", async () => {
    let calls = 0;
    const urlOnly: Handler = { elicitationModes: ["url"], handleElicitation: () => (calls++, { action: "accept" }) };
    const pinned = await setup(urlOnly, {}, { protocolVersion: "2025-06-18" });
    const init = pinned.raw.messages.find((m) => (m as { method?: string }).method === "initialize") as { params: { capabilities: unknown } };
    expect(init.params.capabilities).toEqual({});
    expect((await ask(pinned.raw, "elicitation/create", formParams())).error).toMatchObject({ code: -32601 });
    // Offered 2025-11-25 (declaring url), answered 2025-06-18: a form still reaches no callback.
    const downgraded = await setup(urlOnly, {}, {}, { protocolVersion: "2025-06-18" });
    expect((await ask(downgraded.raw, "elicitation/create", formParams())).error).toMatchObject({ code: -32601 });
    expect(calls).toBe(0);
  });

  it("a decline is a result, and carries no content", async () => {
    const { raw } = await setup({ handleElicitation: () => ({ action: "decline", content: { name: "leak" } }) as never });
    expect((await ask(raw, "elicitation/create", formParams())).result).toEqual({ action: "decline" });
  });

  it("an unknown action is -32603", async () => {
    const { raw } = await setup({ handleElicitation: () => ({ action: "maybe" }) as never });
    expect((await ask(raw, "elicitation/create", formParams())).error).toMatchObject({ code: -32603 });
  });
});

describe("roots", () => {
  it("sends only local file:// roots, normalised; drops and logs the others; ctx carries serverId", async () => {
    let serverId: unknown;
    const { raw, logger } = await setup({
      listRoots: (ctx) => {
        serverId = ctx.serverId;
        return {
          roots: [
            { uri: "file:///a/../b", name: "b" },
            { uri: "file://otherhost/x" },
            { uri: "https://example.com/" },
            { uri: "file://localhost/srv/data" },
            { uri: "file:///c/%2e%2e/d/./e" },
          ],
        };
      },
    });
    const answer = await ask(raw, "roots/list");
    expect(answer.result).toEqual({ roots: [{ uri: "file:///b", name: "b" }, { uri: "file:///srv/data" }, { uri: "file:///d/e" }] });
    expect(serverId).toBe("srv");
    expect(logger.warnings("root was not shared")).toHaveLength(2);
  });

  it("rootsChanged() notifies the server", async () => {
    const { raw, client } = await setup(rootsHandler);
    client.rootsChanged();
    await raw.next("notifications/roots/list_changed");
  });
});

describe("notifications and logs", () => {
  const notify = (raw: RawStdioServer, method: string, params?: Record<string, unknown>) =>
    raw.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });

  it("handleNotification and subscribers get every unconsumed notification, in order, with ctx", async () => {
    const got: string[] = [];
    const { raw, client } = await setup({
      handleNotification: async (method, _params, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        got.push(`${ctx.client}/${ctx.serverId}/${ctx.era}:${method}`);
      },
    });
    const heard: string[] = [];
    client.onNotification((n) => heard.push(n.method));
    await notify(raw, "notifications/tools/list_changed");
    await notify(raw, "notifications/resources/updated", { uri: "mem://a" });
    await notify(raw, "notifications/custom/thing", { x: 1 });
    await vi.waitFor(() => expect(heard).toHaveLength(3));
    expect(got).toEqual([
      "host/srv/legacy:notifications/tools/list_changed",
      "host/srv/legacy:notifications/resources/updated",
      "host/srv/legacy:notifications/custom/thing",
    ]);
    expect(heard).toEqual(["notifications/tools/list_changed", "notifications/resources/updated", "notifications/custom/thing"]);
  });

  it("a hook that throws is logged and skipped", async () => {
    const got: string[] = [];
    const { raw, client, logger } = await setup({
      handleNotification: (method) => {
        if (method.endsWith("boom")) throw new Error("boom");
        got.push(method);
      },
    });
    await notify(raw, "notifications/x/boom");
    await notify(raw, "notifications/x/fine");
    await vi.waitFor(() => expect(got).toEqual(["notifications/x/fine"]));
    await client.notificationsSettled();
    expect(logger.warnings("threw")).toHaveLength(1);
  });

  it("moves on from a hook that never settles once handlerTimeout.default passes", async () => {
    const got: string[] = [];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { raw, logger } = await setup({
      handleNotification: (method) => {
        got.push(method);
        return method.endsWith("stuck") ? new Promise(() => {}) : undefined;
      },
    });
    await notify(raw, "notifications/x/stuck");
    await notify(raw, "notifications/x/after");
    // The answer to a ping comes after the client has read (and queued) what preceded it.
    await ask(raw, "ping");
    await vi.advanceTimersByTimeAsync(59_999);
    expect(got).toEqual(["notifications/x/stuck"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(got).toEqual(["notifications/x/stuck", "notifications/x/after"]);
    expect(logger.warnings("did not finish")).toHaveLength(1);
  });

  it("drops notifications beyond 1 000 waiting, and counts them", async () => {
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let count = 0;
    const { raw, client } = await setup({
      handleNotification: async () => {
        count += 1;
        if (count === 1) await blocked;
      },
    });
    const line = (i: number) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/n", params: { i } });
    // The first hook runs (and blocks) before the rest arrive, so that 1 000 wait behind it
    // however the runtime cuts the pipe into reads (Bun reads all 1 100 lines in one).
    await raw.sendRaw(`${line(0)}\n`);
    await vi.waitFor(() => expect(count).toBe(1));
    await raw.sendRaw(`${Array.from({ length: 1099 }, (_, i) => line(i + 1)).join("\n")}\n`);
    await vi.waitFor(() => expect(client.droppedNotifications).toBe(99));
    release();
    await client.notificationsSettled();
    expect(count).toBe(1001);
  });

  it("passes 100 log lines in a burst, drops the 101st, and sanitises what passes", async () => {
    const logs: unknown[] = [];
    const { raw, client, server } = await setup({ handleLog: (level, params, ctx) => logs.push({ level, params, ctx }) });
    const heard: unknown[] = [];
    client.onNotification((n) => heard.push(n));
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    const nasty = "\u001b[31mred\u001b[0m \u202eevil\u202c zero\u200bwidth\nnext\u2028line\u0007";
    const entries = [
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "bogus", logger: "l\u001b[2J", data: { [`k${nasty}`]: nasty }, extra: "dropped" } }),
      ...Array.from({ length: 109 }, (_, i) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "debug", data: i } })),
    ];
    await raw.sendRaw(`${entries.join("\n")}\n`);
    await vi.waitFor(() => expect(server.stats().logsDropped).toBe(10));
    await client.notificationsSettled();
    expect(logs).toHaveLength(100);
    const clean = "red evil zerowidth next line";
    expect(logs[0]).toEqual({
      level: "info",
      params: { level: "info", logger: "l", data: { [`k${clean}`]: clean } },
      ctx: { client: "host", serverId: "srv", era: "legacy" },
    });
    expect((logs[99] as { params: { data: number } }).params.data).toBe(98);
    expect(heard[0]).toEqual({ serverId: "srv", method: "notifications/message", params: { level: "info", logger: "l", data: { [`k${clean}`]: clean } } });
  });

  it("clamps long log strings and cuts deep nesting", async () => {
    const logs: { data: unknown }[] = [];
    const { raw, client } = await setup({ handleLog: (_level, params) => logs.push(params) });
    let deep: unknown = "bottom";
    for (let i = 0; i < 20; i++) deep = { d: deep };
    await notify(raw, "notifications/message", { level: "info", data: { long: "x".repeat(10_000), deep } });
    await vi.waitFor(() => expect(logs).toHaveLength(1));
    await client.notificationsSettled();
    const data = logs[0]!.data as { long: string; deep: unknown };
    expect(data.long.length).toBe(4096);
    expect(JSON.stringify(data.deep)).not.toContain("bottom");
    expect(JSON.stringify(data.deep).match(/"d"/g)!.length).toBe(15);
  });
});
