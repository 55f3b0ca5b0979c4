// What the host hands the client — its logger, `onStderr`, `onProgress`, notification listeners
// and hooks — may throw or reject. None of it may become an uncaught exception or an unhandled
// rejection of the host; the connection keeps working, or ends with a ClientError.
import { describe, expect, it, vi } from "vitest";
import { Client, ClientError, type Handler, type Logger, type NotificationListener, type Progress, type ServerHandle } from "../../src/node.js";
import { capturingLogger, throwingLogger } from "../helpers/logger.js";
import { watchHostFaults } from "../helpers/host-faults.js";
import { startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

async function legacy(options: { logger?: Logger; handler?: Handler; onStderr?: (text: string) => void } = {}): Promise<{
  raw: RawStdioServer;
  client: Client;
  server: ServerHandle;
}> {
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  raw.handle("ping", () => ({}));
  const client = track(new Client({ name: "h", version: "0", logger: options.logger ?? capturingLogger(), handler: options.handler }));
  const server = await client.connect("s", raw.target, options.onStderr === undefined ? {} : { onStderr: options.onStderr });
  return { raw, client, server };
}

/** A ping that either answers or fails with a ClientError: anything else is not a clean end. */
async function pingsOrEndsCleanly(server: ServerHandle): Promise<void> {
  const outcome = await server.ping().then(
    () => undefined,
    (error: unknown) => error,
  );
  if (outcome !== undefined) expect(outcome).toBeInstanceOf(ClientError);
}

describe("stream listeners", () => {
  it("a throw in onStderr stays inside the client", async () => {
    const host = watchHostFaults();
    let calls = 0;
    const { raw, server } = await legacy({
      onStderr: () => {
        calls += 1;
        throw new Error("the host's onStderr failed");
      },
    });
    await raw.stderr("a line for the host\n");
    await vi.waitFor(() => expect(calls).toBeGreaterThan(0));
    await pingsOrEndsCleanly(server);
    expect(host.faults).toEqual([]);
  });

  it("a throwing logger does not escape the listener that reports a server's exit", async () => {
    const host = watchHostFaults();
    const { raw, server } = await legacy({ logger: throwingLogger() });
    await raw.exit(3);
    // Either the handle reports the exit, or the throw escaped: whichever comes first.
    await Promise.race([server.closed, host.first]);
    expect(host.faults).toEqual([]);
    expect(await server.closed).toBeInstanceOf(ClientError);
  });
});

describe("call callbacks", () => {
  it("an onProgress that returns a rejected promise is no unhandled rejection", async () => {
    const host = watchHostFaults();
    const { raw, server } = await legacy();
    raw.handle("tools/call", (m) => {
      const token = (m.params?.["_meta"] as { progressToken?: unknown } | undefined)?.progressToken;
      void raw.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1 } });
      return { content: [] };
    });
    let progress = 0;
    const rejecting = async (): Promise<void> => {
      progress += 1;
      await Promise.resolve();
      throw new Error("the host's onProgress failed");
    };
    // The type asks for a void callback; a host's async one passes anyway.
    await server.callTool("t", {}, { onProgress: rejecting as unknown as (update: Progress) => void });
    // A round trip after the call: a rejection nobody handled has been reported by now.
    await server.ping();
    expect(progress).toBe(1);
    expect(host.faults).toEqual([]);
  });
});

describe("notification listeners and hooks, with a logger that throws too", () => {
  const failure = (): Error => new Error("the host's hook failed");
  /** Each way of hooking in: it records the method it is given, then fails. */
  const WAYS: Array<[string, (seen: string[]) => { handler?: Handler; listener?: NotificationListener }]> = [
    [
      "an onNotification listener that throws",
      (seen) => ({
        listener: (n) => {
          seen.push(n.method);
          throw failure();
        },
      }),
    ],
    [
      "a handleNotification hook that rejects",
      (seen) => ({
        handler: {
          handleNotification: (method) => {
            seen.push(method);
            return Promise.reject(failure());
          },
        },
      }),
    ],
  ];

  it.each(WAYS)("%s neither escapes nor stalls the queue", async (_what, hookIn) => {
    const host = watchHostFaults();
    const seen: string[] = [];
    const { handler, listener } = hookIn(seen);
    const { raw, client, server } = await legacy({ logger: throwingLogger(), handler });
    if (listener !== undefined) client.onNotification(listener);
    for (const method of ["notifications/tools/list_changed", "notifications/prompts/list_changed"]) {
      await raw.send({ jsonrpc: "2.0", method });
      // The ping's answer comes after the notification on the same pipe: it has been read.
      await server.ping();
      // Either the hooks ran, or a fault escaped (and the queue stalls): whichever comes first.
      await Promise.race([client.notificationsSettled(), host.first]);
    }
    expect(host.faults).toEqual([]);
    expect(seen).toEqual(["notifications/tools/list_changed", "notifications/prompts/list_changed"]);
  });
});
