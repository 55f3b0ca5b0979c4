// The protocol versions of the installed base: servers on old releases of the official SDK, run
// as they are (test/fixtures/old-sdk-server.mjs, on `sdk-2024` = 1.0.1 speaking 2024-11-05 and
// `sdk-2025-03` = 1.11.5 speaking 2025-03-26), over stdio, HTTP+SSE and Streamable HTTP;
// `@modelcontextprotocol/server-github@2025.4.8` over stdio; and server-everything's HTTP+SSE mode.
// The negotiated version's rules apply from the handshake on, and every Handler rule those
// versions have holds on them.
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { Client, ClientError, type ClientOptions, type Handler, type ServerHandle } from "../../src/node.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { EVERYTHING_SERVER, spawnHttpServer } from "../helpers/official.js";
import { track } from "../helpers/cleanup.js";

const OLD_SERVER = fileURLToPath(new URL("../fixtures/old-sdk-server.mjs", import.meta.url));
const GITHUB_SERVER = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-github/dist/index.js", import.meta.url));

type Release = "2024" | "2025-03";
const VERSION: Record<Release, string> = { "2024": "2024-11-05", "2025-03": "2025-03-26" };

const handler: Handler = {
  handleSampling: () => ({ role: "assistant", content: { type: "text", text: "hi from the host" }, model: "m" }),
  listRoots: () => ({ roots: [{ uri: "file:///work/project", name: "project" }] }),
  handleElicitation: () => ({ action: "decline" }),
};

function client(options: Partial<ClientOptions> = {}): { client: Client; logger: CapturingLogger } {
  const logger = capturingLogger();
  return { client: track(new Client({ name: "host", version: "1", logger, handler, sampling: { allowIdle: true }, ...options })), logger };
}

const textOf = (result: { content: unknown[] }): unknown => (result.content[0] as { text?: unknown }).text;

/** The transports each old release is run over: stdio, and its HTTP modes. */
const CASES: { release: Release; mode: "stdio" | "sse" | "http" }[] = [
  { release: "2024", mode: "stdio" },
  { release: "2024", mode: "sse" },
  { release: "2025-03", mode: "stdio" },
  { release: "2025-03", mode: "sse" },
  { release: "2025-03", mode: "http" },
];

async function connect(c: Client, release: Release, mode: "stdio" | "sse" | "http"): Promise<ServerHandle> {
  if (mode === "stdio") return c.connect("old", { command: process.execPath, args: [OLD_SERVER, release, "stdio"] });
  const server = track(await spawnHttpServer([OLD_SERVER, release, mode]));
  return c.connect("old", { url: server.url });
}

describe.each(CASES)("a $release server over $mode", ({ release, mode }) => {
  it("is spoken to in its own version, and answers calls", async () => {
    const { client: c } = client();
    const server = await connect(c, release, mode);
    expect(server.protocolVersion).toBe(VERSION[release]);
    expect(server.era).toBe("legacy");
    expect(textOf(await server.callTool("echo", { text: "hello" }))).toBe("hello");
    await server.ping();
    await server.setLogLevel("info");
    expect((await server.readResource("note://one")).contents).toEqual([{ uri: "note://one", text: "the first note" }]);
    expect((await server.getPrompt("greet", { who: "ada" })).messages).toHaveLength(1);
    // 2024-11-05 has no `completions` capability: a server with prompts may complete.
    expect((await server.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "a" } })).completion.values).toEqual(["ada", "alan"]);
  });

  it("answers its sampling and roots requests through the Handler, and passes on its logs, notifications and progress", async () => {
    const logs: unknown[] = [];
    const notifications: string[] = [];
    const { client: c } = client({
      handler: { ...handler, handleLog: (_level, params) => void logs.push(params.data), handleNotification: (method) => void notifications.push(method) },
    });
    const server = await connect(c, release, mode);
    expect(textOf(await server.callTool("sample"))).toBe("hi from the host");
    expect(JSON.parse(textOf(await server.callTool("roots")) as string)).toEqual([{ uri: "file:///work/project", name: "project" }]);
    await server.callTool("log");
    await server.callTool("changed");
    await c.notificationsSettled();
    expect(logs).toEqual(["hello from an old server"]);
    expect(notifications).toEqual(["notifications/tools/list_changed"]);
    const progress: number[] = [];
    await server.callTool("progress", {}, { onProgress: (p) => void progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3]);
  });

  it("cancels a call: the server hears of it", async () => {
    const { client: c } = client();
    const server = await connect(c, release, mode);
    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = server.callTool("slow", {}, { signal: controller.signal, onProgress: () => started() }).catch((e: unknown) => e);
    await running;
    controller.abort();
    expect(await slow).toMatchObject({ kind: "cancelled" });
    // Over HTTP the cancellation and the next call are POSTs of their own, in no order.
    await vi.waitFor(async () => expect(textOf(await server.callTool("cancelled"))).toBe("true"));
  });

  it("gets no field or content block its version does not define", async () => {
    const { client: c, logger } = client();
    const server = await connect(c, release, mode);
    const tools = await server.listTools();
    const blocks = tools.find((tool) => tool.name === "blocks")!;
    expect(blocks.title).toBeUndefined();
    expect(blocks.outputSchema).toBeUndefined();
    // Tool annotations exist from 2025-03-26.
    expect(blocks.annotations === undefined).toBe(release === "2024");
    expect((await server.listResources())[0]!.title).toBeUndefined();
    expect((await server.listPrompts())[0]!.title).toBeUndefined();
    const result = await server.callTool("blocks");
    expect(result.structuredContent).toBeUndefined();
    expect(result.content.map((block) => block.type)).toEqual(release === "2024" ? ["text"] : ["text", "audio"]);
    expect(logger.warnings("resource_link content does not exist before 2025-06-18")).toHaveLength(1);
  });
});

describe("a 2024-11-05 server", () => {
  it("over HTTP+SSE, with transport: streamable-http, is not fallen back to", async () => {
    const { client: c } = client();
    const http = track(await spawnHttpServer([OLD_SERVER, "2024", "sse"]));
    const error = await c.connect("old", { url: http.url, transport: "streamable-http" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ kind: "transport" });
  });

  it("over HTTP+SSE, with transport: sse, is reached at once", async () => {
    const { client: c } = client();
    const http = track(await spawnHttpServer([OLD_SERVER, "2024", "sse"]));
    const server = await c.connect("old", { url: http.url, transport: "sse" });
    expect(server.protocolVersion).toBe("2024-11-05");
    expect(textOf(await server.callTool("echo", { text: "direct" }))).toBe("direct");
  });
});

describe("@modelcontextprotocol/server-github 2025.4.8 (2024-11-05, no token, no network)", () => {
  it("lists its tools, and a call gets the server's own answer", async () => {
    const { client: c } = client();
    const server = await c.connect("github", { command: process.execPath, args: [GITHUB_SERVER] });
    expect(server.protocolVersion).toBe("2024-11-05");
    expect(server.serverInfo?.name).toBe("github-mcp-server");
    const tools = await server.listTools();
    expect(tools.map((tool) => tool.name)).toContain("search_repositories");
    // Arguments its own checks refuse: an answer from the server, needing no network.
    const outcome = await server.callTool("search_repositories", {}).then(
      (result) => result,
      (error: unknown) => error,
    );
    if (outcome instanceof ClientError) expect(outcome.kind).toBe("rpc");
    else expect((outcome as { isError?: boolean }).isError).toBe(true);
  });
});

describe("server-everything in its HTTP+SSE mode", () => {
  it("is reached through the fallback from Streamable HTTP, and answers a call", async () => {
    const port = await freePort();
    const everything = track(await spawnEverythingSse(port));
    const { client: c } = client();
    const server = await c.connect("everything", { url: `http://127.0.0.1:${everything.port}/sse` });
    expect(server.serverInfo?.name).toContain("everything");
    expect(textOf(await server.callTool("echo", { message: "over sse" }))).toContain("over sse");
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** server-everything's `sse` mode listens on PORT and says so on stderr. */
async function spawnEverythingSse(port: number): Promise<{ port: number; close(): Promise<void> }> {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [EVERYTHING_SERVER, "sse"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
      if (stderr.includes(`port ${port}`)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited with ${code}:\n${stderr}`)));
  });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
