// What a review found, each kept from coming back: a server that logs before the handshake
// ends, a close while connecting, a cancel during session renewal, a close while the Handler
// answers a modern round, a pending listen at close, a JSON reply that is not the response.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { Client, type ServerHandle } from "../../src/node.js";
import { failure, posts, rpcMethod, sendJson } from "../helpers/http-requests.js";
import { capturingLogger } from "../helpers/logger.js";
import { NEXT, startRawHttp, type RawHttpServer, type RouteResult } from "../helpers/raw-http.js";
import { deferred, startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

/** Processes whose command line holds `needle` (the relay of one test, by its control port). */
function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe.skipIf(process.platform !== "linux")("closing while connecting", () => {
  it("leaves no server process behind", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const client = new Client({ name: "h", version: "0", logger: capturingLogger() });
    const connecting = client.connect("x", raw.target).catch((e: unknown) => e);
    await client.close();
    expect(await connecting).toMatchObject({ kind: "closed" });
    const port = raw.target.args.at(-1)!;
    await vi.waitFor(() => expect(processesWith(`raw-relay.mjs\u0000${port}`)).toEqual([]), { timeout: 5000 });
  });
});

describe("a legacy server that logs before the handshake ends", () => {
  it("does not crash the host; the entry reaches handleLog once the connection is ready", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    // The log line is written before the result of initialize, on the same pipe.
    raw.handle("initialize", (m) => {
      void raw
        .send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "starting up" } })
        .then(() => raw.send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "early", version: "1" } } }));
      return undefined;
    });
    const logs: unknown[] = [];
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger(), handler: { handleLog: (_l, p) => void logs.push(p.data) } }));
    const server = await client.connect("early", raw.target);
    expect(server.state).toBe("ready");
    await vi.waitFor(() => expect(logs).toEqual(["starting up"]));
  });
});

describe("HTTP session renewal", () => {
  it("does not resend a call that was cancelled while the session was renewed", async () => {
    const srv = track(await startRawHttp());
    srv.handle("tools/call", () => ({ content: [] }));
    srv.handle("ping", () => ({}));
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("web", { url: srv.url });
    await srv.nextRequest("notifications/initialized");
    const renewal = deferred<void>();
    // The renewal is held until the call was cancelled; then the server mints the new session.
    srv.route(async (req): Promise<RouteResult> => {
      if (rpcMethod(req) === "initialize" && posts(srv, "initialize").length >= 2) await renewal.promise;
      return NEXT;
    });
    srv.expireSession();
    const controller = new AbortController();
    const call = server.callTool("delete_everything", {}, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(posts(srv, "initialize")).toHaveLength(2));
    controller.abort();
    expect(await call).toMatchObject({ kind: "cancelled" });
    renewal.resolve();
    await srv.nextRequest("notifications/cancelled");
    // A round trip on the renewed session: the cancelled call, had it been resent, came first.
    await server.ping();
    expect(posts(srv, "tools/call")).toHaveLength(1);
  });

  it("fails a call whose JSON reply is not its response", async () => {
    const srv: RawHttpServer = track(await startRawHttp());
    srv.handle("tools/call", () => undefined);
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("web", { url: srv.url });
    const call = server.callTool("x");
    const pending = await srv.nextPending("tools/call");
    sendJson(pending.res, 200, { jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    const error = await failure(call);
    expect(error).toMatchObject({ kind: "protocol", serverId: "web" });
  });
});

describe("the modern era, when the connection closes", () => {
  const DISCOVERED = { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private" };

  async function modern(handler: ConstructorParameters<typeof Client>[0]["handler"]): Promise<{ raw: RawStdioServer; client: Client; server: ServerHandle }> {
    const raw = track(await startRawStdio());
    raw.handle("server/discover", () => DISCOVERED);
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger(), handler }));
    return { raw, client, server: await client.connect("m", raw.target) };
  }

  it("ends a call waiting on the Handler with closed, and aborts the Handler's signal", async () => {
    let signal: AbortSignal | undefined;
    const asked = deferred<void>();
    const { raw, server } = await modern({
      handleElicitation: (_p, ctx) => {
        signal = ctx.signal;
        asked.resolve();
        return new Promise(() => {});
      },
    });
    raw.handle("tools/call", () => ({ resultType: "input_required", inputRequests: { e: { method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } } } } }));
    const call = server.callTool("t").catch((e: unknown) => e);
    await asked.promise;
    await server.close();
    expect(await call).toMatchObject({ kind: "closed" });
    expect(signal?.aborted).toBe(true);
  });

  it("rejects a listen still waiting for its acknowledgement with closed", async () => {
    const { raw, server } = await modern(undefined);
    const listening = server.listen({ toolsListChanged: true }).catch((e: unknown) => e);
    await raw.next("subscriptions/listen");
    await server.close();
    expect(await listening).toMatchObject({ kind: "closed" });
  });
});

describe("options that would switch a bound off", () => {
  it("refuses NaN, negative and non-numeric timeouts and sizes", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    await expect(client.connect("bad", raw.target, { maxMessageBytes: Number.NaN })).rejects.toThrow(TypeError);
    await expect(client.connect("bad", raw.target, { connectTimeout: -1 })).rejects.toThrow(TypeError);
    const server = await client.connect("ok", raw.target);
    for (const timeout of [Number.NaN, -5, 0]) {
      await expect(server.callTool("t", {}, { timeout })).rejects.toThrow(TypeError);
    }
    await expect(server.callTool("t", {}, { maxTotalTimeout: Number.NaN })).rejects.toThrow(TypeError);
    await expect(server.listen({ toolsListChanged: true }, { ackTimeout: Number.NaN })).rejects.toThrow("ackTimeout must be a positive number, got NaN");
    await expect(server.listen({ toolsListChanged: true }, { ackTimeout: -1 })).rejects.toThrow(TypeError);
  });
});
