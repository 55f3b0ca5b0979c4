// How a connection ends. `close()` is graceful and idempotent: every caller, the second one
// included, resolves only once the end has really happened (stdio: the server's process is
// gone), and until then the server's id stays taken. `destroy()` ends at once. The bounds of
// connecting and closing are honoured as given: an aborted signal starts nothing, a connect
// timeout is not stretched by the close grace period, and a grace period too long for a Node
// timer is not cut to nothing.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { Client, ClientError, type ConnectOptions, type ServerHandle } from "../../src/node.js";
import { failure } from "../helpers/http-requests.js";
import { capturingLogger } from "../helpers/logger.js";
import { isProcessAlive, startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

function newClient(): Client {
  return track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
}

async function rawServer(): Promise<RawStdioServer> {
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  return raw;
}

/** A server that outlives the end of its stdin and SIGTERM, until the test tells it to exit. */
async function lingering(
  client: Client,
  options: ConnectOptions = { closeGracePeriod: 60_000 },
): Promise<{ raw: RawStdioServer; server: ServerHandle; pid: number }> {
  const raw = await rawServer();
  const server = await client.connect("s", raw.target, options);
  await raw.ignoreSigterm();
  return { raw, server, pid: raw.pid! };
}

describe.skipIf(process.platform === "win32")("close()", () => {
  it("a second close() resolves only once the server's process is gone; the id is taken until then", async () => {
    const client = newClient();
    const { raw, server, pid } = await lingering(client);
    const next = await rawServer();
    const first = server.close();
    await raw.stdinEnded;
    const second = server.close().then(() => ({ alive: isProcessAlive(pid) }));
    await expect(client.connect("s", next.target)).rejects.toMatchObject({ kind: "usage" });
    await raw.exit(0);
    expect(await second).toEqual({ alive: false });
    await first;
    expect((await client.connect("s", next.target)).state).toBe("ready");
  });

  it("client.close() during a server's close resolves only once that server's process is gone", async () => {
    const client = newClient();
    const { raw, server, pid } = await lingering(client);
    const first = server.close();
    await raw.stdinEnded;
    const all = client.close().then(() => ({ alive: isProcessAlive(pid) }));
    await raw.exit(0);
    expect(await all).toEqual({ alive: false });
    await first;
  });

  it("the handle is closing while its close is under way, and closed after", async () => {
    const client = newClient();
    const { raw, server } = await lingering(client);
    const closing = server.close();
    await raw.stdinEnded;
    expect(server.state).toBe("closing");
    await raw.exit(0);
    await closing;
    expect(server.state).toBe("closed");
  });

  it.each([Infinity, 3e9])("closeGracePeriod %s is honoured: no signal on a timer, no TimeoutOverflowWarning", async (grace) => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on("warning", onWarning);
    track({ close: () => Promise.resolve(void process.off("warning", onWarning)) });
    const { raw, server } = await lingering(newClient(), { closeGracePeriod: grace });
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    // Whether the relay heard its stdin end, or was killed before it could say so.
    const heardEnd = await raw.stdinEnded.then(
      () => true,
      () => false,
    );
    expect(warnings.filter((w) => w.name === "TimeoutOverflowWarning")).toEqual([]);
    expect(heardEnd).toBe(true);
    // The relay still answers: it was not killed, and close() cannot be over while it runs.
    const ack = await raw.stderr("still here\n");
    expect(ack.ok).toBe(true);
    expect(raw.signals).toEqual([]);
    expect(closed).toBe(false);
    // The server's own exit ends the close.
    await raw.exit(0);
    await closing;
    expect(raw.signals).toEqual([]);
  });
});

describe.skipIf(process.platform === "win32")("destroy()", () => {
  it("server.destroy(reason) kills the server at once and fails pending calls with the reason", async () => {
    const client = newClient();
    const { raw, server, pid } = await lingering(client);
    const call = server.callTool("t").catch((error: unknown) => error);
    await raw.next("tools/call");
    await server.destroy(new ClientError("transport", "the host gave up on this server"));
    expect(await call).toMatchObject({ kind: "transport", message: "the host gave up on this server" });
    expect(client.server("s")).toBeUndefined();
    // The relay is gone when its control socket closes; a SIGTERM it would ignore, a kill it would not.
    await raw.exited;
    expect(isProcessAlive(pid)).toBe(false);
  });

  it("client.destroy(reason) with a reason that is no ClientError fails pending calls with closed", async () => {
    const client = newClient();
    const { raw, server, pid } = await lingering(client);
    const call = server.callTool("t").catch((error: unknown) => error);
    await raw.next("tools/call");
    await client.destroy(new Error("shutting down"));
    expect(await call).toMatchObject({ kind: "closed" });
    // The relay is gone when its control socket closes; a SIGTERM it would ignore, a kill it would not.
    await raw.exited;
    expect(isProcessAlive(pid)).toBe(false);
  });
});

describe("connecting", () => {
  it("does not start the server when the signal is already aborted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conduit-spawn-"));
    track({ close: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) });
    const marker = join(dir, "started");
    // A server that leaves a mark as soon as it runs, and does not leave on stdin's end.
    const target = { command: process.execPath, args: ["-e", "require('node:fs').writeFileSync(process.argv[1], 'x'); setInterval(() => {}, 1000)", marker] };
    const controller = new AbortController();
    controller.abort(new Error("not wanted after all"));
    const error = await failure(newClient().connect("s", target, { signal: controller.signal }));
    expect(error.kind).toBe("cancelled");
    expect(existsSync(marker)).toBe(false);
  });

  it.skipIf(process.platform === "win32")("rejects with timeout when connectTimeout passes, without waiting for the close grace period", async () => {
    const raw = track(await startRawStdio());
    // Neither the probe nor initialize is ever answered.
    raw.handle("server/discover", () => undefined);
    const client = newClient();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const started = performance.now();
    let settledAfter: number | undefined;
    const connecting = client.connect("s", raw.target, { connectTimeout: 2000, closeGracePeriod: 10_000 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    void connecting.then(() => {
      settledAfter = performance.now() - started;
    });
    await raw.stayAfterStdinEnd();
    await raw.next("server/discover");
    // Fake time moves in small steps; real I/O (the process ending) runs between them.
    for (let step = 0; settledAfter === undefined && step < 3000; step++) {
      await vi.advanceTimersByTimeAsync(10);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await connecting).toMatchObject({ kind: "timeout" });
    expect(settledAfter).toBeGreaterThanOrEqual(2000);
    expect(settledAfter).toBeLessThan(2000 + 10_000);
    // Whatever of the server the failed connect still ends, it ends once the server is gone.
    await raw.exit(0);
    let closed = false;
    void client.close().then(() => {
      closed = true;
    });
    for (let step = 0; !closed && step < 3000; step++) {
      await vi.advanceTimersByTimeAsync(10);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(closed).toBe(true);
  });
});
