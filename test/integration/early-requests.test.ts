// Server requests that arrive while a connection is not ready: before negotiation has settled
// the era, nothing is answered (a modern server must get no response at all, not even to a
// `ping`); while the connection closes, a request is not taken for one that came too early.
import { describe, expect, it } from "vitest";
import { Client } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const DISCOVERED = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: "private",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "1" } },
};

describe("before negotiation has settled the era", () => {
  it("a ping the server sends while server/discover is pending gets no answer once the server turns out modern", async () => {
    const raw = track(await startRawStdio());
    // The ping goes out first, then the answer to the probe, on the same pipe.
    raw.handle("server/discover", () => {
      void raw.send({ jsonrpc: "2.0", id: "early-ping", method: "ping" });
      return DISCOVERED;
    });
    raw.handle("tools/call", () => ({ resultType: "complete", content: [] }));
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger() }));
    const server = await client.connect("m", raw.target);
    expect(server.era).toBe("modern");
    // Any answer to the ping was written before this call, on the same pipe.
    await server.callTool("t");
    expect(raw.messages.filter((m) => (m as RpcMessage).id === "early-ping")).toEqual([]);
  });
});

describe("while the connection closes", () => {
  it("a server request is not logged as one sent before the connection was negotiated", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const logger = capturingLogger();
    const client = track(new Client({ name: "h", version: "0", logger, handler: { listRoots: () => ({ roots: [] }) } }));
    const server = await client.connect("s", raw.target, { closeGracePeriod: 60_000 });
    await raw.stayAfterStdinEnd();
    const closing = server.close();
    await raw.stdinEnded;
    await raw.send({ jsonrpc: "2.0", id: "late-1", method: "roots/list" });
    // The request was written before the server left; the close ends with the server.
    await raw.exit(0);
    await closing;
    expect(logger.entries.filter((e) => e.message.includes("before the connection was negotiated"))).toEqual([]);
  });
});
