// The modern era end to end against the official server library speaking 2026-07-28, over stdio
// and Streamable HTTP: every call of the API, and the Handler answering MRTR rounds.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client, type ElicitResult, type Handler, type InputContext, type LogParams, type ServerHandle, type ServerNotification } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { connectOfficial, officialHttp, officialStdio } from "../helpers/official.js";

const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

describe.each(["stdio", "http"] as const)("official server, modern era, over %s", (transport) => {
  const contexts: InputContext[] = [];
  const logs: LogParams[] = [];
  const notifications: ServerNotification[] = [];
  let decline = false;
  let client: Client;
  let server: ServerHandle;
  let stop: () => Promise<void> = () => Promise.resolve();

  const handler: Handler = {
    elicitationModes: ["form", "url"],
    handleSampling: (params, ctx) => {
      contexts.push(ctx);
      return { role: "assistant", content: { type: "text", text: `sampled ${params.maxTokens}` }, model: "m" };
    },
    handleElicitation: (params, ctx): ElicitResult => {
      contexts.push(ctx);
      if (decline) return { action: "decline" };
      if (ctx.mode === "url") return { action: "accept" };
      const fields = Object.keys((params as { requestedSchema: { properties: object } }).requestedSchema.properties);
      if (fields.includes("name")) return { action: "accept", content: { name: "Ada" } };
      if (fields.includes("answer")) return { action: "accept", content: { answer: `a${contexts.length}` } };
      return { action: "accept", content: {} };
    },
    listRoots: (ctx) => (contexts.push(ctx), { roots: [{ uri: "file:///srv/../work", name: "work" }, { uri: "file://nas/share" }] }),
    handleLog: (_level, params) => void logs.push(params),
  };

  beforeAll(async () => {
    client = new Client({ name: "modern-host", version: "3", handler, logger: capturingLogger(), assigns: { who: "client" } });
    client.onNotification((n) => notifications.push(n));
    ({ server, stop } = await connectOfficial(client, transport, "modern"));
  });

  afterAll(async () => {
    await client.close();
    await stop();
  });

  it("negotiates 2026-07-28 and learns the server from server/discover", () => {
    expect(server.era).toBe("modern");
    expect(server.protocolVersion).toBe("2026-07-28");
    expect(server.serverInfo).toMatchObject({ name: "conduit-official-test-server", version: "1.0.0" });
    expect(server.instructions).toContain("Conduit test server");
  });

  it("lists and calls tools, reads resources, gets prompts, completes", async () => {
    expect((await server.listTools()).map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "sample", "multi-round"]));
    expect(text(await server.callTool("echo", { text: "modern" }))).toBe("modern");
    expect((await server.callTool("add", { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    expect((await server.callTool("fail")).isError).toBe(true);
    await expect(server.callTool("throw")).rejects.toMatchObject({ kind: "rpc", code: -32603 });
    expect((await server.readResource("mem://hello")).contents[0]).toMatchObject({ text: "hello world" });
    expect((await server.listResourceTemplates()).map((t) => t.uriTemplate)).toContain("mem://item/{id}");
    expect((await server.getPrompt("greet", { name: "Grace" })).messages[0]).toMatchObject({ content: { text: "Hello, Grace!" } });
    const completion = await server.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "g" } });
    expect(completion.completion.values).toEqual(["grace"]);
  });

  it("reports progress and cancels", async () => {
    const seen: number[] = [];
    expect(text(await server.callTool("slow", { ms: 40, steps: 4 }, { onProgress: (p) => seen.push(p.progress) }))).toBe("done");
    expect(seen).toEqual([1, 2, 3, 4]);
    const controller = new AbortController();
    const cancelled = server.callTool("slow", { ms: 20_000, steps: 100 }, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(cancelled).rejects.toMatchObject({ kind: "cancelled" });
    expect(text(await server.callTool("echo", { text: "after" }))).toBe("after");
  });

  it("answers sampling, form and URL elicitation and roots through the Handler, with the call's assigns", async () => {
    contexts.length = 0;
    expect(text(await server.callTool("sample", { prompt: "hi", maxTokens: 9000 }, { assigns: { turn: 1 } }))).toBe("sampled 4096");
    expect(JSON.parse(text(await server.callTool("elicit-form")))).toEqual({ action: "accept", content: { name: "Ada", subscribe: true } });
    expect(JSON.parse(text(await server.callTool("elicit-url")))).toEqual({ action: "accept" });
    expect(JSON.parse(text(await server.callTool("roots")))).toEqual([{ uri: "file:///work", name: "work" }]);
    expect(contexts[0]).toMatchObject({ era: "modern", serverId: "official", relatedRequestId: null, assigns: { turn: 1 } });
    expect(contexts[1]).toMatchObject({ mode: "form", assigns: { who: "client" } });
    expect(contexts[2]).toMatchObject({ mode: "url", host: "example.com", originMismatch: true, idn: false });
  });

  it("answers several inputs in one round, several rounds, and state-only rounds", async () => {
    expect(JSON.parse(text(await server.callTool("multi-input")))).toEqual({
      elicitation: { action: "accept", content: { ok: true } },
      roots: [{ uri: "file:///work", name: "work" }],
    });
    const rounds = JSON.parse(text(await server.callTool("multi-round", { rounds: 4 })));
    expect(rounds).toHaveLength(4);
    expect(JSON.parse(text(await server.callTool("state-only", { rounds: 3 })))).toEqual({ rounds: 3 });
  });

  it("sends a decline back as an answer", async () => {
    decline = true;
    try {
      expect(JSON.parse(text(await server.callTool("elicit-form")))).toEqual({ action: "decline" });
    } finally {
      decline = false;
    }
  });

  it("gets logs only for requests that ask, at the level they ask", async () => {
    logs.length = 0;
    await server.callTool("log", { count: 2, level: "error", message: "quiet" });
    await server.callTool("log", { count: 2, level: "warning", message: "loud" }, { logLevel: "info" });
    await client.notificationsSettled();
    await vi.waitFor(() => expect(logs.map((l) => l.data)).toEqual(["loud 1", "loud 2"]));
  });

  it("hears of list changes and resource updates through listen, and refuses legacy-only calls", async () => {
    notifications.length = 0;
    const sub = await server.listen({ toolsListChanged: true, resourceSubscriptions: ["mem://hello"] });
    expect(sub.honoured).toMatchObject({ toolsListChanged: true });
    await server.callTool("add-tool", { name: `late-${transport}` });
    await server.callTool("touch-resource", { uri: "mem://hello" });
    await vi.waitFor(() => {
      const methods = notifications.map((n) => n.method);
      expect(methods).toContain("notifications/tools/list_changed");
      expect(methods).toContain("notifications/resources/updated");
    });
    await sub.close();
    expect(await sub.ended).toBeUndefined();
    await expect(server.ping()).rejects.toMatchObject({ kind: "unsupported" });
    await expect(server.subscribeResource("mem://hello")).rejects.toMatchObject({ kind: "unsupported" });
  });
});

describe("negotiation against the official server's era modes", () => {
  const cases = [
    { era: "both", expected: "modern" },
    { era: "legacy", expected: "legacy" },
  ] as const;
  for (const { era, expected } of cases) {
    it(`a server of era "${era}" is spoken to in the ${expected} era, over stdio and HTTP`, async () => {
      const client = new Client({ name: "t", version: "0", logger: capturingLogger() });
      const http = await officialHttp(era);
      try {
        const viaStdio = await client.connect("s", officialStdio(era));
        const viaHttp = await client.connect("h", { url: http.url });
        expect([viaStdio.era, viaHttp.era]).toEqual([expected, expected]);
        expect(text(await viaStdio.callTool("echo", { text: "x" }))).toBe("x");
        expect(text(await viaHttp.callTool("echo", { text: "y" }))).toBe("y");
      } finally {
        await client.close();
        await http.close();
      }
    });
  }

  it("pins fail across eras, naming what each side supports", async () => {
    const client = new Client({ name: "t", version: "0", logger: capturingLogger() });
    try {
      const toLegacy = await client.connect("a", officialStdio("legacy"), { protocolVersion: "2026-07-28" }).catch((e: unknown) => e);
      expect(toLegacy).toMatchObject({ kind: "unsupported" });
      expect((toLegacy as Error).message).toMatch(/server supports 2025-11-25.*accepts 2026-07-28/);
      const toModern = await client.connect("b", officialStdio("modern"), { protocolVersion: "2025-11-25" }).catch((e: unknown) => e);
      expect(toModern).toMatchObject({ kind: "unsupported" });
      expect((toModern as Error).message).toMatch(/server supports 2026-07-28.*accepts 2025-11-25/);
    } finally {
      await client.close();
    }
  });
});
