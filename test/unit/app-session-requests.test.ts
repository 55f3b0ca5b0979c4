// What a view may ask of an AppSession, and what is refused: tools/call of its own server's
// app-visible tools behind consent and a rate; resources/read of ui:// alone; ui/open-link
// vetted as URL elicitation is; ui/message and ui/update-model-context bounded and rated; logs
// sanitised into the host's logger; size changes checked; the host's slow answers bounded.
import { afterEach, describe, expect, it, vi } from "vitest";
import { RpcError } from "../../src/index.js";
import { type AppLink, type AppRequest } from "../../src/apps/index.js";
import { errorOf, fakeServer, harness } from "../helpers/app-view.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("tools/call", () => {
  it("calls a tool of its own server whose visibility has app, and answers with the server's result", async () => {
    const h = harness();
    await h.start();
    const id = h.request("tools/call", { name: "refresh", arguments: { page: 2 } });
    expect((await h.replied(id)).result).toEqual({ content: [{ type: "text", text: "called refresh" }] });
    expect(h.server.calls.map(({ name, args }) => ({ name, args }))).toEqual([{ name: "refresh", args: { page: 2 } }]);
    expect(h.logger.at("debug")).toContain("app asks tools/call");
  });

  it("refuses a model-only tool and a tool the server does not list, with the same answer", async () => {
    const h = harness({ consent: () => true });
    await h.start();
    const modelOnly = errorOf(await h.replied(h.request("tools/call", { name: "secret" })));
    const unlisted = errorOf(await h.replied(h.request("tools/call", { name: "rm_rf" })));
    expect(modelOnly).toEqual({ code: -32602, message: 'no tool "secret" this app may call' });
    expect(unlisted).toEqual({ code: -32602, message: 'no tool "rm_rf" this app may call' });
    expect(h.server.calls).toEqual([]);
  });

  it("lists the server's tools for each call unless the host gives its own list", async () => {
    const listed = harness();
    await listed.start();
    await listed.replied(listed.request("tools/call", { name: "refresh" }));
    await listed.replied(listed.request("tools/call", { name: "refresh" }));
    expect(listed.server.listings).toBe(2);
    // The host's catalog says the tool is gone: the view cannot call it.
    const cached = harness({ tools: () => [] });
    await cached.start();
    expect(errorOf(await cached.replied(cached.request("tools/call", { name: "refresh" })))?.code).toBe(-32602);
    expect(cached.server.listings).toBe(0);
  });

  it("without a consent hook calls app-only tools alone: a tool the model may call needs the host's yes", async () => {
    const h = harness();
    await h.start();
    const both = errorOf(await h.replied(h.request("tools/call", { name: "greet" })));
    expect(both).toEqual({ code: -32000, message: 'the host did not allow the call of "greet"' });
    expect(h.server.calls).toEqual([]);
  });

  it("asks the consent hook, with the tool as listed, and calls only on true", async () => {
    const asks: AppRequest[] = [];
    let allow: unknown = false;
    const h = harness({ consent: (ask) => (asks.push(ask), allow as boolean) });
    await h.start();
    expect(errorOf(await h.replied(h.request("tools/call", { name: "greet", arguments: { who: "Ada" } })))?.code).toBe(-32000);
    allow = "yes";
    expect(errorOf(await h.replied(h.request("tools/call", { name: "greet" })))?.code).toBe(-32000);
    allow = true;
    expect((await h.replied(h.request("tools/call", { name: "greet" }))).result).toBeDefined();
    expect(asks[0]).toMatchObject({ method: "tools/call", serverId: "demo", tool: "greet", target: { name: "greet" }, arguments: { who: "Ada" }, visibility: ["model", "app"] });
    expect(h.server.calls.map((c) => c.name)).toEqual(["greet"]);
  });

  it("refuses a call whose consent throws, and one whose consent is slower than limits.hostTimeout", async () => {
    vi.useFakeTimers();
    const throwing = harness({ consent: () => { throw new Error("dialog broke"); } });
    throwing.request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "v", version: "1" }, appCapabilities: {} });
    throwing.notify("ui/notifications/initialized");
    const id = throwing.request("tools/call", { name: "refresh" });
    await vi.advanceTimersByTimeAsync(0);
    expect(errorOf(throwing.reply(id))?.code).toBe(-32603);
    const slow = harness({ consent: () => new Promise<boolean>(() => {}), limits: { hostTimeout: 10_000 } });
    slow.request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "v", version: "1" }, appCapabilities: {} });
    slow.notify("ui/notifications/initialized");
    const waiting = slow.request("tools/call", { name: "refresh" });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(slow.reply(waiting)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(errorOf(slow.reply(waiting))).toEqual({ code: -32000, message: "the host did not answer the consent in time" });
    expect(slow.server.calls).toEqual([]);
  });

  it("refuses calls over limits.serverCallRate", async () => {
    const h = harness({ limits: { serverCallRate: { perSecond: 0.001, burst: 3 } } });
    await h.start();
    const ids = [1, 2, 3, 4].map(() => h.request("tools/call", { name: "refresh" }));
    const answers = await Promise.all(ids.map((id) => h.replied(id)));
    expect(answers.map((a) => errorOf(a)?.code ?? "ok")).toEqual(["ok", "ok", "ok", -32000]);
    expect(h.server.calls).toHaveLength(3);
  });

  it("refuses malformed params with -32602", async () => {
    const h = harness();
    await h.start();
    for (const params of [{}, { name: 3 }, { name: "refresh", arguments: [1] }]) {
      expect(errorOf(await h.replied(h.request("tools/call", params)))?.code).toBe(-32602);
    }
  });

  it("passes the server's own error to its view, and only the kind of the client's failures", async () => {
    const { ClientError } = await import("../../src/index.js");
    const server = fakeServer(undefined, (name) =>
      Promise.reject(name === "refresh" ? new ClientError("rpc", "tools/call failed: bad page (code -32602)", { code: -32602 }) : new ClientError("timeout", "secret detail")),
    );
    const h = harness({ server, consent: () => true });
    await h.start();
    expect(errorOf(await h.replied(h.request("tools/call", { name: "refresh" })))).toEqual({ code: -32602, message: "tools/call failed: bad page (code -32602)" });
    expect(errorOf(await h.replied(h.request("tools/call", { name: "greet" })))).toEqual({ code: -32603, message: "tools/call failed (timeout)" });
  });
});

describe("resources/read", () => {
  it("reads a ui:// resource of its own server", async () => {
    const h = harness();
    await h.start();
    const { result } = await h.replied(h.request("resources/read", { uri: "ui://demo/other.html" }));
    expect(result).toMatchObject({ contents: [{ uri: "ui://demo/other.html" }] });
    expect(h.server.reads).toEqual(["ui://demo/other.html"]);
  });

  it("refuses every other scheme before the server hears of it", async () => {
    const h = harness();
    await h.start();
    for (const uri of ["file:///etc/passwd", "https://example.com/", "UI://x", "ui://", 42]) {
      expect(errorOf(await h.replied(h.request("resources/read", { uri })))?.code).toBe(-32602);
    }
    expect(h.server.reads).toEqual([]);
  });

  it("asks the consent hook when there is one", async () => {
    const h = harness({ consent: (ask) => ask.method !== "resources/read" });
    await h.start();
    expect(errorOf(await h.replied(h.request("resources/read", { uri: "ui://demo/x" })))).toEqual({ code: -32000, message: "the host did not allow the read" });
  });
});

describe("ui/open-link", () => {
  it("shows the host a vetted https link and never opens it itself", async () => {
    const links: AppLink[] = [];
    const h = harness({ onOpenLink: (link) => void links.push(link) });
    await h.start();
    expect((await h.replied(h.request("ui/open-link", { url: "https://xn--80ak6aa92e.com/a b" }))).result).toEqual({});
    expect(links).toEqual([{ url: "https://xn--80ak6aa92e.com/a%20b", host: "xn--80ak6aa92e.com", idn: true, originMismatch: true, serverId: "demo", tool: "greet" }]);
  });

  it("refuses javascript:, data:, http:, file: and links with a user name, as URL elicitation does", async () => {
    const links: AppLink[] = [];
    const h = harness({ onOpenLink: (link) => void links.push(link) });
    await h.start();
    for (const url of ["javascript:alert(1)", "data:text/html,<script>x</script>", "http://example.com/", "file:///etc/passwd", "https://user:pw@example.com/", "/relative", "https://" + "a".repeat(9000) + ".com"]) {
      expect(errorOf(await h.replied(h.request("ui/open-link", { url })))?.code).toBe(-32602);
    }
    expect(links).toEqual([]);
  });

  it("is not served by a host without onOpenLink, and a host's no is an error", async () => {
    const without = harness();
    await without.start();
    expect(errorOf(await without.replied(without.request("ui/open-link", { url: "https://example.com/" })))?.code).toBe(-32601);
    const declining = harness({ onOpenLink: () => false });
    await declining.start();
    expect(errorOf(await declining.replied(declining.request("ui/open-link", { url: "https://example.com/" })))).toEqual({ code: -32000, message: "the host declined to open the link" });
  });
});

describe("ui/message and ui/update-model-context", () => {
  it("hands the host a message of text, cleaned of what a person cannot see", async () => {
    const messages: unknown[] = [];
    const h = harness({ onMessage: (message) => void messages.push(message) });
    await h.start();
    const tagged = "hi" + String.fromCodePoint(0xe0041, 0xe0042) + "\u001b[31m!\nthere";
    expect((await h.replied(h.request("ui/message", { role: "user", content: [{ type: "text", text: tagged }] }))).result).toEqual({});
    // The stable spec's single block is read too.
    await h.replied(h.request("ui/message", { role: "user", content: { type: "text", text: "one" } }));
    expect(messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi!\nthere" }] },
      { role: "user", content: [{ type: "text", text: "one" }] },
    ]);
  });

  it("refuses content the host did not declare, a role other than user, and a message over its bound", async () => {
    const h = harness({ onMessage: () => true, limits: { maxChatMessageBytes: 1024 } });
    await h.start();
    const image = { type: "image", data: "AAAA", mimeType: "image/png" };
    expect(errorOf(await h.replied(h.request("ui/message", { role: "user", content: [image] })))?.message).toMatch(/no "image" content/);
    expect(errorOf(await h.replied(h.request("ui/message", { role: "assistant", content: [{ type: "text", text: "x" }] })))?.code).toBe(-32602);
    expect(errorOf(await h.replied(h.request("ui/message", { role: "user", content: [{ type: "text", text: "x".repeat(1024) }] })))?.message).toMatch(/at most 1024 bytes/);
    const withImages = harness({ onMessage: () => true, modalities: { message: { text: {}, image: {} } } });
    await withImages.start();
    expect((await withImages.replied(withImages.request("ui/message", { role: "user", content: [image] }))).result).toEqual({});
  });

  it("refuses messages over limits.chatMessageRate", async () => {
    const h = harness({ onMessage: () => true, limits: { chatMessageRate: { perSecond: 0.001, burst: 2 } } });
    await h.start();
    const ids = [1, 2, 3].map(() => h.request("ui/message", { role: "user", content: [{ type: "text", text: "again" }] }));
    const codes = (await Promise.all(ids.map((id) => h.replied(id)))).map((a) => errorOf(a)?.code ?? "ok");
    expect(codes).toEqual(["ok", "ok", -32000]);
  });

  it("hands the host context updates, bounded in size and rate", async () => {
    const updates: unknown[] = [];
    const h = harness({ onUpdateModelContext: (update) => void updates.push(update), limits: { modelContextRate: { perSecond: 0.001, burst: 2 }, maxModelContextBytes: 2048 } });
    await h.start();
    await h.replied(h.request("ui/update-model-context", { content: [{ type: "text", text: "page 2" }], structuredContent: { page: 2 } }));
    expect(updates).toEqual([{ content: [{ type: "text", text: "page 2" }], structuredContent: { page: 2 } }]);
    expect(errorOf(await h.replied(h.request("ui/update-model-context", { structuredContent: { blob: "x".repeat(4096) } })))?.code).toBe(-32602);
    await h.replied(h.request("ui/update-model-context", { structuredContent: { page: 3 } }));
    expect(errorOf(await h.replied(h.request("ui/update-model-context", { structuredContent: { page: 4 } })))).toEqual({ code: -32000, message: "too many context updates" });
    const without = harness();
    await without.start();
    expect(errorOf(await without.replied(without.request("ui/update-model-context", {})))?.code).toBe(-32601);
  });

  it("bounds the host's slow answer by limits.hostTimeout", async () => {
    vi.useFakeTimers();
    const h = harness({ onMessage: () => new Promise(() => {}), limits: { hostTimeout: 5_000 } });
    h.request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "v", version: "1" }, appCapabilities: {} });
    h.notify("ui/notifications/initialized");
    const id = h.request("ui/message", { role: "user", content: [{ type: "text", text: "hi" }] });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(errorOf(h.reply(id))).toEqual({ code: -32000, message: "the host did not answer the message in time" });
  });

  it("sends a host's RpcError as it chose it", async () => {
    const h = harness({ onMessage: () => { throw new RpcError(-32001, "the user is typing"); } });
    await h.start();
    expect(errorOf(await h.replied(h.request("ui/message", { role: "user", content: [{ type: "text", text: "hi" }] })))).toEqual({ code: -32001, message: "the user is typing" });
  });
});

describe("ui/request-display-mode", () => {
  it("answers the current mode unless the view and the host both list the one asked, and the host switches", async () => {
    const asked: string[] = [];
    const h = harness({
      hostContext: { displayMode: "inline", availableDisplayModes: ["inline", "fullscreen", "pip"] },
      onDisplayMode: (mode) => (asked.push(mode), mode),
    });
    await h.start({ availableDisplayModes: ["inline", "fullscreen"] });
    expect((await h.replied(h.request("ui/request-display-mode", { mode: "pip" }))).result).toEqual({ mode: "inline" });
    expect((await h.replied(h.request("ui/request-display-mode", { mode: "fullscreen" }))).result).toEqual({ mode: "fullscreen" });
    expect(asked).toEqual(["fullscreen"]);
    expect(errorOf(await h.replied(h.request("ui/request-display-mode", { mode: "huge" })))?.code).toBe(-32602);
    const without = harness();
    await without.start();
    expect((await without.replied(without.request("ui/request-display-mode", { mode: "fullscreen" }))).result).toEqual({ mode: "inline" });
  });
});

describe("notifications from the view", () => {
  it("logs the view's entries through the log sanitiser into the host's logger, at their level, within limits.logRate", async () => {
    const h = harness({ limits: { logRate: { perSecond: 0.001, burst: 2 } } });
    await h.start();
    h.notify("notifications/message", { level: "warning", logger: "view\u001b[2J", data: { note: "disk\u202e almost full" } });
    h.notify("notifications/message", { level: "shout", data: "x" });
    h.notify("notifications/message", { level: "error", data: "dropped" });
    const logs = h.logger.entries.filter((e) => e.message.startsWith("app log"));
    expect(logs.map((e) => [e.level, e.fields?.logger, e.fields?.data])).toEqual([
      ["warn", "view", { note: "disk almost full" }],
      ["info", undefined, "x"],
    ]);
    expect(h.session.stats().logsDropped).toBe(1);
  });

  it("passes checked sizes to onSizeChange and drops the rest", async () => {
    const sizes: unknown[] = [];
    const h = harness({ onSizeChange: (size) => void sizes.push(size) });
    await h.start();
    h.notify("ui/notifications/size-changed", { width: 320, height: 240.5 });
    h.notify("ui/notifications/size-changed", { height: 100 });
    for (const bad of [{ width: Number.NaN }, { width: -1 }, { height: "100" }, { width: 1e9 }, {}]) h.notify("ui/notifications/size-changed", bad);
    expect(sizes).toEqual([{ width: 320, height: 240.5 }, { height: 100 }]);
    expect(h.session.stats().invalid).toBe(5);
  });

  it("tells the host the view asks to be closed, and ignores notifications it does not know", async () => {
    let asked = 0;
    const h = harness({ onRequestTeardown: () => void (asked += 1) });
    await h.start();
    const count = h.sent.length;
    h.notify("ui/notifications/request-teardown");
    h.notify("ui/notifications/something-new", { a: 1 });
    h.notify("ui/notifications/sandbox-proxy-ready", {});
    expect(asked).toBe(1);
    expect(h.sent).toHaveLength(count);
  });
});

describe("every message bounded and checked", () => {
  it("refuses a message over maxMessageBytes or nested deeper than maxDepth with -32600, under its id", async () => {
    const h = harness({ limits: { maxMessageBytes: 1024, maxDepth: 8 } });
    await h.start();
    h.session.receive({ jsonrpc: "2.0", id: 90, method: "ping", params: { pad: "x".repeat(2000) } });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) deep = { deep };
    h.session.receive({ jsonrpc: "2.0", id: 91, method: "ping", params: deep });
    expect(errorOf(h.reply(90))).toEqual({ code: -32600, message: "the message is larger than 1024 bytes of JSON" });
    expect(errorOf(h.reply(91))).toEqual({ code: -32600, message: "the message is nested deeper than 8 levels" });
  });

  it("refuses what is not JSON-RPC: -32600, id null when none can be read; a notification gets no reply", async () => {
    const h = harness();
    await h.start();
    const before = h.sent.length;
    const cyclic: Record<string, unknown> = { jsonrpc: "2.0", id: 5, method: "ping" };
    cyclic.self = cyclic;
    for (const message of ["ping", 42, null, [1], { id: 1, method: "ping" }, { jsonrpc: "2.0", id: { x: 1 }, method: "ping" }, { jsonrpc: "2.0", id: 6, method: "ping", params: new Map() }, cyclic]) {
      h.session.receive(message);
    }
    h.session.receive({ jsonrpc: "2.0", method: "notifications/message", params: [1, 2] });
    const replies = h.sent.slice(before).map((m) => [m.id, errorOf(m)?.code]);
    expect(replies).toEqual([
      [null, -32600], [null, -32600], [null, -32600], [null, -32600], [1, -32600], [null, -32600], [6, -32600], [5, -32600],
    ]);
  });

  it("answers params that are not an object with -32602 and an unknown method with -32601", async () => {
    const h = harness();
    await h.start();
    h.session.receive({ jsonrpc: "2.0", id: 50, method: "ping", params: [1] });
    h.session.receive({ jsonrpc: "2.0", id: 51, method: "sampling/createMessage", params: {} });
    h.session.receive({ jsonrpc: "2.0", id: 52, method: "tools/list" });
    expect([50, 51, 52].map((id) => errorOf(h.reply(id))?.code)).toEqual([-32602, -32601, -32601]);
  });

  it("refuses a flood cheaply: over limits.messageRate each request gets one small error, and the log a few lines", async () => {
    const h = harness({ limits: { messageRate: { perSecond: 0.001, burst: 10 } } });
    await h.start();
    for (let i = 0; i < 10_000; i++) h.session.receive({ jsonrpc: "2.0", id: 1000 + i, method: "ping" });
    for (let i = 0; i < 1_000; i++) h.session.receive({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { width: i } });
    const stats = h.session.stats();
    // Two of the burst went to ui/initialize and initialized.
    expect(stats.overRate).toBe(10_000 - 8 + 1_000);
    expect(errorOf(h.reply(1000 + 9_999))).toEqual({ code: -32000, message: "too many messages" });
    expect(h.logger.warnings("too many messages").length).toBeLessThan(20);
  });

  it("serves at most limits.maxInFlight requests at once; more are refused, not queued", async () => {
    const h = harness({ onMessage: () => new Promise(() => {}), limits: { maxInFlight: 3 } });
    await h.start();
    const ids = [1, 2, 3, 4].map(() => h.request("ui/message", { role: "user", content: [{ type: "text", text: "hi" }] }));
    expect(errorOf(h.reply(ids[3]!))).toEqual({ code: -32000, message: "busy: 3 requests are being served" });
    expect(ids.slice(0, 3).map((id) => h.reply(id))).toEqual([undefined, undefined, undefined]);
    expect(h.session.stats().busy).toBe(1);
  });

  it("survives a send that throws", () => {
    const h = harness({ send: () => { throw new Error("the frame is gone"); } });
    h.request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "v", version: "1" }, appCapabilities: {} });
    expect(h.logger.warnings("send threw")).toHaveLength(1);
  });

  it("survives a message no view can post (a proxy whose reads throw), handed in by the host", () => {
    const h = harness();
    const hostile = new Proxy({}, { get: () => { throw new Error("gotcha"); } });
    expect(() => h.session.receive(hostile)).not.toThrow();
    expect(h.logger.warnings("could not be read")).toHaveLength(1);
  });
});
