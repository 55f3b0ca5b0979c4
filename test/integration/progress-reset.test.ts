// resetTimeoutOnProgress on its own, without onProgress: the request carries a progress token
// (else the server has nothing to report progress against), and each progress the server sends
// restarts the deadline. Over a raw stdio server in both eras, on a fake clock: the call lasts
// more than twice its timeout and still ends with the server's answer.
import { describe, expect, it, vi } from "vitest";
import { Client, type ServerHandle } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio, type RawStdioServer } from "../helpers/raw-stdio.js";
import { TASKS_EXTENSION } from "../helpers/modern-tasks.js";
import { track } from "../helpers/cleanup.js";

const fake = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });

const MODERN = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-modern", version: "1" } },
};

async function setup(era: "legacy" | "modern"): Promise<{ raw: RawStdioServer; server: ServerHandle }> {
  const raw = track(await startRawStdio());
  if (era === "legacy") raw.autoInitialize();
  else raw.handle("server/discover", () => MODERN);
  raw.handle("tools/list", () => (era === "legacy" ? { tools: [] } : { resultType: "complete", tools: [] }));
  // Fakes come before the client: its one deadline timer is armed on the clock of its making.
  fake();
  const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
  const server = await client.connect("raw", raw.target);
  return { raw, server };
}

describe.each(["legacy", "modern"] as const)("resetTimeoutOnProgress without onProgress (%s)", (era) => {
  it("sends a progress token and restarts the deadline on each progress: a call three times its timeout ends with the answer", async () => {
    const { raw, server } = await setup(era);
    let settled = false;
    const call = server.callTool("slow", {}, { timeout: 1000, resetTimeoutOnProgress: true }).finally(() => (settled = true));
    const outcome = call.catch((e: unknown) => e);
    const request = await raw.next("tools/call");
    const token = (request.params?.["_meta"] as { progressToken?: unknown } | undefined)?.progressToken;
    expect(typeof token).toBe("number");
    for (let i = 1; i <= 3; i++) {
      await vi.advanceTimersByTimeAsync(800);
      await raw.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: i } });
      // A round trip over the one pipe: the progress before it has been read.
      await server.listTools();
    }
    // 2 400 ms have passed, more than twice the timeout: the call is still waiting.
    expect(settled).toBe(false);
    const result = era === "legacy" ? { content: [{ type: "text", text: "done" }] } : { resultType: "complete", content: [{ type: "text", text: "done" }] };
    await raw.send({ jsonrpc: "2.0", id: request.id, result });
    expect(await outcome).toMatchObject({ content: [{ type: "text", text: "done" }] });
    expect(server.stats().strayProgress).toBe(0);
  });

  it("still times out when no progress comes", async () => {
    const { raw, server } = await setup(era);
    const outcome = server.callTool("slow", {}, { timeout: 1000, resetTimeoutOnProgress: true }).catch((e: unknown) => e);
    await raw.next("tools/call");
    await vi.advanceTimersByTimeAsync(1000);
    expect(await outcome).toMatchObject({ kind: "timeout" });
  });
});
