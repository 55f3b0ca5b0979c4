// Servers that fail come back: a stdio server killed mid-session is restarted (both eras), a
// crash loop is given up on, an HTTP server taken down and brought back is reconnected; every
// change reaches onServerState with its reason; the catalog keeps a restarting server's tools.
// Lazy servers connect on their first use, and one whose connect failed waits out the backoff.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, restartPolicy } from "../../src/restart-policy.js";
import { Client, ClientError, type ServerStateChange } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";
import { OFFICIAL_SERVER, spawnHttpServer, type HttpServerProcess } from "../helpers/official.js";

const dir = mkdtempSync(join(tmpdir(), "conduit-restart-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** An official server over stdio that counts its starts in a file of its own. */
function mortal(era: "legacy" | "modern", extra: string[] = []): { target: { command: string; args: string[] }; starts: () => number; file: string } {
  const file = join(dir, `starts-${files++}`);
  writeFileSync(file, "");
  return {
    target: { command: process.execPath, args: [OFFICIAL_SERVER, "stdio", "--era", era, "--starts", file, ...extra] },
    starts: () => readFileSync(file, "utf8").split("\n").filter(Boolean).length,
    file,
  };
}

/** Every state change, and a way to wait for the next change to a state. */
function watchStates(client: Client): { changes: ServerStateChange[]; next: (state: ServerStateChange["state"]) => Promise<ServerStateChange> } {
  const changes: ServerStateChange[] = [];
  const waiting: Array<{ state: string; resolve: (change: ServerStateChange) => void }> = [];
  client.onServerState((change) => {
    changes.push(change);
    for (const waiter of [...waiting]) {
      if (waiter.state !== change.state) continue;
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(change);
    }
  });
  return { changes, next: (state) => new Promise((resolve) => waiting.push({ state, resolve })) };
}

afterEach(() => vi.useRealTimers());

const FAST = { backoff: { initial: 20, max: 100 } };
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe("restarts", () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`brings back a ${era} stdio server killed mid-session; the call in flight fails and is not sent again`, async () => {
      const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
      const states = watchStates(client);
      const { target, starts } = mortal(era);
      const server = await client.connect("m", target, { restart: FAST });
      expect(server.era).toBe(era);
      const pid = Number(textOf(await server.callTool("pid")));
      const inFlight = server.callTool("slow", { ms: 60_000, steps: 1 });
      const failure = inFlight.catch((error: unknown) => error);
      const ready = states.next("ready");
      process.kill(pid, "SIGKILL");
      expect(await failure).toMatchObject({ kind: "transport", serverId: "m" });
      await ready;
      const after = Number(textOf(await server.callTool("pid")));
      expect(after).not.toBe(pid);
      expect(starts()).toBe(2);
      expect(server.state).toBe("ready");
      expect(client.server("m")).toBe(server);
      const seen = states.changes.map((change) => change.state);
      expect(seen).toEqual(["connecting", "ready", "restarting", "connecting", "ready"]);
      const restarting = states.changes[2]!;
      expect(restarting).toMatchObject({ serverId: "m", attempt: 1, reason: { kind: "transport" } });
      expect(restarting.delayMs).toBeGreaterThanOrEqual(10);
      expect(restarting.delayMs).toBeLessThanOrEqual(20);
    });
  }

  for (const era of ["legacy", "modern"] as const) {
    it(`asks a restarted ${era} server for the log level the host set`, async () => {
      const levels: string[] = [];
      const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), handler: { handleLog: (level) => void levels.push(level) } }));
      const states = watchStates(client);
      const server = await client.connect("m", mortal(era).target, { restart: FAST });
      await server.setLogLevel("error");
      const ready = states.next("ready");
      process.kill(Number(textOf(await server.callTool("pid"))), "SIGKILL");
      await ready;
      await server.callTool("log", { count: 1, level: "info" });
      await server.callTool("log", { count: 1, level: "error" });
      await client.notificationsSettled();
      expect(levels).toEqual(["error"]);
    });
  }

  it("makes a list asked for while the server restarts wait for it", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    const { target } = mortal("legacy");
    const server = await client.connect("m", target, { restart: { backoff: { initial: 200, max: 200 } } });
    const pid = Number(textOf(await server.callTool("pid")));
    const restarting = states.next("restarting");
    process.kill(pid, "SIGKILL");
    await restarting;
    expect(server.state).toBe("restarting");
    // Asked with no connection at all: it waits for the new one.
    const tools = await server.listTools();
    expect(tools.map((tool) => tool.name)).toContain("pid");
    expect(Number(textOf(await server.callTool("pid")))).not.toBe(pid);
  });

  it("gives up on a crash loop and says so", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    const { target, starts } = mortal("legacy", ["--healthy-starts", "1"]);
    const server = await client.connect("m", target, { restart: { maxRestarts: 3, backoff: { initial: 10, max: 40 } } });
    const failed = states.next("failed");
    process.kill(Number(textOf(await server.callTool("pid"))), "SIGKILL");
    const end = await failed;
    expect(end.reason).toBeInstanceOf(ClientError);
    expect(end.reason).toMatchObject({ kind: "transport", serverId: "m", data: { restarts: 3 } });
    expect(end.reason!.message).toMatch(/is not restarted again: it broke after 3 restarts in a row/);
    expect(starts()).toBe(4);
    expect(states.changes.filter((change) => change.state === "restarting").map((change) => change.attempt)).toEqual([1, 2, 3]);
    expect(await server.closed).toBe(end.reason);
    expect(server.state).toBe("failed");
    expect(client.server("m")).toBeUndefined();
    await expect(server.listTools()).rejects.toMatchObject({ kind: "closed", serverId: "m" });
    // The id is free again.
    const again = await client.connect("m", mortal("legacy").target);
    expect(again.state).toBe("ready");
  });

  it("without restarts, a server that breaks has failed, and one the host closes is closed", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    const broken = await client.connect("broken", mortal("legacy").target);
    const failed = states.next("failed");
    process.kill(Number(textOf(await broken.callTool("pid"))), "SIGKILL");
    expect(await failed).toMatchObject({ serverId: "broken", reason: { kind: "transport" } });
    const closing = await client.connect("closing", mortal("legacy").target);
    await closing.close();
    const ends = states.changes.filter((change) => change.serverId === "closing").map((change) => change.state);
    expect(ends).toEqual(["connecting", "ready", "closing", "closed"]);
    expect(await closing.closed).toBeUndefined();
  });

  it("reconnects an HTTP server taken down and brought back", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    let http: HttpServerProcess = await spawnHttpServer([OFFICIAL_SERVER, "http", "--era", "legacy"]);
    try {
      const server = await client.connect("web", { url: http.url }, { restart: { maxRestarts: 50, backoff: { initial: 20, max: 100 } } });
      expect(textOf(await server.callTool("echo", { text: "before" }))).toBe("before");
      await http.close();
      const restarting = states.next("restarting");
      // A socket the pool still held may meet a reset first, which fails its call alone; the first
      // request that is refused ends the connection. Neither is sent again. The pool holds a few
      // sockets at most, so a few calls reach the refusal.
      for (let call = 0; call < 10 && server.state === "ready"; call++) {
        await expect(server.callTool("echo", { text: "lost" })).rejects.toMatchObject({ kind: "transport", serverId: "web" });
      }
      await restarting;
      const ready = states.next("ready");
      http = await spawnHttpServer([OFFICIAL_SERVER, "http", "--era", "legacy", "--port", new URL(http.url).port]);
      await ready;
      expect(textOf(await server.callTool("echo", { text: "after" }))).toBe("after");
      expect(states.changes.filter((change) => change.state === "restarting").length).toBeGreaterThanOrEqual(1);
    } finally {
      await http.close();
    }
  });

  it("counts attempts again once the server stayed up stableAfter", async () => {
    // Only the monotonic clock is faked: the servers run on real timers.
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
      const states = watchStates(client);
      const server = await client.connect("m", mortal("legacy").target, { restart: { stableAfter: 10_000, backoff: { initial: 10, max: 10 } } });
      const attempts: number[] = [];
      for (const upFor of [0, 0, 10_000]) {
        const restarting = states.next("restarting");
        const ready = states.next("ready");
        vi.advanceTimersByTime(upFor);
        process.kill(Number(textOf(await server.callTool("pid"))), "SIGKILL");
        attempts.push((await restarting).attempt!);
        await ready;
      }
      // Up for less than stableAfter: the second break is the second attempt in a row; up for it: the first again.
      expect(attempts).toEqual([1, 2, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("backs off exponentially with equal jitter, within the bounds", () => {
    const policy = restartPolicy({ backoff: { initial: 100, max: 1_000, factor: 3 } })!;
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(policy, attempt, () => 1))).toEqual([100, 300, 900, 1_000]);
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(policy, attempt, () => 0))).toEqual([50, 150, 450, 500]);
    expect(restartPolicy(true)).toMatchObject({ maxRestarts: 5, initial: 500, max: 30_000, factor: 2, stableAfter: 60_000 });
    expect(restartPolicy(false)).toBeUndefined();
  });

  it("refuses restart options out of bounds before any I/O", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const { target, starts } = mortal("legacy");
    for (const restart of [{ maxRestarts: -1 }, { maxRestarts: 1.5 }, { backoff: { initial: 0 } }, { backoff: { max: 2 ** 31 } }, { backoff: { factor: 0.5 } }, { backoff: { initial: 10, max: 5 } }, { tries: 3 }, "yes"]) {
      await expect(client.connect("m", target, { restart: restart as never })).rejects.toThrow(TypeError);
    }
    await expect(client.connect("m", target, { lazy: "yes" as never })).rejects.toThrow(TypeError);
    expect(starts()).toBe(0);
  });
});

describe("lazy servers", () => {
  it("connect on their first use: a request, or the catalog", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    const a = mortal("legacy");
    const b = mortal("modern");
    const { ready, lazy, failed } = await client.connectAll({ mcpServers: { a: a.target, b: b.target } }, { lazy: true });
    expect({ ready, failed }).toEqual({ ready: [], failed: [] });
    expect(lazy.map((server) => [server.id, server.state])).toEqual([["a", "idle"], ["b", "idle"]]);
    expect(a.starts() + b.starts()).toBe(0);
    expect(states.changes).toEqual([]);
    expect(client.servers()).toEqual([]);
    const handle = client.server("a")!;
    expect(handle.state).toBe("idle");
    expect(handle.era).toBeUndefined();
    expect(handle.stats().staleResponses).toBe(0);
    // A request connects it.
    expect(textOf(await handle.callTool("echo", { text: "hi" }))).toBe("hi");
    expect([a.starts(), b.starts()]).toEqual([1, 0]);
    // The catalog connects the rest.
    const tools = await client.tools();
    expect(b.starts()).toBe(1);
    expect(new Set(tools.map((tool) => tool.serverId))).toEqual(new Set(["a", "b"]));
    expect(client.server("b")!.era).toBe("modern");
  });

  it("go back to idle when the first connect fails, and are tried again with the restart backoff, not on every use", async () => {
    // Only the monotonic clock is faked, before the client exists: the servers run on real timers.
    vi.useFakeTimers({ toFake: ["performance"] });
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    // Its first two starts crash; once the file is emptied, the next start is healthy.
    const { target, starts, file } = mortal("legacy", ["--healthy-starts", "1"]);
    writeFileSync(file, "0\n");
    const server = await client.connect("m", target, { lazy: true, restart: { backoff: { initial: 1_000, max: 4_000 } } });
    const idle = states.next("idle");
    const first = (await server.listTools().catch((error: unknown) => error)) as ClientError;
    expect(first).toMatchObject({ kind: "transport", serverId: "m" });
    expect(server.state).toBe("idle");
    const back = await idle;
    expect(back).toMatchObject({ attempt: 1, reason: { kind: "transport" } });
    expect(back.delayMs).toBeGreaterThanOrEqual(500);
    expect(back.delayMs).toBeLessThanOrEqual(1_000);
    expect(starts()).toBe(2);

    // Within the delay every use fails at once with the last error, saying when it will connect.
    vi.advanceTimersByTime(back.delayMs! - 1);
    const held = (await server.callTool("pid").catch((error: unknown) => error)) as ClientError;
    expect(held).toMatchObject({ kind: "transport", serverId: "m", cause: { kind: "transport" } });
    expect(held.message).toContain(first.message);
    expect(held.message).toMatch(/failed to connect once; a use in 1 ms or later connects again/);
    await expect(server.ready()).rejects.toMatchObject({ kind: "transport" });
    expect(await client.tools()).toEqual([]);
    await expect(client.callTool("m_pid")).rejects.toMatchObject({ kind: "transport", serverId: "m" });
    expect(starts()).toBe(2);

    // Once it passed, the next use connects again: it fails again, and the next delay doubles.
    vi.advanceTimersByTime(1);
    const idleAgain = states.next("idle");
    await expect(server.listTools()).rejects.toMatchObject({ kind: "transport" });
    const again = await idleAgain;
    expect(again.attempt).toBe(2);
    expect(again.delayMs).toBeGreaterThanOrEqual(1_000);
    expect(again.delayMs).toBeLessThanOrEqual(2_000);
    expect(starts()).toBe(3);
    await expect(server.listTools()).rejects.toThrow(/failed to connect 2 times in a row/);

    // The server can start now: after the delay the next use connects, and stays connected.
    writeFileSync(file, "");
    vi.advanceTimersByTime(again.delayMs!);
    expect(textOf(await server.callTool("echo", { text: "up" }))).toBe("up");
    expect(server.state).toBe("ready");
    expect(starts()).toBe(1);
    await server.close();
    expect(server.state).toBe("closed");
    expect(client.server("m")).toBeUndefined();
  });

  it("without a restart option, wait out the restart defaults' backoff after a failed connect", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    const { target, starts } = mortal("legacy", ["--healthy-starts", "0"]);
    const server = await client.connect("m", target, { lazy: true });
    const idle = states.next("idle");
    await expect(server.listTools()).rejects.toMatchObject({ kind: "transport" });
    const back = await idle;
    // RESTART_DEFAULTS: 500 ms at first, of which up to half is taken off.
    expect(back.delayMs).toBeGreaterThanOrEqual(250);
    expect(back.delayMs).toBeLessThanOrEqual(500);
    await expect(server.listTools()).rejects.toThrow(/connects again/);
    expect(starts()).toBe(1);
    vi.advanceTimersByTime(back.delayMs!);
    await expect(server.listTools()).rejects.toMatchObject({ kind: "transport" });
    expect(starts()).toBe(2);
  });
});

describe("what a review found", () => {
  it("a lazy server's first call of a tool that runs as a task follows the task (modern)", async () => {
    const research = fileURLToPath(new URL("../../examples/servers/research-server.mjs", import.meta.url));
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), handler: { handleElicitation: () => ({ action: "accept", content: { angle: "history" } }) } }));
    const server = await client.connect("r", { command: process.execPath, args: [research] }, { lazy: true });
    const result = await server.callTool("research", { topic: "tides" });
    expect(result.content).toEqual([expect.objectContaining({ type: "text", text: expect.stringContaining("tides") })]);
    expect(server.era).toBe("modern");
  });

  it("a close heard on 'connecting' ends a lazy connect: the server is closed, never ready", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    const { target } = mortal("legacy");
    const server = await client.connect("m", target, { lazy: true });
    let closing: Promise<void> | undefined;
    client.onServerState(({ state }) => {
      if (state === "connecting") closing ??= server.close();
    });
    await expect(server.listTools()).rejects.toMatchObject({ serverId: "m" });
    await closing;
    expect(server.state).toBe("closed");
    expect(states.changes.map((change) => change.state)).not.toContain("ready");
    await expect(server.callTool("pid")).rejects.toMatchObject({ kind: "closed" });
  });

  it("a request with an aborted signal neither waits for a lazy server nor connects it", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const { target, starts } = mortal("legacy");
    const server = await client.connect("m", target, { lazy: true });
    await expect(server.callTool("pid", {}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: "cancelled", serverId: "m" });
    expect(server.state).toBe("idle");
    expect(starts()).toBe(0);
  });

  it("the catalog keeps a restarting server's tools, marked, and its callTool waits for the server", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    // Every restart crashes until the test empties the file: the server stays away meanwhile.
    const { target, file } = mortal("legacy", ["--healthy-starts", "1"]);
    const server = await client.connect("m", target, { restart: { maxRestarts: 10_000, backoff: { initial: 10, max: 20 } } });
    await client.connect("other", mortal("modern").target);
    const before = await client.tools();
    const ofM = before.filter((tool) => tool.serverId === "m");
    expect(ofM.map((tool) => tool.qualifiedName)).toContain("m_echo");
    for (const tool of before) expect(tool).not.toHaveProperty("restarting");
    const restarting = states.next("restarting");
    process.kill(Number(textOf(await client.callTool("m_pid"))), "SIGKILL");
    await restarting;
    expect(["restarting", "connecting"]).toContain(server.state);

    const during = await client.tools();
    expect(during.map((tool) => tool.qualifiedName)).toEqual(before.map((tool) => tool.qualifiedName));
    for (const tool of during) {
      if (tool.serverId === "m") expect(tool.restarting).toBe(true);
      else expect(tool).not.toHaveProperty("restarting");
    }
    // The call waits for the server, which comes back once it can start.
    const call = client.callTool("m_echo", { text: "after the restart" });
    const ready = states.next("ready");
    writeFileSync(file, "");
    await ready;
    expect(textOf(await call)).toBe("after the restart");
    const after = await client.tools();
    expect(after.map((tool) => tool.qualifiedName)).toEqual(before.map((tool) => tool.qualifiedName));
    for (const tool of after) expect(tool).not.toHaveProperty("restarting");
  });

  it("the catalog's callTool waits for a server that restarts", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const states = watchStates(client);
    const server = await client.connect("m", mortal("legacy").target, { restart: { backoff: { initial: 200, max: 200 } } });
    await client.tools();
    const restarting = states.next("restarting");
    process.kill(Number(textOf(await client.callTool("m_pid"))), "SIGKILL");
    await restarting;
    expect(server.state).toBe("restarting");
    expect(textOf(await client.callTool("m_echo", { text: "after the restart" }))).toBe("after the restart");
  });
});
