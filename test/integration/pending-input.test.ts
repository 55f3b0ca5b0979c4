// Input that waits outside the process: a modern call made with inputRequired: "return" parks
// the round the server asks as a PendingInput, and client.resume answers it, on the same Client,
// on another Client with its own server process, or after the process that parked it died.
// Against real server processes (test/fixtures/pending-input-server.mjs, which logs every
// tools/call it receives and every requestState it mints), and a legacy one for the era rule.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Client,
  ClientError,
  DEFAULT_PENDING_MS,
  InvalidArgumentError,
  isPendingInput,
  memoryStore,
  type ClientOptions,
  type Handler,
  type PendingInput,
  type Store,
} from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const SERVER = fileURLToPath(new URL("../fixtures/pending-input-server.mjs", import.meta.url));
const HOST = fileURLToPath(new URL("../fixtures/pending-input-host.mjs", import.meta.url));
const OFFICIAL = fileURLToPath(new URL("../fixtures/official-server.mjs", import.meta.url));

interface Logged {
  event: "call" | "minted";
  pid?: number;
  name?: string;
  tool?: string;
  requestState?: string;
  inputResponses?: Record<string, unknown>;
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function logFile(): string {
  const folder = mkdtempSync(join(tmpdir(), "conduit-pending-"));
  folders.push(folder);
  return join(folder, "server.log");
}

function logged(file: string): Logged[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Logged);
}

const calls = (file: string, name: string) => logged(file).filter((entry) => entry.event === "call" && entry.name === name);
const minted = (file: string, tool: string) => logged(file).filter((entry) => entry.event === "minted" && entry.tool === tool).map((entry) => entry.requestState);

/** Declares elicitation (a server asks only for what is declared); with "return" it is never asked. */
const untouchable: Handler = {
  handleElicitation: () => {
    throw new Error("the Handler must not be asked");
  },
};

function client(options: Partial<ClientOptions> = {}): Client {
  return track(new Client({ name: "pending-host", version: "1", handler: untouchable, logger: capturingLogger(), ...options }));
}

const target = (file: string) => ({ command: process.execPath, args: [SERVER, "--log", file] });
const ada = { who: { action: "accept", content: { name: "Ada" } } };

async function park(file: string, on = client(), tool = "ask", options: { maxTotalTimeout?: number } = {}): Promise<{ pending: PendingInput; on: Client }> {
  const server = on.server("asker") ?? (await on.connect("asker", target(file)));
  const pending = await server.callTool(tool, {}, { inputRequired: "return", ...options });
  if (!isPendingInput(pending)) throw new Error(`the call of ${tool} did not park`);
  return { pending, on };
}

const failure = (promise: Promise<unknown>) => promise.then(() => new Error("it did not fail"), (error: unknown) => error);

describe('inputRequired: "return"', () => {
  it("parks the round as plain JSON and resumes it on the same Client: the server sees one retry with the state unchanged", async () => {
    const file = logFile();
    const before = Date.now();
    const { pending, on } = await park(file);
    const after = Date.now();
    const [state] = minted(file, "ask");
    expect(pending).toMatchObject({
      type: "conduit-mcp/pending-input",
      version: 1,
      serverId: "asker",
      method: "tools/call",
      params: { name: "ask", arguments: {} },
      inputRequests: { who: { method: "elicitation/create" } },
      round: 1,
      verdicts: { who: { method: "elicitation/create", mode: "form", fields: { name: { sensitiveSuspected: false }, age: { sensitiveSuspected: false } } } },
    });
    expect(pending.requestState).toBe(state);
    expect(pending.id).toMatch(/^[0-9a-f]{32}$/);
    expect(pending.deadline).toBeGreaterThanOrEqual(before + DEFAULT_PENDING_MS);
    expect(pending.deadline).toBeLessThanOrEqual(after + DEFAULT_PENDING_MS);
    expect(JSON.parse(JSON.stringify(pending))).toStrictEqual(pending);

    const result = await on.resume(pending, { responses: ada });
    expect(result).toMatchObject({ content: [{ type: "text", text: "hello Ada" }] });
    const seen = calls(file, "ask");
    expect(seen).toHaveLength(2);
    expect(seen[0]!.requestState).toBeUndefined();
    expect(seen[1]!.requestState).toBe(state);
    expect(seen[1]!.inputResponses).toEqual(ada);
  });

  it("also through the catalog's callTool, and with a deadline from maxTotalTimeout", async () => {
    const file = logFile();
    const on = client();
    await on.connect("asker", target(file));
    const tool = (await on.tools()).find((entry) => entry.name === "ask")!;
    const before = Date.now();
    const pending = await on.callTool(tool.qualifiedName, {}, { inputRequired: "return", maxTotalTimeout: 60_000 });
    expect(isPendingInput(pending)).toBe(true);
    expect((pending as PendingInput).deadline).toBeGreaterThanOrEqual(before + 60_000);
    expect((pending as PendingInput).deadline).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("parks on one Client and resumes on another, with its own server process, sharing a store; a second resume sends nothing", async () => {
    const file = logFile();
    const store = memoryStore();
    const { pending, on: first } = await park(file, client({ store }));
    const carried = JSON.parse(JSON.stringify(pending)) as unknown;
    expect(isPendingInput(carried)).toBe(true);

    const second = client({ store });
    await second.connect("asker", target(file));
    expect(await second.resume(carried as PendingInput, { responses: ada })).toMatchObject({ content: [{ text: "hello Ada" }] });
    const [asked, retried] = calls(file, "ask");
    expect(retried!.pid).not.toBe(asked!.pid);
    expect(retried!.requestState).toBe(pending.requestState);

    const again = await failure(first.resume(pending, { responses: ada }));
    expect(again).toBeInstanceOf(ClientError);
    expect(again).toMatchObject({ kind: "usage", serverId: "asker" });
    expect((again as Error).message).toContain("already resumed");
    // A round trip on the first Client's server, then the count: nothing was sent for the refused resume.
    await first.server("asker")!.callTool("ask", {}, { inputRequired: "return" });
    expect(calls(file, "ask")).toHaveLength(3);
    expect(calls(file, "ask").filter((entry) => entry.inputResponses !== undefined)).toHaveLength(1);
  });

  it("a resume past the deadline is a timeout and sends nothing, and claims nothing", async () => {
    const file = logFile();
    const { pending, on } = await park(file);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(pending.deadline + 1);
    expect(await failure(on.resume(pending, { responses: ada }))).toMatchObject({ kind: "timeout", serverId: "asker" });
    vi.useRealTimers();
    expect(calls(file, "ask")).toHaveLength(1);
    // Not claimed: the same PendingInput, resumed in time, still goes through.
    expect(await on.resume(pending, { responses: ada })).toMatchObject({ content: [{ text: "hello Ada" }] });
  });

  it("refuses a form the checks refuse before parking, with the Handler path's error", async () => {
    const file = logFile();
    const parked = await failure(park(file, client(), "bad-form"));
    expect(parked).toMatchObject({ kind: "input_refused", code: -32602, serverId: "asker" });

    const asked: unknown[] = [];
    const handled = client({ handler: { handleElicitation: (params) => (asked.push(params), { action: "decline" }) } });
    const server = await handled.connect("asker", target(file));
    const viaHandler = await failure(server.callTool("bad-form"));
    expect(viaHandler).toMatchObject({ kind: "input_refused", code: -32602 });
    expect((parked as Error).message).toBe((viaHandler as Error).message);
    expect(asked).toEqual([]);
  });

  it("refuses an answer that fails the form's schema on resume, sending and claiming nothing", async () => {
    const file = logFile();
    const { pending, on } = await park(file);
    const wrong = await failure(on.resume(pending, { responses: { who: { action: "accept", content: { age: -1 } } } }));
    expect(wrong).toMatchObject({ kind: "input_handler", serverId: "asker" });
    expect((wrong as Error).message).toContain('"who"');
    expect(calls(file, "ask")).toHaveLength(1);
    expect(await on.resume(pending, { responses: ada })).toMatchObject({ content: [{ text: "hello Ada" }] });
  });

  it("refuses a malformed PendingInput or answers not keyed as its requests, as the caller's mistake", async () => {
    const file = logFile();
    const { pending, on } = await park(file);
    const tampered = { ...pending, requestState: 7 } as unknown as PendingInput;
    expect(isPendingInput(tampered)).toBe(false);
    await expect(on.resume(tampered, { responses: ada })).rejects.toThrow(InvalidArgumentError);
    expect(isPendingInput({ ...pending, verdicts: {} })).toBe(false);
    await expect(on.resume(pending, { responses: {} })).rejects.toThrow(/no response for input request "who"/);
    await expect(on.resume(pending, { responses: { ...ada, extra: {} } })).rejects.toThrow(InvalidArgumentError);
    expect(calls(file, "ask")).toHaveLength(1);
  });

  it("a store that fails is a \"store\" error, and nothing is sent", async () => {
    const file = logFile();
    const broken: Store = { ...memoryStore(), setIfAbsent: () => Promise.reject(new Error("the store is down")) };
    const { pending, on } = await park(file, client({ store: broken }));
    const error = await failure(on.resume(pending, { responses: ada }));
    expect(error).toMatchObject({ kind: "store", serverId: "asker" });
    expect((error as Error).message).toContain("the store is down");
    expect(calls(file, "ask")).toHaveLength(1);
  });

  it("a second round gives the next PendingInput, with its own id and the same deadline", async () => {
    const file = logFile();
    const { pending: first, on } = await park(file, client(), "ask-twice");
    const next = await on.resume(first, { responses: { first: { action: "accept", content: { answer: "tea" } } } });
    expect(isPendingInput(next)).toBe(true);
    const second = next as PendingInput;
    expect(second).toMatchObject({ round: 2, deadline: first.deadline, inputRequests: { second: { method: "elicitation/create" } } });
    expect(second.id).not.toBe(first.id);
    expect(second.requestState).toBe(minted(file, "ask-twice")[1]);
    expect(await on.resume(second, { responses: { second: { action: "accept", content: { answer: "cake" } } } })).toMatchObject({ content: [{ text: "tea then cake" }] });
    expect(calls(file, "ask-twice")).toHaveLength(3);
  });

  it('a resume with inputRequired: "handler" lets this Client\'s Handler answer the later rounds', async () => {
    const file = logFile();
    const { pending } = await park(file, client(), "ask-twice");
    const seen: unknown[] = [];
    const handler: Handler = { handleElicitation: (_params, ctx) => (seen.push(ctx.assigns), { action: "accept", content: { answer: "cake" } }) };
    const other = client({ handler });
    await other.connect("asker", target(file));
    const result = await other.resume(pending, { responses: { first: { action: "accept", content: { answer: "tea" } } }, inputRequired: "handler", assigns: { turn: 3 } });
    expect(result).toMatchObject({ content: [{ text: "tea then cake" }] });
    expect(seen).toEqual([{ turn: 3 }]);
  });

  it("a process that parked and was killed leaves a PendingInput another process resumes, the state byte for byte", async () => {
    const file = logFile();
    const host = spawn(process.execPath, [HOST, SERVER, file], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => host.once("exit", resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: host.stdout });
        lines.once("line", resolve);
        host.once("exit", (code) => reject(new Error(`the host exited (${code}) before it parked`)));
      });
      host.kill("SIGKILL");
      await exited;
      const pending = JSON.parse(line) as PendingInput;
      expect(isPendingInput(pending)).toBe(true);
      const on = client();
      await on.connect("asker", target(file));
      expect(await on.resume(pending, { responses: ada })).toMatchObject({ content: [{ text: "hello Ada" }] });
      const [state] = minted(file, "ask");
      const [asked, retried] = calls(file, "ask");
      expect(pending.requestState).toBe(state);
      expect(retried!.requestState).toBe(state);
      expect(retried!.pid).not.toBe(asked!.pid);
    } finally {
      host.kill("SIGKILL");
    }
  });
});

describe("the legacy era", () => {
  it('refuses inputRequired: "return" with a "usage" error naming the era, before anything is sent', async () => {
    const raw = track(await startRawStdio());
    raw.autoInitialize();
    raw.handle("tools/call", () => ({ content: [] }));
    raw.handle("ping", () => ({}));
    const on = client();
    const server = await on.connect("old", raw.target, { probeTimeout: 200 });
    const error = await failure(server.callTool("x", {}, { inputRequired: "return" }));
    expect(error).toMatchObject({ kind: "usage", serverId: "old" });
    expect((error as Error).message).toMatch(/legacy era/);
    expect((error as Error).message).toContain(server.protocolVersion!);
    // Also where a task may come of the call, which may list the tools first.
    expect(await failure(server.callTool("x", {}, { inputRequired: "return", task: true }))).toMatchObject({ kind: "usage" });
    // One pipe, in order: after the ping's answer, a tools/call would have been seen.
    await server.ping();
    const sent = raw.messages.map((message) => (message as RpcMessage).method);
    expect(sent).not.toContain("tools/call");
    expect(sent).not.toContain("tools/list");
  });

  it("refuses to resume a PendingInput on a server of that id that speaks the legacy era", async () => {
    const file = logFile();
    const { pending } = await park(file);
    const on = client();
    await on.connect("asker", { command: process.execPath, args: [OFFICIAL, "stdio", "--era", "legacy"] });
    const error = await failure(on.resume(pending, { responses: ada }));
    expect(error).toMatchObject({ kind: "usage", serverId: "asker" });
    expect((error as Error).message).toMatch(/legacy era/);
    expect(calls(file, "ask")).toHaveLength(1);
  });
});
