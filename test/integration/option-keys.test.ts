// An option object with a key the client does not know is a mistake of the caller, not a
// setting silently ignored (`timout: 5` would leave the 60 s default in force): it throws a
// TypeError (`code: "ERR_CONDUIT_INVALID_ARGUMENT"`) naming the key and the nearest known one.
import { describe, expect, it } from "vitest";
import { Client, InvalidArgumentError, type CallOptions, type ServerTarget } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

/** What `act` throws or rejects with; fails the test if it does neither. */
async function refusal(act: () => unknown): Promise<unknown> {
  try {
    await act();
  } catch (error) {
    return error;
  }
  throw new Error("expected the option to be refused");
}

async function expectUnknownKey(act: () => unknown, key: string, nearest: string): Promise<void> {
  const error = await refusal(act);
  expect(error).toBeInstanceOf(TypeError);
  expect(error).toBeInstanceOf(InvalidArgumentError);
  expect(error).toMatchObject({ code: "ERR_CONDUIT_INVALID_ARGUMENT" });
  expect((error as Error).message).toContain(key);
  expect((error as Error).message).toContain(nearest);
}

const BASE = { name: "h", version: "0", logger: capturingLogger() };

describe("Client options", () => {
  const CASES: Array<[string, Record<string, unknown>, string, string]> = [
    ["a top-level key", { requestTimout: 5000 }, "requestTimout", "requestTimeout"],
    ["handlerTimeout", { handlerTimeout: { defualt: 1000 } }, "defualt", "default"],
    ["inputRateLimit", { inputRateLimit: { perSecnd: 5 } }, "perSecnd", "perSecond"],
    ["logRateLimit", { logRateLimit: { brust: 5 } }, "brust", "burst"],
    ["sampling", { sampling: { maxToken: 100 } }, "maxToken", "maxTokens"],
  ];

  it.each(CASES)("refuse an unknown key in %s", async (_where, extra, key, nearest) => {
    await expectUnknownKey(() => new Client({ ...BASE, ...extra }), key, nearest);
  });
});

describe("connect", () => {
  // Were the key ignored, these would fail fast on their own (a server that exits at once, a
  // command that does not exist, a port nobody listens on), with a ClientError instead.
  const STDIO = { command: process.execPath, args: ["-e", ""] };

  const CASES: Array<[string, ServerTarget, Record<string, unknown>, string, string]> = [
    ["connect options", STDIO, { conectTimeout: 5000 }, "conectTimeout", "connectTimeout"],
    ["connect option elicitation", STDIO, { elicitation: { orgin: "https://example.com" } }, "orgin", "origin"],
    ["a stdio target", { command: "/nonexistent/conduit-test-server", arg: ["--verbose"] } as unknown as ServerTarget, {}, "arg", "args"],
    ["an HTTP target", { url: "http://127.0.0.1:9/mcp", header: { authorization: "x" } } as unknown as ServerTarget, {}, "header", "headers"],
  ];

  it.each(CASES)("refuses an unknown key in %s", async (_where, target, options, key, nearest) => {
    const client = track(new Client(BASE));
    await expectUnknownKey(() => client.connect("s", target, options), key, nearest);
    expect(client.servers()).toEqual([]);
  });

  it("refuses a target's bad value as connectAll does, with a TypeError and nothing started", async () => {
    const client = track(new Client(BASE));
    const bad: Array<[unknown, RegExp]> = [
      [{ command: "node", args: [1] }, /`args` must be an array of strings/],
      [{ command: "node", env: { A: 1 } }, /`env` must be an object of strings/],
      [{ command: "node", cwd: 5 }, /`cwd` must be a string/],
      [{ url: "https://x.example/mcp", headers: { a: 1 } }, /`headers` must be an object of strings/],
      [{ url: "https://x.example/mcp", fetch: "yes" }, /`fetch` must be a function/],
    ];
    for (const [target, message] of bad) {
      const error = await refusal(() => client.connect("s", target as ServerTarget));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(message);
    }
    expect(client.servers()).toEqual([]);
  });
});

describe("call options", () => {
  it("refuse an unknown key, and nothing is sent", async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("tools/call", () => ({ content: [] }));
    raw.handle("ping", () => ({}));
    const client = track(new Client(BASE));
    const server = await client.connect("s", raw.target);
    await expectUnknownKey(() => server.callTool("t", {}, { timout: 5 } as unknown as CallOptions), "timout", "timeout");
    // A round trip: a tools/call sent before it would have arrived first.
    await server.ping();
    expect(raw.messages.filter((m) => (m as { method?: unknown }).method === "tools/call")).toEqual([]);
  });
});
