// A legacy server request is answered exactly once, whatever the Handler returns: an answer that
// passes the checks but cannot be put on the wire (a BigInt in it) is an internal error, and the
// server hears -32603 instead of nothing at all.
import { describe, expect, it } from "vitest";
import { Client, type CreateMessageResult } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

describe("a Handler answer that cannot be serialised", () => {
  it("gets the legacy server a -32603 error response", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    const unserialisable = {
      role: "assistant",
      content: { type: "text", text: "hello" },
      model: "m",
      usage: { tokens: 1n },
    } as unknown as CreateMessageResult;
    const client = track(
      new Client({ name: "h", version: "0", logger: capturingLogger(), sampling: { allowIdle: true }, handler: { handleSampling: () => unserialisable } }),
    );
    await client.connect("s", raw.target);
    await raw.send({
      jsonrpc: "2.0",
      id: "sample-1",
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 },
    });
    const answer = await raw.next((m) => m.id === "sample-1" && m.method === undefined);
    expect(answer.result).toBeUndefined();
    expect(answer.error?.code).toBe(-32603);
  });
});

describe("a modern Handler answer that cannot be serialised", () => {
  it("ends the call with input_handler and sends nothing more", async () => {
    const raw = track(await startRawStdio());
    raw.handle("server/discover", () => ({ resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } }));
    raw.handle("tools/call", () => ({
      resultType: "input_required",
      inputRequests: { s: { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 } } },
    }));
    const unserialisable = { role: "assistant", content: { type: "text", text: "hello" }, model: "m", usage: { tokens: 1n } } as unknown as CreateMessageResult;
    const client = track(new Client({ name: "h", version: "0", logger: capturingLogger(), handler: { handleSampling: () => unserialisable } }));
    const server = await client.connect("m", raw.target);
    raw.handle("tools/list", () => ({ resultType: "complete", tools: [] }));
    await expect(server.callTool("t")).rejects.toMatchObject({ kind: "input_handler", serverId: "m" });
    // A round trip on the same pipe: had the retry gone out, it would have come before it.
    await server.listTools();
    // One tools/call went out, and no retry with the answer.
    expect(raw.messages.filter((m) => (m as { method?: string }).method === "tools/call")).toHaveLength(1);
  });
});
