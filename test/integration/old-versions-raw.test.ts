// What no good server of the old versions sends, and the rules those versions change, against
// scripted raw servers: batches (2025-03-26 receives them, every other version refuses them), an
// elicitation asked of a version that has none, a sampling answer the version cannot carry, the
// `MCP-Protocol-Version` header only from 2025-06-18, pins of the old versions, and 2025-11-25's
// `-32042` (URL elicitation required).
import { describe, expect, it } from "vitest";
import { Client, type ClientOptions, type Handler } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { body, onMethod, posts, rpcMethod, sendJson } from "../helpers/http-requests.js";
import { NEXT, startRawHttp } from "../helpers/raw-http.js";
import { startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const handler: Handler = {
  listRoots: () => ({ roots: [{ uri: "file:///work/project" }] }),
  handleSampling: () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "m" }),
  handleElicitation: () => ({ action: "decline" }),
};

async function legacy(version: string, options: Partial<ClientOptions> = {}) {
  const raw = track(await startRawStdio());
  raw.autoInitialize({ protocolVersion: version, capabilities: { tools: {} } });
  raw.handle("ping", () => ({}));
  const logger = capturingLogger();
  const client = track(new Client({ name: "host", version: "1", logger, handler, sampling: { allowIdle: true }, ...options }));
  const server = await client.connect("raw", raw.target);
  await raw.next("notifications/initialized");
  return { raw, client, server, logger };
}

/** The next line the client wrote that is an array (a batch of answers). */
function nextBatch(raw: RawStdioServer): Promise<unknown[]> {
  return new Promise((resolve) => {
    const off = raw.onMessage((message) => {
      if (!Array.isArray(message)) return;
      off();
      resolve(message);
    });
  });
}

const byId = (answers: unknown[]): Record<string, unknown> =>
  Object.fromEntries(answers.map((answer) => [String((answer as { id: unknown }).id), answer]));

describe("a batch from a 2025-03-26 server", () => {
  it("is taken member by member, and the answers to its requests go back in one array", async () => {
    const logs: unknown[] = [];
    const { raw, client, server } = await legacy("2025-03-26", { handler: { ...handler, handleLog: (_l, p) => void logs.push(p.data) } });
    const call = server.callTool("echo");
    const request = await raw.next("tools/call");
    const answered = nextBatch(raw);
    await raw.send([
      { jsonrpc: "2.0", id: "r-1", method: "roots/list" },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "in a batch" } },
      { jsonrpc: "2.0", id: "p-1", method: "ping" },
      { jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "from the batch" }] } },
    ] as never);
    expect(await call).toEqual({ content: [{ type: "text", text: "from the batch" }] });
    const answers = await answered;
    expect(answers).toHaveLength(2);
    expect(byId(answers)).toEqual({
      "r-1": { jsonrpc: "2.0", id: "r-1", result: { roots: [{ uri: "file:///work/project" }] } },
      "p-1": { jsonrpc: "2.0", id: "p-1", result: {} },
    });
    await client.notificationsSettled();
    expect(logs).toEqual(["in a batch"]);
  });

  it("answers an invalid member inside the batch's reply", async () => {
    const { raw } = await legacy("2025-03-26");
    const answered = nextBatch(raw);
    await raw.send([{ jsonrpc: "2.0", id: "p-2", method: "ping" }, { jsonrpc: "1.0", id: "bad", method: "ping" }] as never);
    const answers = await answered;
    expect(answers).toContainEqual({ jsonrpc: "2.0", id: "p-2", result: {} });
    expect(answers).toContainEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
  });

  it("refuses an empty batch as an invalid request", async () => {
    const { raw, server } = await legacy("2025-03-26");
    await raw.send([] as never);
    const answer = await raw.next((m) => m.id === null);
    expect(answer.error).toMatchObject({ code: -32600 });
    expect(server.stats().invalidMessages).toBe(1);
  });
});

describe("a batch as the JSON reply to a POST (2025-03-26 Streamable HTTP)", () => {
  it("answers the call it holds, and its other members are taken too", async () => {
    const notifications: string[] = [];
    const srv = track(await startRawHttp({ protocolVersion: "2025-03-26" }));
    srv.route(onMethod("tools/call", (req, res) => {
      const id = body(req).id;
      sendJson(res, 200, [
        { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
        { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "batched" }] } },
      ]);
    }));
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), handler: { handleNotification: (method) => void notifications.push(method) } }));
    const server = await client.connect("web", { url: srv.url });
    expect((await server.callTool("x")).content).toEqual([{ type: "text", text: "batched" }]);
    await client.notificationsSettled();
    expect(notifications).toEqual(["notifications/tools/list_changed"]);
  });
});

describe("a batch in any other version", () => {
  it("is a protocol error: none of its members is taken", async () => {
    const { raw, server } = await legacy("2025-06-18");
    await raw.send([{ jsonrpc: "2.0", id: "p-3", method: "ping" }] as never);
    const answer = await raw.next((m) => m.id === null);
    expect(answer.error).toMatchObject({ code: -32600 });
    // A round trip after it: had the ping in the batch been answered, the answer came first.
    await server.ping();
    expect(raw.messages.some((m) => (m as { id?: unknown }).id === "p-3")).toBe(false);
  });
});

describe("a 2024-11-05 server", () => {
  it("that asks for an elicitation, which its version does not have, gets -32601", async () => {
    const { raw } = await legacy("2024-11-05");
    await raw.send({ jsonrpc: "2.0", id: "e-1", method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } } });
    expect((await raw.next((m) => m.id === "e-1")).error).toMatchObject({ code: -32601 });
  });

  it("gets -32603 for a sampling answer with audio, which its version cannot carry", async () => {
    const { raw } = await legacy("2024-11-05", {
      handler: { handleSampling: () => ({ role: "assistant", content: { type: "audio", data: "AAAA", mimeType: "audio/wav" }, model: "m" }) },
    });
    await raw.send({ jsonrpc: "2.0", id: "s-1", method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 } });
    expect((await raw.next((m) => m.id === "s-1")).error).toMatchObject({ code: -32603 });
  });
});

describe("an HTTP server that leaves the era probe unanswered", () => {
  it("is a legacy server once probeTimeout passes", async () => {
    const srv = track(await startRawHttp());
    srv.route((req) => (rpcMethod(req) === "server/discover" ? new Promise<never>(() => {}) : NEXT));
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("web", { url: srv.url }, { probeTimeout: 200 });
    expect(server.era).toBe("legacy");
    expect(posts(srv, "initialize")).toHaveLength(1);
  });
});

describe("pins of the old versions", () => {
  it("declare what the pinned version has: no elicitation in 2024-11-05", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), handler }));
    await client.connect("pinned", raw.target, { protocolVersion: "2024-11-05" });
    const init = raw.messages.find((m) => (m as { method?: string }).method === "initialize") as { params: { capabilities: Record<string, unknown> } };
    expect(init.params.capabilities).toEqual({ sampling: {}, roots: { listChanged: true } });
  });

  it("offer exactly that version", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("pinned", raw.target, { protocolVersion: "2024-11-05" });
    expect(server.protocolVersion).toBe("2024-11-05");
    expect((raw.messages.find((m) => (m as { method?: string }).method === "initialize") as { params: { protocolVersion: string } }).params.protocolVersion).toBe("2024-11-05");
  });

  it("fail naming both sides when the server answers another version", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize({ protocolVersion: "2024-11-05" });
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const error = await client.connect("pinned", raw.target, { protocolVersion: "2025-03-26" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "unsupported" });
    expect((error as Error).message).toContain("2024-11-05");
    expect((error as Error).message).toContain("2025-03-26");
  });
});

describe("the MCP-Protocol-Version header over Streamable HTTP", () => {
  it.each([
    ["2025-03-26", undefined],
    ["2024-11-05", undefined],
    ["2025-06-18", "2025-06-18"],
  ])("after negotiating %s is %s", async (version, header) => {
    const srv = track(await startRawHttp({ protocolVersion: version }));
    srv.handle("tools/call", () => ({ content: [] }));
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("web", { url: srv.url });
    expect(server.protocolVersion).toBe(version);
    await server.callTool("x");
    expect(posts(srv, "tools/call")[0]!.headers["mcp-protocol-version"]).toBe(header);
  });
});

describe("-32042, URL elicitation required (2025-11-25)", () => {
  it("rejects with url_elicitation_required, each URL through the URL checks", async () => {
    const { raw, server } = await legacy("2025-11-25");
    raw.handle("tools/call", () => ({
      error: {
        code: -32042,
        message: "Authorisation needed",
        data: {
          elicitations: [
            { mode: "url", elicitationId: "el-1", url: "https://auth.example.com/connect?x=1", message: "Connect your account" },
            { mode: "url", elicitationId: "el-2", url: "javascript:alert(1)", message: "Click me" },
          ],
        },
      },
    }));
    const error = await server.callTool("needs-auth").catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "url_elicitation_required", code: -32042, serverId: "raw" });
    const [good, bad] = (error as { elicitations: unknown[] }).elicitations;
    expect(good).toEqual({
      elicitationId: "el-1",
      message: "Connect your account",
      url: "https://auth.example.com/connect?x=1",
      host: "auth.example.com",
      idn: false,
      originMismatch: true,
      refused: undefined,
    });
    expect(bad).toMatchObject({ url: undefined, refused: expect.stringContaining("https") });
    // The server's own list is not kept beside the checked one.
    expect((error as { data?: unknown }).data).toBeUndefined();
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain("javascript:");
  });

  it("looks at the first 16 URLs of a longer list, and says so", async () => {
    const { raw, server } = await legacy("2025-11-25");
    const elicitations = Array.from({ length: 17 }, (_, i) => ({ mode: "url", elicitationId: `el-${i}`, url: `https://a.example/${i}`, message: "visit" }));
    raw.handle("tools/call", () => ({ error: { code: -32042, message: "Visits needed", data: { elicitations } } }));
    const error = await server.callTool("t").catch((e: unknown) => e);
    expect((error as { elicitations: unknown[] }).elicitations).toHaveLength(16);
    expect((error as Error).message).toContain("the first 16 of 17");
  });

  it("stays an rpc error in a version that does not have it", async () => {
    const { raw, server } = await legacy("2025-06-18");
    raw.handle("tools/call", () => ({ error: { code: -32042, message: "x", data: { elicitations: [{ mode: "url", url: "https://a.example" }] } } }));
    expect(await server.callTool("t").catch((e: unknown) => e)).toMatchObject({ kind: "rpc", code: -32042 });
  });
});
