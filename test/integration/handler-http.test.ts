// The Handler over Streamable HTTP (legacy): a server request belongs to the call whose POST
// stream carried it; one on the standalone GET stream belongs to no call. Answers are POSTed.
import { describe, expect, it, vi } from "vitest";
import { Client, type Handler, type InputContext, type ServerHandle } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawHttp, type JsonObject, type RawHttpServer, type RecordedRequest } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";

async function setup(handler: Handler, getStream = false): Promise<{ srv: RawHttpServer; server: ServerHandle }> {
  const srv = track(await startRawHttp({ getStream }));
  srv.handle("tools/call", () => undefined);
  const client = track(new Client({ name: "host", version: "1", handler, logger: capturingLogger(), assigns: { who: "client" } }));
  const server = await client.connect("web", { url: srv.url });
  await srv.nextRequest("notifications/initialized");
  return { srv, server };
}

const responseTo = (id: string) => (r: RecordedRequest) => (r.json as JsonObject | undefined)?.id === id && r.method === "POST";

describe("the related call over HTTP", () => {
  it("a request on a POST's event stream belongs to that call, even with two calls in flight", async () => {
    const seen: Pick<InputContext, "assigns" | "relatedRequestId">[] = [];
    const { srv, server } = await setup({ listRoots: (ctx) => (seen.push({ assigns: ctx.assigns, relatedRequestId: ctx.relatedRequestId }), { roots: [] }) });
    const first = server.callTool("a", {}, { assigns: { turn: 1 } });
    const second = server.callTool("b", {}, { assigns: { turn: 2 } });
    const pendingA = await srv.nextPending((m) => (m.params as { name?: string } | undefined)?.name === "a");
    const pendingB = await srv.nextPending((m) => (m.params as { name?: string } | undefined)?.name === "b");
    pendingB.write({ jsonrpc: "2.0", id: "ask-1", method: "roots/list" });
    const answer = await srv.nextRequest(responseTo("ask-1"));
    expect(answer.json).toEqual({ jsonrpc: "2.0", id: "ask-1", result: { roots: [] } });
    expect(answer.headers["mcp-session-id"]).toBe("s-1");
    expect(seen).toEqual([{ assigns: { turn: 2 }, relatedRequestId: pendingB.id }]);
    pendingA.respond({ content: [] });
    pendingB.respond({ content: [] });
    await Promise.all([first, second]);
  });

  it("a request on the standalone GET stream belongs to no call", async () => {
    const seen: Pick<InputContext, "assigns" | "relatedRequestId">[] = [];
    const { srv, server } = await setup({ listRoots: (ctx) => (seen.push({ assigns: ctx.assigns, relatedRequestId: ctx.relatedRequestId }), { roots: [] }) }, true);
    await srv.nextGetStream();
    const call = server.callTool("a", {}, { assigns: { turn: 1 } });
    const pending = await srv.nextPending("tools/call");
    srv.pushGet({ jsonrpc: "2.0", id: "ask-2", method: "roots/list" });
    await srv.nextRequest(responseTo("ask-2"));
    expect(seen).toEqual([{ assigns: { who: "client" }, relatedRequestId: null }]);
    pending.respond({ content: [] });
    await call;
  });

  it("URL elicitation: the HTTP server's origin is known, and connect's elicitation.origin overrides it", async () => {
    const contexts: Record<string, unknown>[] = [];
    const handler: Handler = {
      elicitationModes: ["url"],
      handleElicitation: (_params, ctx) => (contexts.push(ctx as unknown as Record<string, unknown>), { action: "decline" }),
    };
    const { srv, server } = await setup(handler);
    expect(server.origin).toBe(new URL(srv.url).origin);
    const call = server.callTool("a");
    const pending = await srv.nextPending("tools/call");
    pending.write({ jsonrpc: "2.0", id: "ask-3", method: "elicitation/create", params: { mode: "url", message: "go", url: "https://example.com/x", elicitationId: "e" } });
    await srv.nextRequest(responseTo("ask-3"));
    expect(contexts[0]).toMatchObject({ originMismatch: true, host: "example.com" });
    pending.respond({ content: [] });
    await call;

    const srv2 = track(await startRawHttp());
    srv2.handle("tools/call", () => undefined);
    const client = track(new Client({ name: "host", version: "1", handler, logger: capturingLogger() }));
    const other = await client.connect("web2", { url: srv2.url }, { elicitation: { origin: "https://example.com" } });
    const call2 = other.callTool("a");
    const pending2 = await srv2.nextPending("tools/call");
    pending2.write({ jsonrpc: "2.0", id: "ask-4", method: "elicitation/create", params: { mode: "url", message: "go", url: "https://example.com/y", elicitationId: "f" } });
    await srv2.nextRequest(responseTo("ask-4"));
    expect(contexts[1]).toMatchObject({ originMismatch: false });
    pending2.respond({ content: [] });
    await call2;
  });
});

describe("the Handler's bounds over HTTP", () => {
  const answersTo = (srv: RawHttpServer, id: string) => srv.requests.filter(responseTo(id));

  it("answers the 9th concurrent request -32000, a crash -32603, and nothing to a cancelled request", async () => {
    const releases: (() => void)[] = [];
    const signals: AbortSignal[] = [];
    const { srv } = await setup(
      {
        // A callback that gives up when its request is withdrawn: its slot of the cap is free again.
        listRoots: (ctx) => {
          signals.push(ctx.signal);
          return new Promise((resolve, reject) => {
            releases.push(() => resolve({ roots: [] }));
            ctx.signal.addEventListener("abort", () => reject(new Error("withdrawn")));
          });
        },
        handleElicitation: () => {
          throw new Error("internal detail that must stay here");
        },
      },
      true,
    );
    await srv.nextGetStream();
    for (let i = 1; i <= 9; i++) srv.pushGet({ jsonrpc: "2.0", id: `r${i}`, method: "roots/list" });
    const busy = await srv.nextRequest(responseTo("r9"));
    expect((busy.json as JsonObject).error).toMatchObject({ code: -32000 });
    srv.pushGet({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "r1" } });
    await vi.waitFor(() => expect(signals[0]!.aborted).toBe(true));
    srv.pushGet({ jsonrpc: "2.0", id: "e1", method: "elicitation/create", params: { message: "x", requestedSchema: { type: "object", properties: {} } } });
    const crash = await srv.nextRequest(responseTo("e1"));
    expect((crash.json as JsonObject).error).toMatchObject({ code: -32603 });
    expect(crash.body).not.toContain("internal detail");
    for (const release of releases) release();
    // r1 was released first: had it been answered, its POST would have left before the others'.
    for (let i = 2; i <= 8; i++) await srv.nextRequest(responseTo(`r${i}`));
    expect(answersTo(srv, "r1")).toEqual([]);
  });

  it("passes 100 log lines of a burst from the GET stream and drops the rest", async () => {
    const logs: unknown[] = [];
    const { srv, server } = await setup({ handleLog: (_level, params) => logs.push(params.data) }, true);
    await srv.nextGetStream();
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    try {
      for (let i = 0; i < 120; i++) srv.pushGet({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: i } });
      await vi.waitFor(() => expect(server.stats().logsDropped).toBe(20));
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(logs).toHaveLength(100));
    expect(logs.at(-1)).toBe(99);
  });
});

