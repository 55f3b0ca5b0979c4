// The client over stdio against a scripted raw server: the JSON-RPC core (ids, garbage,
// deadlines, cancellation, progress) and the stdio transport (framing, limits, crashes, process
// groups), each with what no well-behaved server would send.
import { describe, expect, it, vi } from "vitest";
import { Client, ClientError, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { isProcessAlive, startRawStdio, waitForDeath, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

async function setup(
  options: { init?: Parameters<RawStdioServer["autoInitialize"]>[0]; connect?: Parameters<Client["connect"]>[2] } = {},
): Promise<{ raw: RawStdioServer; client: Client; server: ServerHandle; logger: CapturingLogger }> {
  const raw = track(await startRawStdio());
  raw.autoInitialize(options.init);
  const logger = capturingLogger();
  const client = track(new Client({ name: "test-host", version: "1.2.3", logger }));
  const server = await client.connect("raw", raw.target, options.connect);
  return { raw, client, server, logger };
}

const textResult = (text: string) => ({ content: [{ type: "text", text }] });

describe("handshake", () => {
  it("probes with server/discover, falls back on -32601, offers 2025-11-25 with clientInfo and empty capabilities, then initialized", async () => {
    const { raw, server } = await setup();
    const probe = raw.messages[0] as { method: string; id: number; params: { _meta: Record<string, unknown> } };
    expect(probe.method).toBe("server/discover");
    expect(probe.params._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "test-host", version: "1.2.3" },
      "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
    });
    // No cancellation of the probe: a legacy server must get nothing but initialize next.
    expect((raw.messages[1] as { method: string }).method).toBe("initialize");
    const init = raw.messages.find((m) => (m as { method?: string }).method === "initialize") as { method: string; params: Record<string, unknown> };
    expect(init.method).toBe("initialize");
    expect(init.params).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "test-host", version: "1.2.3" },
    });
    await raw.next("notifications/initialized");
    expect(server.protocolVersion).toBe("2025-11-25");
    expect(server.era).toBe("legacy");
    expect(server.serverInfo).toEqual({ name: "raw", version: "0" });
    expect(server.state).toBe("ready");
  });

  it("accepts a server that answers 2025-06-18", async () => {
    const { server } = await setup({ init: { protocolVersion: "2025-06-18" } });
    expect(server.protocolVersion).toBe("2025-06-18");
  });

  it("refuses another version with an error naming both, and stops the server", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize({ protocolVersion: "2024-10-07" });
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await client.connect("old", raw.target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ kind: "unsupported", serverId: "old" });
    expect((error as Error).message).toContain("2024-10-07");
    expect((error as Error).message).toContain("2025-11-25");
    await raw.exited;
    expect(client.server("old")).toBeUndefined();
  });

  it("pins a legacy version when asked", async () => {
    const { raw, server } = await setup({ connect: { protocolVersion: "2025-06-18" } });
    expect((raw.messages.find((m) => (m as { method?: string }).method === "initialize") as { params: { protocolVersion: string } }).params.protocolVersion).toBe("2025-06-18");
    expect(server.protocolVersion).toBe("2025-06-18");
  });

  it("answers the server's ping, even before initialized", async () => {
    const { raw } = await setup();
    await raw.send({ jsonrpc: "2.0", id: "p1", method: "ping" });
    const pong = await raw.next((m) => m.id === "p1");
    expect(pong).toEqual({ jsonrpc: "2.0", id: "p1", result: {} });
  });

  it("fails with the server's stderr when it dies before answering", async () => {
    const raw = track(await startRawStdio());
    raw.handle("initialize", () => {
      void raw.stderr("fatal: config file missing\n").then(() => raw.exit(7));
      return undefined;
    });
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await client.connect("dies", raw.target).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", serverId: "dies" });
    expect((error as Error).message).toContain("code 7");
    expect((error as Error).message).toContain("fatal: config file missing");
  });

  it("quotes a stderr character written in two halves whole, and gives one that the stream's end cut off as a replacement character", async () => {
    const raw = track(await startRawStdio());
    const e = Buffer.from("é");
    raw.handle("server/discover", () => {
      void (async () => {
        await raw.stderr("caf");
        await raw.stderrBytes(e.subarray(0, 1));
        await raw.stderrBytes(Buffer.concat([e.subarray(1), Buffer.from(" then "), e.subarray(0, 1)]));
        await raw.exit(3);
      })();
      return undefined;
    });
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const heard: string[] = [];
    const error = await client.connect("split", raw.target, { onStderr: (text) => void heard.push(text) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", serverId: "split", data: { exitCode: 3 } });
    // The exit's report may come before the stream's end: the cut character is the end's.
    expect((error as ClientError).message).toContain("café then");
    expect((error as ClientError).message).not.toContain("caf\uFFFD");
    await vi.waitFor(() => expect(heard.join("")).toBe("café then \uFFFD"));
    expect(heard.join("")).not.toContain("\uFFFD\uFFFD");
  });

  it("reports a command that cannot start", async () => {
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const error = await client.connect("none", { command: "/nonexistent/conduit-no-such-server" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", serverId: "none" });
    expect((error as Error).message).toContain("could not start");
    expect(client.servers()).toEqual([]);
  });

  it("never cancels initialize, not even when the handshake times out", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("initialize", () => undefined);
    // A fake clock, so that the bound runs out after initialize was sent however slowly the
    // server starts (under Deno on two loaded cores 300 ms could pass before the probe ended).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const client = track(new Client({ name: "test-host", version: "1.2.3", logger: capturingLogger() }));
    const outcome = client.connect("raw", raw.target, { connectTimeout: 300 }).catch((e: unknown) => e);
    await raw.next("initialize");
    await vi.advanceTimersByTimeAsync(300);
    expect(await outcome).toMatchObject({ kind: "timeout" });
    // The pipe keeps order: whatever the client wrote came before the end of its stdin.
    await raw.stdinEnded;
    expect(raw.messages.map((m) => (m as { method?: string }).method)).toEqual(["server/discover", "initialize"]);
  });
});

describe("responses", () => {
  it("matches responses by id, exactly: a string id does not answer a number id", async () => {
    const { raw, server } = await setup();
    const call = server.callTool("echo", { text: "a" });
    const request = await raw.next("tools/call");
    expect(typeof request.id).toBe("number");
    await raw.send({ jsonrpc: "2.0", id: String(request.id), result: textResult("wrong") });
    await raw.send({ jsonrpc: "2.0", id: request.id, result: textResult("right") });
    await expect(call).resolves.toEqual(textResult("right"));
  });

  it("drops responses to unknown and settled ids, and counts them", async () => {
    const { raw, server, client } = await setup();
    raw.handle("tools/call", () => textResult("ok"));
    await server.callTool("echo");
    await raw.send({ jsonrpc: "2.0", id: 999, result: {} });
    await raw.send({ jsonrpc: "2.0", id: 2, result: textResult("again") });
    await expect(server.callTool("echo")).resolves.toEqual(textResult("ok"));
    expect(server.stats().staleResponses).toBe(2);
    expect(client.server("raw")).toBe(server);
  });

  it("turns a JSON-RPC error into a ClientError of kind rpc with the server's code and data", async () => {
    const { raw, server } = await setup();
    raw.handle("tools/call", () => ({ error: { code: -32602, message: "no such tool", data: { tool: "x" } } }));
    const error = await server.callTool("x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ kind: "rpc", code: -32602, data: { tool: "x" }, serverId: "raw" });
  });

  it("rejects a malformed response to a pending id as a protocol error", async () => {
    const { raw, server } = await setup();
    const outcome = server.callTool("x").catch((e: unknown) => e);
    const request = await raw.next("tools/call");
    await raw.send({ jsonrpc: "2.0", id: request.id, error: { code: "bad", message: 3 } });
    expect(await outcome).toMatchObject({ kind: "protocol", serverId: "raw" });
  });

  it("checks results at the boundary and names the field", async () => {
    const { raw, server } = await setup();
    raw.handle("tools/call", () => ({ content: "not an array" }));
    const error = await server.callTool("x").catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "protocol", serverId: "raw", data: { content: "not an array" } });
    expect((error as Error).message).toBe('the result of tools/call "content" must be an array');
  });
});

describe("inbound garbage", () => {
  it("logs and answers each kind of garbage, and the connection lives on", async () => {
    const { raw, server, logger } = await setup();
    await raw.next("notifications/initialized");
    await raw.sendRaw("this is not json\n");
    await raw.sendRaw("42\n");
    await raw.send([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    await raw.send({ jsonrpc: "1.0", id: 5, method: "ping" });
    await raw.send({ jsonrpc: "2.0", id: { no: 1 }, method: "ping" });
    await raw.send({ jsonrpc: "2.0", id: null, method: "ping" });
    await raw.send({ jsonrpc: "2.0", id: 6, method: "ping", params: [1, 2] });
    const answers: unknown[] = [];
    for (let i = 0; i < 7; i++) answers.push(await raw.next((m) => m.id === null && "error" in m));
    const codes = answers.map((a) => (a as { error: { code: number } }).error.code);
    expect(codes).toEqual([-32700, -32600, -32600, -32600, -32600, -32600, -32600]);
    expect(logger.warnings("not JSON")).toHaveLength(1);
    expect(logger.warnings("invalid message")).toHaveLength(6);
    raw.handle("tools/call", () => textResult("alive"));
    await expect(server.callTool("echo")).resolves.toEqual(textResult("alive"));
  });

  it("ignores blank lines and accepts CRLF line ends", async () => {
    const { raw, server } = await setup();
    const call = server.callTool("echo");
    const request = await raw.next("tools/call");
    await raw.sendRaw(`\n\r\n${JSON.stringify({ jsonrpc: "2.0", id: request.id, result: textResult("crlf") })}\r\n`);
    await expect(call).resolves.toEqual(textResult("crlf"));
  });

  it("reassembles a message split across writes at awkward points", async () => {
    const { raw, server } = await setup();
    const call = server.callTool("echo");
    const request = await raw.next("tools/call");
    const line = `${JSON.stringify({ jsonrpc: "2.0", id: request.id, result: textResult("héllo ✓ split") })}\n`;
    for (const piece of [line.slice(0, 1), line.slice(1, 30), line.slice(30, 61), line.slice(61)]) await raw.sendRaw(piece);
    await expect(call).resolves.toEqual(textResult("héllo ✓ split"));
  });
});

describe("deadlines, cancellation and progress", () => {
  const fake = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });

  it("times out, rejects with kind timeout, and tells the server", async () => {
    fake();
    const { raw, server } = await setup();
    let settled = false;
    const outcome = server.callTool("slow", {}, { timeout: 1000 }).catch((e: unknown) => e).finally(() => (settled = true));
    const request = await raw.next("tools/call");
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ kind: "timeout", serverId: "raw" });
    const cancel = await raw.next("notifications/cancelled");
    expect(cancel.params).toMatchObject({ requestId: request.id });
    // A late answer is dropped, not thrown.
    await raw.send({ jsonrpc: "2.0", id: request.id, result: textResult("late") });
    raw.handle("tools/call", () => textResult("next"));
    await expect(server.callTool("echo")).resolves.toEqual(textResult("next"));
  });

  it("uses the client's requestTimeout when a call gives none", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    fake();
    const client = track(new Client({ name: "h", version: "0", requestTimeout: 5000, logger: capturingLogger() }));
    const server = await client.connect("raw", raw.target);
    const call = server.callTool("slow");
    const outcome = call.catch((e: unknown) => e);
    await raw.next("tools/call");
    await vi.advanceTimersByTimeAsync(5000);
    expect(await outcome).toMatchObject({ kind: "timeout" });
  });

  it("cancels on an aborted signal, with kind cancelled and the reason as cause", async () => {
    const { raw, server } = await setup();
    const controller = new AbortController();
    const outcome = server.callTool("slow", {}, { signal: controller.signal }).catch((e: unknown) => e);
    const request = await raw.next("tools/call");
    controller.abort(new Error("user pressed stop"));
    const error = await outcome;
    expect(error).toMatchObject({ kind: "cancelled", serverId: "raw" });
    expect(((error as Error).cause as Error).message).toBe("user pressed stop");
    const cancel = await raw.next("notifications/cancelled");
    expect(cancel.params).toMatchObject({ requestId: request.id });
  });

  it("refuses at once a signal that is already aborted, sending nothing", async () => {
    const { raw, server } = await setup();
    await raw.next("notifications/initialized");
    const before = raw.lines.length;
    await expect(server.callTool("x", {}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: "cancelled" });
    raw.handle("tools/call", () => textResult("ok"));
    await server.callTool("y");
    expect(raw.lines.length).toBe(before + 1);
  });

  it("attaches a progress token and reports progress", async () => {
    const { raw, server } = await setup();
    const updates: unknown[] = [];
    const call = server.callTool("slow", { n: 1 }, { onProgress: (p) => updates.push(p) });
    const request = await raw.next("tools/call");
    const token = (request.params as { _meta: { progressToken: unknown } })._meta.progressToken;
    expect(request.params).toMatchObject({ name: "slow", arguments: { n: 1 } });
    await raw.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 3 } });
    await raw.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "other", progress: 9 } });
    await raw.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 2, total: 3, message: "half" } });
    await raw.send({ jsonrpc: "2.0", id: request.id, result: textResult("done") });
    await call;
    expect(updates).toEqual([{ progress: 1, total: 3 }, { progress: 2, total: 3, message: "half" }]);
  });

  it("restarts the deadline on progress when asked, but never past maxTotalTimeout", async () => {
    fake();
    const { raw, server } = await setup();
    const call = server.callTool("slow", {}, { timeout: 1000, maxTotalTimeout: 2500, resetTimeoutOnProgress: true, onProgress: () => {} });
    const outcome = call.catch((e: unknown) => e);
    const request = await raw.next("tools/call");
    const token = (request.params as { _meta: { progressToken: unknown } })._meta.progressToken;
    for (let i = 1; i <= 3; i++) {
      await vi.advanceTimersByTimeAsync(800);
      await raw.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: i } });
      await vi.waitFor(() => expect(raw.lines.length).toBeGreaterThan(0));
    }
    // 2400 ms have passed, each progress restarted the 1000 ms clock; the total bound ends it.
    await vi.advanceTimersByTimeAsync(100);
    const error = await outcome;
    expect(error).toMatchObject({ kind: "timeout" });
    expect((error as Error).message).toContain("maxTotalTimeout");
  });

  it("without resetTimeoutOnProgress, progress does not extend the deadline", async () => {
    fake();
    const { raw, server } = await setup();
    const call = server.callTool("slow", {}, { timeout: 1000, onProgress: () => {} });
    const outcome = call.catch((e: unknown) => e);
    const request = await raw.next("tools/call");
    const token = (request.params as { _meta: { progressToken: unknown } })._meta.progressToken;
    await vi.advanceTimersByTimeAsync(800);
    await raw.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1 } });
    await vi.advanceTimersByTimeAsync(200);
    expect(await outcome).toMatchObject({ kind: "timeout" });
  });
});

describe("the stdio transport", () => {
  it("carries a 10 MB result", async () => {
    const { raw, server } = await setup();
    const call = server.callTool("big");
    const request = await raw.next("tools/call");
    const ack = await raw.sendBig({ id: request.id, bytes: 10 * 1024 * 1024 });
    expect(ack.ok).toBe(true);
    const result = await call;
    const block = result.content[0] as { type: string; text: string };
    expect(block.text.length).toBe(10 * 1024 * 1024);
  });

  it("closes with a clear error when a message exceeds maxMessageBytes", async () => {
    const { raw, server } = await setup({ connect: { maxMessageBytes: 1024 * 1024 } });
    const outcome = server.callTool("big").catch((e: unknown) => e);
    const request = await raw.next("tools/call");
    await raw.sendBig({ id: request.id, bytes: 2 * 1024 * 1024 });
    const error = await outcome;
    expect(error).toMatchObject({ kind: "transport", serverId: "raw" });
    expect((error as Error).message).toContain("maxMessageBytes");
    await raw.exited;
    // The connection broke: it is closing until nothing of the server is left, then failed.
    expect(["closing", "failed"]).toContain(server.state);
    await expect(server.callTool("again")).rejects.toMatchObject({ kind: "closed" });
    expect(await server.closed).toMatchObject({ kind: "transport" });
    expect(server.state).toBe("failed");
  });

  it("rejects every pending call when the server exits mid-call, with the exit code and stderr", async () => {
    const { raw, server, client } = await setup();
    const calls = [server.callTool("a"), server.callTool("b"), server.readResource("mem://c")].map((c) => c.catch((e: unknown) => e));
    for (let i = 0; i < 3; i++) await raw.next((m) => typeof m.method === "string" && m.method !== "notifications/initialized");
    await raw.stderr("panic: something broke\n");
    await raw.exit(3);
    const errors = await Promise.all(calls);
    for (const error of errors) {
      expect(error).toMatchObject({ kind: "transport", serverId: "raw" });
      expect((error as Error).message).toContain("code 3");
      expect((error as Error).message).toContain("panic: something broke");
    }
    expect(await server.closed).toMatchObject({ kind: "transport" });
    expect(client.server("raw")).toBeUndefined();
  });

  it("closes the whole process group: no grandchild survives", async () => {
    const { raw, server } = await setup();
    const grandchild = await raw.spawnGrandchild();
    expect(isProcessAlive(grandchild)).toBe(true);
    await server.close();
    expect(await waitForDeath(grandchild, 3000)).toBe(true);
    expect(isProcessAlive(raw.pid!)).toBe(false);
  });

  it("escalates to SIGTERM then SIGKILL for a server that ignores both stdin's end and SIGTERM", async () => {
    const { raw, server } = await setup({ connect: { closeGracePeriod: 200 } });
    await raw.ignoreSigterm();
    await raw.stayAfterStdinEnd();
    await server.close();
    expect(raw.signals).toContain("SIGTERM");
    expect(isProcessAlive(raw.pid!)).toBe(false);
  });

  it("sends SIGTERM as stdin ends with stdinGracePeriod 0, and gives the server closeGracePeriod to exit on it", async () => {
    // A close that waited out closeGracePeriod after stdin's end would outlast the test.
    const { raw, server } = await setup({ connect: { stdinGracePeriod: 0, closeGracePeriod: 600_000 } });
    await raw.stayAfterStdinEnd();
    await server.close();
    // The relay stays after stdin's end and dies of SIGTERM (often before it has even seen the
    // end): nothing else could have ended it before the 600 s grace period.
    await raw.exited;
    expect(isProcessAlive(raw.pid!)).toBe(false);
  });

  it("ends stdin first, and a well-behaved server exits on its own", async () => {
    const { raw, server } = await setup();
    await server.close();
    await raw.stdinEnded;
    expect(raw.signals).toEqual([]);
  });

  it("hands the server a minimal environment unless told to inherit", async () => {
    process.env.CONDUIT_TEST_SECRET = "s3cret";
    try {
      const raw = track(await startRawStdio());
      raw.autoInitialize();
      const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
      const server = await client.connect("env", { ...raw.target, env: { EXTRA: "1" } });
      const environ = (await import("node:fs")).readFileSync(`/proc/${raw.pid!}/environ`, "utf8").split("\0");
      expect(environ).toContain("EXTRA=1");
      expect(environ.some((e) => e.startsWith("CONDUIT_TEST_SECRET="))).toBe(false);
      expect(environ.some((e) => e.startsWith("PATH="))).toBe(true);
      await server.close();
    } finally {
      delete process.env.CONDUIT_TEST_SECRET;
    }
  });
});

describe("the client's registry", () => {
  it("refuses a second connect under an id in use, and frees the id on close", async () => {
    const { raw, client, server } = await setup();
    const error = await client.connect("raw", raw.target).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "usage", serverId: "raw" });
    expect(client.servers()).toEqual([server]);
    await server.close();
    expect(client.server("raw")).toBeUndefined();
    const again = track(await startRawStdio());
    again.autoInitialize();
    const second = await client.connect("raw", again.target);
    expect(client.server("raw")).toBe(second);
  });

  it("keeps two servers apart: one crashing leaves the other working", async () => {
    const a = await startRawStdio();
    const b = await startRawStdio();
    track(a);
    track(b);
    a.autoInitialize();
    b.autoInitialize();
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const [sa, sb] = await Promise.all([client.connect("a", a.target), client.connect("b", b.target)]);
    a.handle("tools/call", (m) => ((m.params as { name: string }).name === "never" ? undefined : textResult("from a")));
    b.handle("tools/call", () => textResult("from b"));
    const results = await Promise.all([sa.callTool("t"), sb.callTool("t"), sa.callTool("t"), sb.callTool("t")]);
    expect(results.map((r) => (r.content[0] as { text: string }).text)).toEqual(["from a", "from b", "from a", "from b"]);
    const pending = sa.callTool("never").catch((e: unknown) => e);
    await a.next((m) => (m.params as { name?: string } | undefined)?.name === "never");
    await a.exit(1);
    expect(await pending).toMatchObject({ kind: "transport", serverId: "a" });
    await expect(sb.callTool("t")).resolves.toEqual(textResult("from b"));
    expect(client.servers()).toEqual([sb]);
  });

  it("client.close() closes every server and refuses new connections", async () => {
    const { raw, client, server } = await setup();
    await client.close();
    expect(server.state).toBe("closed");
    await raw.exited;
    await expect(client.connect("x", raw.target)).rejects.toMatchObject({ kind: "closed" });
  });
});

describe("what the negotiated version allows", () => {
  it("refuses locally a method for a capability the server did not declare", async () => {
    const { raw, server } = await setup({ init: { capabilities: { tools: {} } } });
    await raw.next("notifications/initialized");
    const count = raw.lines.length;
    await expect(server.listPrompts()).rejects.toMatchObject({ kind: "unsupported", serverId: "raw" });
    await expect(server.subscribeResource("mem://x")).rejects.toMatchObject({ kind: "unsupported" });
    await expect(server.setLogLevel("info")).rejects.toMatchObject({ kind: "unsupported" });
    await expect(server.watch({ resourceSubscriptions: ["mem://x"] })).rejects.toMatchObject({ kind: "unsupported" });
    expect(raw.lines.length).toBe(count);
  });

  it("watches in the legacy way: resources/subscribe for each resource, list changes as the server declares them, unsubscribe on close", async () => {
    const { raw, server } = await setup({ init: { capabilities: { tools: { listChanged: true }, prompts: {}, resources: { subscribe: true } } } });
    raw.handle("resources/subscribe", () => ({}));
    raw.handle("resources/unsubscribe", () => ({}));
    const watch = await server.watch({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["mem://a", "mem://b"] });
    expect(watch.honoured).toEqual({ toolsListChanged: true, resourceSubscriptions: ["mem://a", "mem://b"] });
    await watch.close();
    const sent = (raw.messages as Array<{ method?: string; params?: { uri?: string } }>).filter((m) => m.method?.startsWith("resources/") === true);
    expect(sent.map((m) => `${m.method} ${m.params?.uri}`)).toEqual([
      "resources/subscribe mem://a",
      "resources/subscribe mem://b",
      "resources/unsubscribe mem://a",
      "resources/unsubscribe mem://b",
    ]);
    expect(await watch.ended).toBeUndefined();
  });

  it("walks every page, and stops on a repeated cursor", async () => {
    const { raw, server } = await setup();
    raw.handle("tools/list", (m) => {
      const cursor = (m.params as { cursor?: string } | undefined)?.cursor;
      const page = cursor === undefined ? 0 : Number(cursor);
      const tools = [{ name: `t${page}`, inputSchema: { type: "object" } }];
      return page < 2 ? { tools, nextCursor: String(page + 1) } : { tools };
    });
    expect((await server.listTools()).map((t) => t.name)).toEqual(["t0", "t1", "t2"]);
    const page = await server.listToolsPage("1");
    expect(page).toEqual({ tools: [{ name: "t1", inputSchema: { type: "object" } }], nextCursor: "2" });
    raw.handle("prompts/list", () => ({ prompts: [{ name: "p" }], nextCursor: "same" }));
    await expect(server.listPrompts()).rejects.toMatchObject({ kind: "protocol", serverId: "raw" });
  });

  it("drops list entries it cannot use, and logs them", async () => {
    const { raw, server, logger } = await setup();
    raw.handle("tools/list", () => ({ tools: [{ name: "ok", inputSchema: { type: "object" } }, { name: 5 }, "x", { name: "noschema" }] }));
    expect((await server.listTools()).map((t) => t.name)).toEqual(["ok"]);
    expect(logger.warnings("dropped entry")).toHaveLength(3);
  });
});
