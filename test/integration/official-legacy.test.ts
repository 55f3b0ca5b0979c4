// Every call of the API round-trips against a server on the official MCP server library, in the
// legacy era, over stdio and over Streamable HTTP.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client, type ServerHandle, type ServerNotification } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { connectOfficial, officialStdio } from "../helpers/official.js";

type Transport = "stdio" | "http";

const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

describe.each<Transport>(["stdio", "http"])("official server, legacy era, over %s", (transport) => {
  let url: string | undefined;
  let stop: () => Promise<void> = () => Promise.resolve();
  let client: Client;
  let server: ServerHandle;
  const notifications: ServerNotification[] = [];

  beforeAll(async () => {
    client = new Client({ name: "conduit-test", version: "0.0.1", logger: capturingLogger() });
    client.onNotification((n) => notifications.push(n));
    ({ server, url, stop } = await connectOfficial(client, transport, "legacy"));
  });

  afterAll(async () => {
    await client.close();
    await stop();
  });

  const waitFor = (predicate: (n: ServerNotification) => boolean): Promise<ServerNotification> =>
    vi.waitFor(
      () => {
        const found = notifications.find(predicate);
        if (found === undefined) throw new Error(`no such notification; got ${JSON.stringify(notifications.map((n) => n.method))}`);
        return found;
      },
      { timeout: 2000 },
    );

  it("negotiates 2025-11-25 and reads what the server offers", () => {
    expect(server.protocolVersion).toBe("2025-11-25");
    expect(server.era).toBe("legacy");
    expect(server.serverInfo?.name).toBe("conduit-official-test-server");
    expect(Object.keys(server.serverCapabilities ?? {})).toEqual(expect.arrayContaining(["tools", "resources", "prompts", "logging", "completions"]));
    if (transport === "http") expect(server.origin).toBe(new URL(url!).origin);
    else expect(server.origin).toBeUndefined();
  });

  it("lists tools, all pages and one page", async () => {
    const tools = await server.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "add", "slow", "log", "big", "fail", "throw"]));
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    const page = await server.listToolsPage();
    expect(page.tools.map((t) => t.name)).toEqual(names);
  });

  it("calls tools: text, structured content, isError, a thrown error, an unknown tool", async () => {
    expect(text(await server.callTool("echo", { text: "héllo" }))).toBe("héllo");
    const sum = await server.callTool("add", { a: 2, b: 40 });
    expect(sum.structuredContent).toEqual({ sum: 42 });
    const failed = await server.callTool("fail");
    expect(failed.isError).toBe(true);
    expect(text(failed)).toBe("failed on purpose");
    await expect(server.callTool("throw")).rejects.toMatchObject({ kind: "rpc", code: -32603, serverId: "official" });
    await expect(server.callTool("no-such-tool")).rejects.toMatchObject({ kind: "rpc", code: -32602 });
  });

  it("reports progress", async () => {
    const seen: number[] = [];
    const result = await server.callTool("slow", { ms: 50, steps: 4 }, { onProgress: (p) => seen.push(p.progress) });
    expect(text(result)).toBe("done");
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it("cancels a call in progress, and the connection stays usable", async () => {
    const controller = new AbortController();
    const outcome = server.callTool("slow", { ms: 20_000, steps: 200 }, { signal: controller.signal, onProgress: () => controller.abort() }).catch((e: unknown) => e);
    expect(await outcome).toMatchObject({ kind: "cancelled" });
    expect(text(await server.callTool("echo", { text: "still here" }))).toBe("still here");
  });

  it("carries a 3 MB result", async () => {
    const result = await server.callTool("big", { bytes: 3 * 1024 * 1024 });
    expect(text(result).length).toBe(3 * 1024 * 1024);
  });

  it("lists and reads resources and templates", async () => {
    const resources = await server.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["mem://hello", "mem://blob"]));
    expect((await server.listResourcesPage()).resources.length).toBe(resources.length);
    const hello = await server.readResource("mem://hello");
    expect(hello.contents[0]).toMatchObject({ uri: "mem://hello", text: "hello world" });
    const blob = await server.readResource("mem://blob");
    const bytes = Buffer.from((blob.contents[0] as { blob: string }).blob, "base64");
    expect([...bytes]).toEqual(Array.from({ length: 256 }, (_, i) => i));
    const templates = await server.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toContain("mem://item/{id}");
    expect((await server.listResourceTemplatesPage()).resourceTemplates.length).toBe(templates.length);
    expect((await server.readResource("mem://item/7")).contents[0]).toMatchObject({ text: "item 7" });
  });

  it("lists and gets prompts, and completes arguments", async () => {
    const prompts = await server.listPrompts();
    expect(prompts.map((p) => p.name)).toContain("greet");
    expect((await server.listPromptsPage()).prompts.length).toBe(prompts.length);
    const prompt = await server.getPrompt("greet", { name: "Ada" });
    expect(prompt.messages[0]).toMatchObject({ role: "user", content: { type: "text", text: "Hello, Ada!" } });
    const completion = await server.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "a" } });
    expect(completion.completion.values).toEqual(["ada", "alan"]);
  });

  it("pings, sets the log level and receives log entries", async () => {
    await server.ping();
    await server.setLogLevel("warning");
    await server.callTool("log", { count: 2, level: "error", message: "disk" });
    const entry = await waitFor((n) => n.method === "notifications/message" && (n.params as { data?: unknown }).data === "disk 2");
    expect(entry).toMatchObject({ serverId: "official", params: { level: "error", logger: "official-server" } });
  });

  it("subscribes to a resource and hears of its updates, until unsubscribed", async () => {
    await server.subscribeResource("mem://hello");
    const touched = await server.callTool("touch-resource", { uri: "mem://hello" });
    expect(JSON.parse(text(touched))).toEqual({ uri: "mem://hello", notified: true });
    await waitFor((n) => n.method === "notifications/resources/updated" && (n.params as { uri?: string }).uri === "mem://hello");
    await server.unsubscribeResource("mem://hello");
    const after = await server.callTool("touch-resource", { uri: "mem://hello" });
    expect(JSON.parse(text(after))).toEqual({ uri: "mem://hello", notified: false });
  });

  it("hears that the tool list changed", async () => {
    const name = `added-${transport}`;
    await server.callTool("add-tool", { name });
    await waitFor((n) => n.method === "notifications/tools/list_changed");
    expect((await server.listTools()).map((t) => t.name)).toContain(name);
  });
});

describe("official server pinned to 2025-06-18", () => {
  it("speaks 2025-06-18 when pinned", async () => {
    const client = new Client({ name: "t", version: "0", logger: capturingLogger() });
    try {
      const server = await client.connect("old", officialStdio("legacy"), { protocolVersion: "2025-06-18" });
      expect(server.protocolVersion).toBe("2025-06-18");
      expect(text(await server.callTool("echo", { text: "x" }))).toBe("x");
    } finally {
      await client.close();
    }
  });
});
