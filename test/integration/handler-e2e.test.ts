// The Handler end to end in the legacy era: a server on the official library (stdio and HTTP)
// and server-everything ask for sampling, elicitation, roots, and send logs.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client, type ElicitResult, type ElicitationContext, type Handler, type LogParams, type ServerHandle } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { EVERYTHING_SERVER, connectOfficial } from "../helpers/official.js";

const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

interface Recorded {
  sampling: Record<string, unknown>[];
  elicitation: { params: Record<string, unknown>; ctx: ElicitationContext }[];
  logs: LogParams[];
  roots: number;
}

function recordingHandler(recorded: Recorded): Handler {
  return {
    elicitationModes: ["form", "url"],
    handleSampling: (params) => {
      recorded.sampling.push(params);
      return { role: "assistant", content: { type: "text", text: "sampled answer" }, model: "test-model", stopReason: "endTurn" };
    },
    handleElicitation: (params, ctx): ElicitResult => {
      recorded.elicitation.push({ params, ctx });
      if (ctx.mode === "url") return { action: "accept" };
      const schema = (params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema;
      if ("name" in schema.properties) return { action: "accept", content: { name: "Ada" } };
      if ("answer" in schema.properties) return { action: "accept", content: { answer: `answer ${recorded.elicitation.length}` } };
      return { action: "accept", content: {} };
    },
    listRoots: () => {
      recorded.roots += 1;
      return { roots: [{ uri: "file:///srv/project", name: "project" }, { uri: "file://elsewhere/secret" }] };
    },
    handleLog: (_level, params) => {
      recorded.logs.push(params);
    },
  };
}

describe.each(["stdio", "http"] as const)("the Handler against the official server over %s", (transport) => {
  const recorded: Recorded = { sampling: [], elicitation: [], logs: [], roots: 0 };
  let client: Client;
  let server: ServerHandle;
  let stop: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    client = new Client({ name: "e2e-host", version: "1", handler: recordingHandler(recorded), logger: capturingLogger() });
    ({ server, stop } = await connectOfficial(client, transport, "legacy"));
  });

  afterAll(async () => {
    await client.close();
    await stop();
  });

  it("answers sampling during a call, with the clamped request", async () => {
    const result = await server.callTool("sample", { prompt: "Say hi", maxTokens: 10_000 });
    expect(text(result)).toBe("sampled answer");
    expect(recorded.sampling.at(-1)).toMatchObject({ maxTokens: 4096 });
  });

  it("answers a form elicitation, the call's context attached", async () => {
    const result = await server.callTool("elicit-form", {}, { assigns: { turn: 3 } });
    expect(JSON.parse(text(result))).toEqual({ action: "accept", content: { name: "Ada", subscribe: true } });
    const { ctx } = recorded.elicitation.at(-1)!;
    expect(ctx).toMatchObject({ mode: "form", serverId: "official", era: "legacy", client: "e2e-host", assigns: { turn: 3 } });
    expect(ctx.relatedRequestId).not.toBeNull();
  });

  it("answers a URL elicitation with the URL vetted", async () => {
    const result = await server.callTool("elicit-url", { url: "https://example.com/authorize?flow=1" });
    expect(JSON.parse(text(result))).toEqual({ action: "accept" });
    expect(recorded.elicitation.at(-1)!.ctx).toMatchObject({
      mode: "url",
      url: "https://example.com/authorize?flow=1",
      host: "example.com",
      idn: false,
      originMismatch: true,
    });
  });

  it("shares only local roots", async () => {
    const result = await server.callTool("roots");
    expect(JSON.parse(text(result))).toEqual([{ uri: "file:///srv/project", name: "project" }]);
  });

  it("answers several inputs of one call, in turn and at once", async () => {
    const sequential = JSON.parse(text(await server.callTool("multi-input")));
    expect(sequential).toEqual({ elicitation: { action: "accept", content: { ok: true } }, roots: [{ uri: "file:///srv/project", name: "project" }] });
    const parallel = JSON.parse(text(await server.callTool("multi-input", { parallel: true })));
    expect(parallel.roots).toHaveLength(1);
    const rounds = JSON.parse(text(await server.callTool("multi-round", { rounds: 3 })));
    expect(rounds).toHaveLength(3);
    expect(rounds.every((r: { action: string }) => r.action === "accept")).toBe(true);
  });

  it("delivers the server's logs to handleLog", async () => {
    await server.setLogLevel("debug");
    await server.callTool("log", { count: 3, level: "notice", message: "entry" });
    const expected = [1, 2, 3].map((i) => ({ level: "notice", logger: "official-server", data: `entry ${i}` }));
    await vi.waitFor(() => expect(recorded.logs.slice(-3)).toEqual(expected), { timeout: 2000 });
  });
});

describe("the Handler against server-everything over stdio", () => {
  const recorded: Recorded = { sampling: [], elicitation: [], logs: [], roots: 0 };
  let client: Client;
  let server: ServerHandle;

  beforeAll(async () => {
    client = new Client({ name: "e2e-host", version: "1", handler: recordingHandler(recorded), logger: capturingLogger() });
    server = await client.connect("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] });
  });

  afterAll(() => client.close());

  it("offers the tools that need the capabilities the handler declared", async () => {
    const names = (await server.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"]));
  });

  it("answers its sampling request", async () => {
    const result = await server.callTool("trigger-sampling-request", { prompt: "hello", maxTokens: 50 });
    expect(text(result)).toContain("sampled answer");
    expect(recorded.sampling.at(-1)).toMatchObject({ maxTokens: 50, systemPrompt: "You are a helpful test server." });
  });

  it("answers its elicitation of every field kind, defaults filled in", async () => {
    const result = await server.callTool("trigger-elicitation-request");
    const all = result.content.map((c) => (c as { text: string }).text).join("\n");
    expect(all).toContain("Ada");
    const { ctx } = recorded.elicitation.at(-1)!;
    expect(ctx.mode).toBe("form");
    if (ctx.mode === "form") {
      expect(Object.keys(ctx.fields)).toContain("titledMultipleSelectEnum");
      expect(ctx.fields.name!.sensitiveSuspected).toBe(false);
      expect(ctx.fields.email!.sensitiveSuspected).toBe(false);
    }
  });

  it("lists its roots through the handler", async () => {
    const result = await server.callTool("get-roots-list");
    const all = result.content.map((c) => (c as { text: string }).text).join("\n");
    expect(all).toContain("file:///srv/project");
    expect(all).not.toContain("elsewhere");
    expect(recorded.roots).toBeGreaterThan(0);
  });

  it("delivers its simulated logs to handleLog", async () => {
    await server.setLogLevel("debug");
    await server.callTool("toggle-simulated-logging");
    const entry = await vi.waitFor(
      () => {
        const found = recorded.logs.find((l) => /level[- ]message/i.test(String(l.data)));
        expect(found).toBeDefined();
        return found;
      },
      { timeout: 5000 },
    );
    expect(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]).toContain(entry!.level);
    await server.callTool("toggle-simulated-logging");
  });
});
