// A transport of the host's own (issue 25): JSON-RPC over a channel Conduit did not make. The
// official server library's in-memory pair and a server process whose pipes the host spawned
// and frames itself; over both, the Handler's checks hold, and what a channel delivers is
// bounded as a pipe's line is.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { InMemoryTransport, McpServer, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { Client, ClientError, type ChannelSink, type Handler, type Transport } from "../../src/node.js";

const OFFICIAL = fileURLToPath(new URL("../fixtures/official-server.mjs", import.meta.url));

type Official = InstanceType<typeof InMemoryTransport>;
type Delivered = Parameters<NonNullable<Official["onmessage"]>>[0];

/** The official in-memory transport as a host would adapt it: a dozen lines. */
function fromOfficial(transport: Official, tap: { sink?: ChannelSink } = {}): Transport {
  return {
    start: async (sink) => {
      tap.sink = sink;
      transport.onmessage = (message) => sink.message(message);
      transport.onclose = () => sink.closed();
      transport.onerror = (error) => sink.closed(error);
      await transport.start();
    },
    send: (message) => transport.send(message as Delivered),
    close: () => transport.close(),
    describe: () => "the in-memory test server",
  };
}

/** A server of the official library in this process: an echo, a form and the client's roots. */
async function officialInMemory(): Promise<{ clientSide: Official; server: McpServer }> {
  const server = new McpServer({ name: "in-memory", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("echo", { description: "Echoes its text", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text" as const, text }] }));
  server.registerTool("roots", { description: "The client's roots" }, (c) => {
    const answer = inputResponse(c.mcpReq.inputResponses, "roots");
    if (answer.kind === "roots") return { content: [{ type: "text", text: JSON.stringify(answer.roots) }] };
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { clientSide, server };
}

/** A host that spawns the server itself and frames its pipes: text in, one line per message. */
function spawnedChannel(args: string[]): Transport & { pid(): number | undefined } {
  let child: ReturnType<typeof spawn> | undefined;
  return {
    pid: () => child?.pid,
    start: (sink) => {
      child = spawn(process.execPath, [OFFICIAL, ...args], { stdio: ["pipe", "pipe", "ignore"] });
      let buffered = "";
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
          sink.message(buffered.slice(0, end));
          buffered = buffered.slice(end + 1);
        }
      });
      child.on("exit", () => sink.closed());
      child.on("error", (error) => sink.closed(error));
    },
    send: (message) => {
      child!.stdin!.write(`${JSON.stringify(message)}\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child === undefined || child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin!.end();
      }),
    describe: () => "the official server on the host's own pipes",
  };
}

const clients: Client[] = [];
function client(handler: Handler = {}): Client {
  const made = new Client({ name: "channel-host", version: "1.0.0", handler });
  clients.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((each) => each.close()));
});

describe("a server over a transport of the host's own", () => {
  it("reaches the official library's in-memory server: negotiates, lists, calls", async () => {
    const { clientSide } = await officialInMemory();
    const server = await client().connect("memory", { transport: fromOfficial(clientSide) });
    expect(server.state).toBe("ready");
    expect(typeof server.protocolVersion).toBe("string");
    expect((await server.listTools()).map((tool) => tool.name).sort()).toEqual(["echo", "roots"]);
    const result = await server.callTool("echo", { text: "over memory" });
    expect(result.content).toEqual([{ type: "text", text: "over memory" }]);
  });

  it("keeps the Handler's checks: roots are filtered over the channel as over a pipe", async () => {
    const { clientSide } = await officialInMemory();
    const handler: Handler = { listRoots: () => ({ roots: [{ uri: "file:///work/project" }, { uri: "https://evil.example/steal" }, { uri: "file:///work/../etc" }] }) };
    const server = await client(handler).connect("memory", { transport: fromOfficial(clientSide) });
    const result = await server.callTool("roots", {});
    const block = result.content[0];
    expect(block?.type).toBe("text");
    const roots = JSON.parse((block as { text: string }).text) as { uri: string }[];
    expect(roots.map((root) => root.uri)).toEqual(["file:///work/project", "file:///etc"]);
  });

  it("works in both eras over a host's framing of a real process's pipes", async () => {
    for (const era of ["legacy", "modern"] as const) {
      const channel = spawnedChannel(["stdio", "--era", era]);
      const server = await client().connect(`pipes-${era}`, { transport: channel });
      expect(server.protocolVersion === "2026-07-28").toBe(era === "modern");
      const result = await server.callTool("echo", { text: era });
      expect(result.content).toEqual([{ type: "text", text: era }]);
      expect(channel.pid()).toBeGreaterThan(0);
    }
  });

  it("makes a fresh transport per connection from a function, and refuses to start one instance twice", async () => {
    let made = 0;
    const first = client();
    const factory = (): Transport => {
      made++;
      return spawnedChannel(["stdio", "--era", "legacy"]);
    };
    await first.connect("a", { transport: factory });
    await first.connect("b", { transport: factory });
    expect(made).toBe(2);
    const once = spawnedChannel(["stdio", "--era", "legacy"]);
    await (await first.connect("c", { transport: once })).close();
    await expect(first.connect("c", { transport: once })).rejects.toMatchObject({ kind: "usage", message: expect.stringMatching(/already started/) });
  });
});

describe("what a host's transport does wrong", () => {
  it("refuses a target whose transport lacks a method, before anything starts", async () => {
    const half = { start: () => undefined, send: () => undefined } as unknown as Transport;
    await expect(client().connect("x", { transport: half })).rejects.toThrow(/needs a `close` method/);
    await expect(client().connect("x", { transport: 42 as unknown as Transport })).rejects.toThrow(/must be a transport/);
  });

  it("turns a start that fails, and a send that throws, into transport errors naming the channel", async () => {
    const failing: Transport = { start: () => Promise.reject(new Error("no route")), send: () => undefined, close: () => undefined, describe: () => "the broken socket" };
    await expect(client().connect("x", { transport: failing })).rejects.toMatchObject({ kind: "transport", message: expect.stringMatching(/the broken socket could not start: no route/) });

    const { clientSide } = await officialInMemory();
    const inner = fromOfficial(clientSide);
    let refuse = false;
    const flaky: Transport = { ...inner, send: (message, id, options) => (refuse ? Promise.reject(new Error("socket is gone")) : inner.send(message, id, options)) };
    const server = await client().connect("flaky", { transport: flaky });
    refuse = true;
    const error = await server.callTool("echo", { text: "x" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ kind: "transport", message: expect.stringMatching(/socket is gone/) });
  });

  it("ends the connection on a message over maxMessageBytes, as text or as an object, and on one nested past the bound", async () => {
    const cases: [string, (sink: ChannelSink) => void, RegExp][] = [
      ["text", (sink) => sink.message(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(70_000) } })), /more than maxMessageBytes \(65536 bytes\)/],
      ["object", (sink) => sink.message({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "é".repeat(40_000) } }), /more than maxMessageBytes \(65536 bytes\)/],
      ["deep", (sink) => sink.message({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: nested(300) } }), /nested deeper than 256/],
    ];
    for (const [name, flood, reason] of cases) {
      const { clientSide } = await officialInMemory();
      const tap: { sink?: ChannelSink } = {};
      const server = await client().connect(name, { transport: fromOfficial(clientSide, tap) }, { maxMessageBytes: 65_536 });
      flood(tap.sink!);
      expect(await server.closed, name).toMatchObject({ kind: "transport", message: expect.stringMatching(reason) });
      expect(server.state, name).toBe("failed");
    }
  });

  it("copies an object as it takes it: a sender that changes it afterwards changes nothing the client kept", async () => {
    const { clientSide } = await officialInMemory();
    const tap: { sink?: ChannelSink } = {};
    const inner = fromOfficial(clientSide, tap);
    let lastList: { result?: { tools?: { name: string }[] } } | undefined;
    const spying: Transport = {
      ...inner,
      start: async (sink) => {
        await inner.start({ message: (message, meta) => {
          if (typeof message === "object" && "result" in message && Array.isArray((message as { result: { tools?: unknown } }).result.tools)) lastList = message as typeof lastList;
          sink.message(message, meta);
        }, closed: (error) => sink.closed(error) });
      },
    };
    const server = await client().connect("copy", { transport: spying });
    const tools = await server.listTools();
    expect(lastList).toBeDefined();
    lastList!.result!.tools![0]!.name = "rewritten-after-the-checks";
    expect(tools.map((tool) => tool.name)).not.toContain("rewritten-after-the-checks");
  });

  it("takes what is not JSON as a parse error and goes on", async () => {
    const { clientSide } = await officialInMemory();
    const tap: { sink?: ChannelSink } = {};
    const server = await client().connect("odd", { transport: fromOfficial(clientSide, tap) });
    tap.sink!.message(new Map([["jsonrpc", "2.0"]]));
    tap.sink!.message("{not json");
    const result = await server.callTool("echo", { text: "still here" });
    expect(result.content).toEqual([{ type: "text", text: "still here" }]);
  });
});

function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { inner: value };
  return value;
}
