// MCP Apps on the host, against a server of our own on the official library (apps-visibility-server.mjs),
// in both eras: the extension the host declares reaches the server (in `initialize`, or in every
// request's envelope), and a tool made for its app alone is kept from the model everywhere: the
// default catalog, every adapter, and callTool, which refuses it before any request is sent (the
// server counts what it read). The full view still has it, with its visibility and its view.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { APPS_EXTENSION, APP_MIME_TYPE, Client, ClientError, ToolVisibilityError, appsExtension, type CallToolResult, type ProtocolVersion } from "../../src/node.js";
import { toAiSdkTools, toAnthropicTools, toOpenAIChatTools, toOpenAIResponsesTools } from "../../src/adapters/index.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const APPS = { command: process.execPath, args: [fileURLToPath(new URL("../fixtures/apps-visibility-server.mjs", import.meta.url))] };
const VIEW = "ui://apps/chart.html";
const OTHER = { "com.example/other-ext": { level: 2, names: ["a", "b"] } };

interface Received {
  method: string;
  tool?: string;
  capabilities: Record<string, unknown> | null;
}
interface Audit {
  requests: Received[];
  envelope: Record<string, unknown> | null;
  libraryCapabilities: Record<string, unknown> | null;
}

async function connected(protocolVersion: ProtocolVersion) {
  const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), extensions: { ...appsExtension(), ...OTHER } }));
  const server = await client.connect("apps", APPS, { protocolVersion });
  const audit = async (): Promise<Audit> => {
    const result: CallToolResult = await client.callTool("apps_audit");
    return result.structuredContent as Audit;
  };
  return { client, server, audit };
}

const ERAS = [
  { era: "legacy", version: "2025-11-25" },
  { era: "modern", version: "2026-07-28" },
] as const;

describe.each(ERAS)("MCP Apps visibility, $era era ($version)", ({ era, version }) => {
  it("declares the extensions to the server, which reads them, and reads the server's", async () => {
    const { server, audit } = await connected(version);
    expect(server.era).toBe(era);
    expect(server.serverCapabilities?.extensions).toEqual({ [APPS_EXTENSION]: {} });
    const declared = { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] }, ...OTHER };
    const { requests, envelope, libraryCapabilities } = await audit();
    if (era === "legacy") {
      // Once, in initialize; no request after it carries capabilities.
      expect(requests.map((request) => request.method)).toEqual(["initialize", "tools/list", "tools/call"]);
      expect(requests[0]!.capabilities).toEqual({ extensions: declared });
      expect(requests.slice(1).every((request) => request.capabilities === null)).toBe(true);
      expect(libraryCapabilities).toEqual({ extensions: declared });
    } else {
      // On every request, beside the client's own tasks extension.
      // The catalog's watch for list changes is one of them.
      expect(requests.map((request) => request.method).sort()).toEqual(["server/discover", "subscriptions/listen", "tools/call", "tools/list"]);
      for (const request of requests) expect(request.capabilities).toEqual({ extensions: { "io.modelcontextprotocol/tasks": {}, ...declared } });
      expect(envelope).toEqual({ extensions: { "io.modelcontextprotocol/tasks": {}, ...declared } });
    }
  });

  it("gives the model's view by default, and every tool with its visibility and view when asked", async () => {
    const { client } = await connected(version);
    const forModel = await client.tools();
    expect(forModel.map((tool) => tool.qualifiedName)).toEqual(["apps_chart", "apps_audit"]);
    const all = await client.tools({ audience: "all" });
    expect(all.map((tool) => [tool.qualifiedName, tool.visibility, tool.appResourceUri])).toEqual([
      ["apps_chart", ["model"], VIEW],
      ["apps_refresh", ["app"], VIEW],
      ["apps_audit", ["model", "app"], undefined],
    ]);
    expect((await client.tools({ audience: "app" })).map((tool) => tool.qualifiedName)).toEqual(["apps_refresh", "apps_audit"]);
    // The default view again, after the others: the same tools.
    expect((await client.tools()).map((tool) => tool.qualifiedName)).toEqual(["apps_chart", "apps_audit"]);
  });

  it("leaves the app-only tool out of every adapter's output, reported with the reason", async () => {
    const { client } = await connected(version);
    const all = await client.tools({ audience: "all" });
    const reason = `its visibility is ["app"]: its server made it for its app's view alone, not for the model`;
    const chat = toOpenAIChatTools(all);
    const strict = toOpenAIChatTools(all, { strict: true });
    const responses = toOpenAIResponsesTools(all);
    const anthropic = toAnthropicTools(all);
    const lists = [chat, strict, responses, anthropic];
    expect(chat.tools.map((tool) => tool.function.name)).toEqual(["apps_chart", "apps_audit"]);
    expect(strict.tools.map((tool) => tool.function.name)).toEqual(["apps_chart", "apps_audit"]);
    expect(responses.tools.map((tool) => tool.name)).toEqual(["apps_chart", "apps_audit"]);
    expect(anthropic.tools.map((tool) => tool.name)).toEqual(["apps_chart", "apps_audit"]);
    const sdk = toAiSdkTools(all, client, { jsonSchema: (schema) => schema, aiVersion: 7, strict: true });
    expect(Object.keys(sdk.tools)).toEqual(["apps_chart", "apps_audit"]);
    for (const { skipped } of [...lists, sdk]) expect(skipped).toEqual([{ qualifiedName: "apps_refresh", serverId: "apps", reason }]);
    // From the default view there is nothing to leave out.
    expect(toAnthropicTools(await client.tools()).skipped).toEqual([]);
  });

  it("refuses a model's call of the app-only tool and an app's call of the model-only one, sending nothing", async () => {
    const { client, audit } = await connected(version);
    await client.tools({ audience: "all" });
    const byModel = await client.callTool("apps_refresh").catch((error: unknown) => error);
    expect(byModel).toBeInstanceOf(ToolVisibilityError);
    expect(byModel).toBeInstanceOf(ClientError);
    expect(byModel).toMatchObject({ kind: "unsupported", serverId: "apps", qualifiedName: "apps_refresh", toolName: "refresh", caller: "model", visibility: ["app"] });
    expect((byModel as Error).message).toBe(`the tool apps_refresh ("refresh" of server "apps") is for its app's view alone (visibility ["app"]): a model may not call it`);
    const explicit = await client.callTool("apps_refresh", {}, { caller: "model" }).catch((error: unknown) => error);
    expect(explicit).toBeInstanceOf(ToolVisibilityError);
    const byApp = await client.callTool("apps_chart", { numbers: [1, 2] }, { caller: "app" }).catch((error: unknown) => error);
    expect(byApp).toMatchObject({ kind: "unsupported", caller: "app", visibility: ["model"] });
    expect((byApp as Error).message).toContain("is for the model alone");

    // What each may call goes through.
    expect((await client.callTool("apps_refresh", {}, { caller: "app" })).content).toEqual([{ type: "text", text: "refreshed" }]);
    expect((await client.callTool("apps_chart", { numbers: [1, 2] })).content).toEqual([{ type: "text", text: "charted 2 numbers" }]);
    const calls = (await audit()).requests.filter((request) => request.method === "tools/call").map((request) => request.tool);
    // The refused calls never reached the server: one call of each tool, the app's and the model's.
    expect(calls).toEqual(["refresh", "chart", "audit"]);
  });

  it("refuses the model's call of a name it was never shown: before any listing, and after the default view", async () => {
    const { client, audit } = await connected(version);
    // No listing yet: the catalog lists the server once to learn who may call the tool.
    await expect(client.callTool("apps_refresh")).rejects.toBeInstanceOf(ToolVisibilityError);
    await expect(client.callTool("apps_refresh")).rejects.toBeInstanceOf(ToolVisibilityError);
    // The default view leaves the tool out; the catalog still knows it, and listed afresh too.
    await client.tools();
    await expect(client.callTool("apps_refresh")).rejects.toBeInstanceOf(ToolVisibilityError);
    await client.tools({ refresh: true });
    await expect(client.callTool("apps_refresh")).rejects.toBeInstanceOf(ToolVisibilityError);
    const { requests } = await audit();
    expect(requests.filter((request) => request.method === "tools/call").map((request) => request.tool)).toEqual(["audit"]);
    // One listing for the first call alone; then those of tools() (a 2026-07-28 list without a
    // cache hint is stale at once, so there the default view lists again).
    expect(requests.filter((request) => request.method === "tools/list")).toHaveLength(era === "legacy" ? 2 : 3);
  });
});

describe("a host that declares no extension", () => {
  it("sends the capabilities it always did, and still keeps app-only tools from the model", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    await client.connect("apps", APPS, { protocolVersion: "2025-11-25" });
    const { requests } = (await client.callTool("apps_audit")).structuredContent as Audit;
    expect(requests[0]!.capabilities).toEqual({});
    expect((await client.tools()).map((tool) => tool.name)).toEqual(["chart", "audit"]);
    await expect(client.callTool("apps_refresh")).rejects.toBeInstanceOf(ToolVisibilityError);
  });
});

describe("what a server writes about visibility", () => {
  it("is read from _meta.ui alone: fields of the catalog's names are not kept, and a misreading never gives the model an app-only tool", async () => {
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const raw = track(await startRawStdio());
    raw.autoInitialize({ capabilities: { tools: {} } });
    const schema = { type: "object" };
    raw.handle("tools/list", () => ({
      tools: [
        // Top-level fields of the catalog's own names say the opposite of `_meta.ui`.
        { name: "forged", visibility: ["model"], appResourceUri: "ui://forged/view", inputSchema: schema, _meta: { ui: { visibility: ["app"] } } },
        { name: "plain", visibility: ["app"], appResourceUri: "ui://forged/view", inputSchema: schema },
        // Malformed: read as the default, so the tool is not hidden.
        { name: "odd", inputSchema: schema, _meta: { ui: { visibility: "app", resourceUri: "https://example.com/view" } } },
        { name: "flat", inputSchema: schema, _meta: { "ui/resourceUri": "ui://flat/view", ui: { visibility: ["app", "other"] } } },
      ],
    }));
    raw.handle("tools/call", () => ({ content: [] }));
    await client.connect("s", raw.target);
    const all = await client.tools({ audience: "all" });
    expect(all.map((tool) => [tool.name, tool.visibility, tool.appResourceUri])).toEqual([
      ["forged", ["app"], undefined],
      ["plain", ["model", "app"], undefined],
      ["odd", ["model", "app"], undefined],
      ["flat", ["app"], "ui://flat/view"],
    ]);
    expect(all.every((tool) => !Object.hasOwn(tool, "appResourceUri") || tool.appResourceUri !== undefined)).toBe(true);
    expect((await client.tools()).map((tool) => tool.name)).toEqual(["plain", "odd"]);
    expect(toOpenAIChatTools(all).skipped.map((report) => report.qualifiedName)).toEqual(["s_forged", "s_flat"]);
    await expect(client.callTool("s_forged")).rejects.toBeInstanceOf(ToolVisibilityError);
    await expect(client.callTool("s_flat")).rejects.toBeInstanceOf(ToolVisibilityError);
    await client.callTool("s_plain");
    const calls = (raw.messages as Array<{ method?: string; params?: { name?: string } }>).filter((message) => message.method === "tools/call");
    expect(calls.map((message) => message.params?.name)).toEqual(["plain"]);
  });
});
