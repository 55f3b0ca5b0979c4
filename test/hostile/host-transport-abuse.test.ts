// A host's own transport (issue 25) carrying what a hostile peer sends: an object far over
// maxMessageBytes, one nested past the depth bound, a value that is not JSON, and a message the
// sender rewrites after handing it over. The in-process server is the official library's, over
// its in-memory pair: the channel is the host's, the checks are Conduit's.
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { Client, MAX_CHANNEL_DEPTH, type ChannelSink, type Transport } from "../../src/node.js";
import { count, safetyRow } from "./safety.js";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((each) => each.close()));
});

async function connected(maxMessageBytes?: number): Promise<{ sink: ChannelSink; server: Awaited<ReturnType<Client["connect"]>> }> {
  const mcp = new McpServer({ name: "in-memory", version: "1.0.0" }, { capabilities: { tools: {} } });
  mcp.registerTool("ping-tool", { description: "Answers pong" }, () => ({ content: [{ type: "text" as const, text: "pong" }] }));
  const [mine, theirs] = InMemoryTransport.createLinkedPair();
  await mcp.connect(theirs);
  const tap: { sink?: ChannelSink } = {};
  const transport: Transport = {
    start: async (sink) => {
      tap.sink = sink;
      mine.onmessage = (message) => sink.message(message);
      mine.onclose = () => sink.closed();
      await (mine).start();
    },
    send: (message) => mine.send(message as never),
    close: () => mine.close(),
  };
  const client = new Client({ name: "hostile-channel", version: "1.0.0" });
  clients.push(client);
  const server = await client.connect("memory", { transport }, maxMessageBytes === undefined ? {} : { maxMessageBytes });
  return { sink: tap.sink!, server };
}

describe("a host's transport delivering hostile messages", () => {
  it("ends the connection on an object over maxMessageBytes or nested past the bound, after walking no more than the bound", async (context) => {
    const big = await connected(1_048_576);
    big.sink.message({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: ["x".repeat(1_000), ...Array.from({ length: 100_000 }, () => "y".repeat(100))] } });
    expect(await big.server.closed).toMatchObject({ kind: "transport", message: expect.stringMatching(/more than maxMessageBytes \(1048576 bytes\)/) });
    const deep = await connected();
    let nested: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) nested = { inner: nested };
    deep.sink.message({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: nested } });
    expect(await deep.server.closed).toMatchObject({ kind: "transport", message: expect.stringMatching(new RegExp(`nested deeper than ${MAX_CHANNEL_DEPTH}`)) });
    safetyRow(context, {
      area: "Protocol abuse",
      tried: `a host's transport hands over an object of 10 MB and one nested ${count(100_000)} deep`,
      over: "a host's transport",
      outcome: `each ends its connection with a \`"transport"\` error naming the bound (maxMessageBytes, depth ${MAX_CHANNEL_DEPTH}); no stack overflow, nothing serialised to measure it`,
    });
  });

  it("takes a Map as a parse error and goes on, and ends the connection on a cycle at the depth bound", async (context) => {
    const odd = await connected();
    odd.sink.message(new Map([["jsonrpc", "2.0"]]));
    expect(odd.server.state).toBe("ready");
    expect((await odd.server.callTool("ping-tool", {})).content).toEqual([{ type: "text", text: "pong" }]);
    const looped = await connected();
    const cyclic: Record<string, unknown> = { jsonrpc: "2.0", method: "notifications/message" };
    cyclic.params = cyclic;
    looped.sink.message(cyclic);
    expect(await looped.server.closed).toMatchObject({ kind: "transport", message: expect.stringMatching(new RegExp(`nested deeper than ${MAX_CHANNEL_DEPTH}`)) });
    safetyRow(context, {
      area: "Protocol abuse",
      tried: "a host's transport hands over a Map, and an object that contains itself",
      over: "a host's transport",
      outcome: `the Map is a parse error and the next call is answered; the cycle ends its connection at the depth bound (${MAX_CHANNEL_DEPTH}), walked no further`,
    });
  });
});
