// Pinning through the adapters: a tool the catalog holds back ("block-changed", a swapped
// description on a real stdio server, pinned-tools-server.mjs) is never handed to a model by
// `conduit-mcp/adapters`. A search does not find it, the definitions made of `client.tools()`
// do not hold it, and an AI SDK tool made before the change fails its call with the typed error
// (nothing is sent). Once approved, the adapters give it again, with its new description.
import { fileURLToPath } from "node:url";
import * as ai7 from "ai";
import { describe, expect, it } from "vitest";
import { Client, ToolNotApprovedError, type CatalogChange } from "../../src/node.js";
import { ToolSearch, toAiSdkTools, toAnthropicTools, toOpenAIChatTools, toOpenAIResponsesTools } from "../../src/adapters/index.js";
import { capturingLogger } from "../helpers/logger.js";
import { track } from "../helpers/cleanup.js";

const SERVER = fileURLToPath(new URL("../fixtures/pinned-tools-server.mjs", import.meta.url));

async function pinned(): Promise<{ client: Client; changes: CatalogChange[] }> {
  const changes: CatalogChange[] = [];
  const client = track(new Client({ name: "pin-host", version: "1.0.0", logger: capturingLogger(), pinning: { policy: "block-changed" }, onCatalogChange: (change) => changes.push(change) }));
  await client.connect("s", { command: process.execPath, args: [SERVER] });
  return { client, changes };
}

/** The server's names of the tools each adapter makes of the catalog as it is now. */
async function given(client: Client): Promise<Record<string, string[]>> {
  const catalog = await client.tools();
  const names = (list: Array<{ name: string } | { function: { name: string } }>): string[] =>
    list.map((tool) => ("function" in tool ? tool.function.name : tool.name).replace(/^s_/, "")).sort();
  return {
    aiSdk: Object.values(toAiSdkTools(catalog, client, { jsonSchema: ai7.jsonSchema, aiVersion: 7 }).tools).map((tool) => tool.metadata.toolName).sort(),
    openaiChat: names(toOpenAIChatTools(catalog).tools),
    openaiResponses: names(toOpenAIResponsesTools(catalog).tools),
    anthropic: names(toAnthropicTools(catalog).tools),
  };
}

const ALL = ["mutate", "read", "write"];
const HELD = ["mutate", "write"];

describe("the adapters never hand a model a tool pinning holds back", () => {
  it("search, definitions and execute: the held tool is not found, not given, and its call is refused typed", async () => {
    const { client, changes } = await pinned();
    const before = toAiSdkTools(await client.tools(), client, { jsonSchema: ai7.jsonSchema, aiVersion: 7 });
    const read = (await client.tools()).find((tool) => tool.name === "read")!.qualifiedName;
    expect(Object.keys(before.tools)).toContain(read);
    expect(await given(client)).toEqual({ aiSdk: ALL, openaiChat: ALL, openaiResponses: ALL, anthropic: ALL });

    await client.server("s")!.callTool("mutate", { op: "describe" });

    // A conversation that starts now searches and is given only what pinning lets through.
    const search = new ToolSearch(client, { limit: 5 });
    const found = await search.run({ query: "reads a file" });
    expect(found.tools.map((tool) => tool.name)).not.toContain(read);
    expect(search.names()).not.toContain(read);
    expect(await given(client)).toEqual({ aiSdk: HELD, openaiChat: HELD, openaiResponses: HELD, anthropic: HELD });
    expect(changes).toEqual([{ serverId: "s", added: [], removed: [], changed: ["read"] }]);

    // The AI SDK tool made before the change: its execute goes through client.callTool, refused.
    const refused = await before.tools[read]!.execute({ path: "a" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolNotApprovedError);
    expect(refused).toMatchObject({ kind: "unsupported", toolName: "read", reason: "changed" });

    await client.approveTools("s", ["read"]);
    expect(await given(client)).toEqual({ aiSdk: ALL, openaiChat: ALL, openaiResponses: ALL, anthropic: ALL });
    const again = await search.run({ query: "reads a file" });
    expect(again.tools.find((tool) => tool.name === read)?.description).toMatch(/id_rsa/);
    await expect(before.tools[read]!.execute({ path: "a" })).resolves.toMatchObject({ content: [{ type: "text", text: "read" }] });
  });

  it("a tool a conversation found before it changed stays in loaded() as approved, and its call is refused typed", async () => {
    const { client } = await pinned();
    const search = new ToolSearch(client, { limit: 5 });
    await search.run({ query: "reads a file" });
    const read = search.loaded().find((tool) => tool.name === "read");
    expect(read?.description).toBe("Reads a file");
    await client.server("s")!.callTool("mutate", { op: "describe" });
    // What the conversation was given is the approved definition: never the swapped text.
    const loaded = toAiSdkTools(search.loaded(), client, { jsonSchema: ai7.jsonSchema, aiVersion: 7 });
    expect(loaded.tools[read!.qualifiedName]?.description).toBe("Reads a file");
    expect(JSON.stringify(toOpenAIChatTools(search.loaded()).tools)).not.toMatch(/id_rsa/);
    await expect(loaded.tools[read!.qualifiedName]!.execute({ path: "a" })).rejects.toBeInstanceOf(ToolNotApprovedError);
  });
});
