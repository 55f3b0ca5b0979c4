// AppSession's lifecycle, as the MCP Apps spec (2026-01-26) orders it: ui/initialize answered
// (version, host capabilities, host context), nothing to the view before it says it is
// initialized, the tool's input before its result, ui/resource-teardown before the end and
// waited for, and nothing after the end.
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../src/index.js";
import { AppSession, LATEST_APP_PROTOCOL_VERSION } from "../../src/apps/index.js";
import { BOTH, errorOf, fakeServer, harness } from "../helpers/app-view.js";

afterEach(() => {
  vi.useRealTimers();
});

const INIT = { protocolVersion: "2026-01-26", appInfo: { name: "view", version: "1.0.0" }, appCapabilities: {} };

describe("ui/initialize", () => {
  it("answers with the version the view asked when the host speaks it, the host's info and a context naming the tool", async () => {
    const h = harness({ hostInfo: { name: "my-host", version: "2.0.0" }, hostContext: { theme: "dark" } });
    const id = h.request("ui/initialize", INIT);
    const { result } = await h.replied(id);
    expect(result).toEqual({
      protocolVersion: "2026-01-26",
      hostInfo: { name: "my-host", version: "2.0.0" },
      hostCapabilities: { logging: {}, serverTools: {}, serverResources: {} },
      hostContext: { theme: "dark", toolInfo: { tool: BOTH } },
    });
    expect(h.session.state).toBe("connecting");
    expect(h.session.viewInfo?.appInfo).toEqual({ name: "view", version: "1.0.0" });
  });

  it("answers a version it does not speak with its own newest, for the view to decide", async () => {
    const h = harness();
    const id = h.request("ui/initialize", { ...INIT, protocolVersion: "2099-01-01" });
    expect(((await h.replied(id)).result as { protocolVersion: string }).protocolVersion).toBe(LATEST_APP_PROTOCOL_VERSION);
  });

  it("declares only what the host gave callbacks for, and the server's proxying only where the server has it", async () => {
    const server = { ...fakeServer(), serverCapabilities: { tools: {} } };
    const noop = () => true;
    const h = harness({ server, onOpenLink: noop, onMessage: noop, onUpdateModelContext: noop, sandbox: { csp: { connectDomains: ["https://api.example.com"] } } });
    const id = h.request("ui/initialize", INIT);
    expect(((await h.replied(id)).result as { hostCapabilities: unknown }).hostCapabilities).toEqual({
      logging: {},
      serverTools: {},
      openLinks: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
      sandbox: { csp: { connectDomains: ["https://api.example.com"] } },
    });
  });

  it("refuses a malformed ui/initialize (-32602) and a second one (-32600)", async () => {
    const h = harness();
    const bad = h.request("ui/initialize", { protocolVersion: 7, appInfo: {}, appCapabilities: {} });
    expect(errorOf(await h.replied(bad))?.code).toBe(-32602);
    const noCapabilities = h.request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "v", version: "1" } });
    expect(errorOf(await h.replied(noCapabilities))?.code).toBe(-32602);
    const good = h.request("ui/initialize", INIT);
    expect((await h.replied(good)).result).toBeDefined();
    const again = h.request("ui/initialize", INIT);
    expect(errorOf(await h.replied(again))?.code).toBe(-32600);
  });

  it("serves nothing but ping before ui/initialize", async () => {
    const h = harness();
    const call = h.request("tools/call", { name: "refresh" });
    expect(errorOf(await h.replied(call))).toEqual({ code: -32600, message: "send ui/initialize first" });
    const ping = h.request("ping");
    expect((await h.replied(ping)).result).toEqual({});
    expect(h.server.calls).toEqual([]);
  });
});

describe("nothing before ui/notifications/initialized", () => {
  it("keeps the tool's input and result until the view is ready, then sends them in order", async () => {
    const h = harness();
    h.session.toolInput({ city: "Oslo" });
    h.session.toolResult({ content: [{ type: "text", text: "sunny" }] });
    const id = h.request("ui/initialize", INIT);
    await h.replied(id);
    // Only the answer to ui/initialize so far: a response, which the spec allows.
    expect(h.sent.map((m) => m.method ?? "reply")).toEqual(["reply"]);
    h.notify("ui/notifications/initialized");
    expect(h.session.state).toBe("initialized");
    expect(h.sent.slice(1)).toEqual([
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { city: "Oslo" } } },
      { jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [{ type: "text", text: "sunny" }] } },
    ]);
  });

  it("keeps a bounded number: a thousand partial inputs wait as the newest one, and none follows the input", async () => {
    const h = harness();
    for (let i = 0; i < 1000; i++) h.session.toolInputPartial({ n: i });
    h.session.updateHostContext({ theme: "light" });
    h.session.updateHostContext({ locale: "nb-NO" });
    h.session.toolInput({ n: 1000 });
    h.session.toolInputPartial({ n: 1001 });
    h.session.toolCancelled("user stopped it");
    await h.start();
    expect(h.sent.filter((m) => m.method !== undefined)).toEqual([
      { jsonrpc: "2.0", method: "ui/notifications/tool-input-partial", params: { arguments: { n: 999 } } },
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { n: 1000 } } },
      { jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: "user stopped it" } },
    ]);
    // The context changes came before ui/initialize: they are part of its answer.
    expect((h.sent[0]!.result as { hostContext: unknown }).hostContext).toMatchObject({ theme: "light", locale: "nb-NO" });
  });

  it("merges context changes made between ui/initialize and initialized into one notification", async () => {
    const h = harness();
    const id = h.request("ui/initialize", INIT);
    await h.replied(id);
    h.session.updateHostContext({ theme: "light" });
    h.session.updateHostContext({ displayMode: "fullscreen" });
    expect(h.sent).toHaveLength(1);
    h.notify("ui/notifications/initialized");
    expect(h.sent.slice(1)).toEqual([{ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { theme: "light", displayMode: "fullscreen" } }]);
  });

  it("serves a view that asks between ui/initialize and initialized (a reply is no request), while its notifications still wait", async () => {
    const h = harness();
    h.session.toolInput({});
    await h.replied(h.request("ui/initialize", INIT));
    expect((await h.replied(h.request("tools/call", { name: "refresh" }))).result).toBeDefined();
    expect(h.sent.filter((m) => m.method !== undefined)).toEqual([]);
    expect(h.logger.at("debug")).toEqual(expect.arrayContaining(["app asks ui/initialize", "app asks tools/call"]));
  });

  it("ignores an initialized notification that comes before ui/initialize", () => {
    const h = harness();
    h.session.toolInput({});
    h.notify("ui/notifications/initialized");
    expect(h.session.state).toBe("connecting");
    expect(h.sent).toEqual([]);
  });

  it("tells the host the view is ready, with what the view said of itself", async () => {
    const ready: unknown[] = [];
    const h = harness({ onInitialized: (view) => ready.push(view.appInfo) });
    await h.start();
    expect(ready).toEqual([{ name: "view", version: "1.0.0" }]);
  });
});

describe("the tool's notifications", () => {
  it("sends the input at once when the view is ready, and refuses a result before the input", async () => {
    const h = harness();
    await h.start();
    expect(() => h.session.toolResult({ content: [] })).toThrow(InvalidArgumentError);
    h.session.toolInput({ a: 1 });
    expect(h.sent.at(-1)).toEqual({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { a: 1 } } });
    expect(() => h.session.toolInput({ a: 2 })).toThrow(/at most once/);
  });

  it("sends the first outcome only: a result after a cancellation (a race) is dropped", async () => {
    const h = harness();
    await h.start();
    h.session.toolInput({});
    h.session.toolCancelled();
    h.session.toolResult({ content: [] });
    h.session.toolCancelled("again");
    const outcomes = h.sent.filter((m) => m.method === "ui/notifications/tool-result" || m.method === "ui/notifications/tool-cancelled");
    expect(outcomes).toEqual([{ jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: "cancelled" } }]);
  });

  it("checks what the host passes", () => {
    const h = harness();
    expect(() => h.session.toolInput(null as never)).toThrow(InvalidArgumentError);
    expect(() => h.session.toolCancelled(5 as never)).toThrow(InvalidArgumentError);
    expect(() => new AppSession({ server: fakeServer(), tool: BOTH, send: () => {}, onOpenLnik: () => {} } as never)).toThrow(/onOpenLink/);
    expect(() => new AppSession({ server: fakeServer(), tool: BOTH } as never)).toThrow(/send/);
  });
});

describe("teardown", () => {
  it("sends ui/resource-teardown and waits for the view's answer before it closes", async () => {
    const h = harness();
    await h.start();
    let done = false;
    const ended = h.session.teardown("user closed the panel").then(() => (done = true));
    const request = h.sent.at(-1)!;
    expect(request).toMatchObject({ jsonrpc: "2.0", method: "ui/resource-teardown", params: { reason: "user closed the panel" } });
    expect(h.session.state).toBe("closing");
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(done).toBe(false);
    h.session.receive({ jsonrpc: "2.0", id: request.id, result: {} });
    await ended;
    expect(h.session.state).toBe("closed");
    // Every caller gets the same end.
    await h.session.teardown();
  });

  it("closes after limits.teardownTimeout when the view does not answer", async () => {
    vi.useFakeTimers();
    const h = harness({ limits: { teardownTimeout: 1_000 } });
    const id = h.request("ui/initialize", INIT);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.reply(id)).toBeDefined();
    h.notify("ui/notifications/initialized");
    const ended = h.session.teardown();
    await vi.advanceTimersByTimeAsync(999);
    expect(h.session.state).toBe("closing");
    await vi.advanceTimersByTimeAsync(1);
    await ended;
    expect(h.session.state).toBe("closed");
  });

  it("sends nothing to a view that never said it was initialized", async () => {
    const h = harness();
    const id = h.request("ui/initialize", INIT);
    await h.replied(id);
    h.session.toolInput({});
    await h.session.teardown();
    expect(h.session.state).toBe("closed");
    expect(h.sent).toHaveLength(1);
  });

  it("sends and serves nothing after the end, and drops the host's late answers", async () => {
    let answer: (value: boolean) => void = () => {};
    const h = harness({ onMessage: () => new Promise<boolean>((resolve) => (answer = resolve)) });
    await h.start();
    const asked = h.request("ui/message", { role: "user", content: [{ type: "text", text: "hi" }] });
    const end = h.session.teardown();
    h.session.receive({ jsonrpc: "2.0", id: (h.sent.at(-1) as { id: number }).id, result: {} });
    await end;
    const count = h.sent.length;
    answer(true);
    h.session.toolInput({});
    h.request("ping");
    h.notify("ui/notifications/size-changed", { width: 10 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(h.sent).toHaveLength(count);
    expect(h.reply(asked)).toBeUndefined();
    expect(h.session.stats().afterClose).toBe(2);
  });

  it("cancels the server calls still under way", async () => {
    const h = harness({ server: fakeServer(undefined, () => new Promise(() => {})) });
    await h.start();
    h.request("tools/call", { name: "refresh" });
    await vi.waitFor(() => expect(h.server.calls).toHaveLength(1));
    const signal = h.server.calls[0]!.signal!;
    expect(signal.aborted).toBe(false);
    const end = h.session.teardown();
    h.session.receive({ jsonrpc: "2.0", id: (h.sent.at(-1) as { id: number }).id, result: {} });
    await end;
    expect(signal.aborted).toBe(true);
  });
});

describe("responses from the view", () => {
  it("ignores (and logs) an answer to a request the host never made", async () => {
    const h = harness();
    await h.start();
    const count = h.sent.length;
    h.session.receive({ jsonrpc: "2.0", id: 77, result: {} });
    h.session.receive({ jsonrpc: "2.0", id: "x", error: { code: 1, message: "no" } });
    expect(h.sent).toHaveLength(count);
    expect(h.session.stats().strayResponses).toBe(2);
    expect(h.logger.warnings("never made")).toHaveLength(2);
  });

  it("never answers a malformed response", async () => {
    const h = harness();
    await h.start();
    const count = h.sent.length;
    h.session.receive({ jsonrpc: "2.0", id: 5, result: {}, error: { code: 1, message: "both" } });
    expect(h.sent).toHaveLength(count);
    expect(h.session.stats().invalid).toBe(1);
  });
});
