// The tool_search meta-tool (issue 25) in a model loop: generateText (ai@7) with the SDK's mock
// model is offered tool_search alone, searches, is offered the tool found on the next step (the
// AI SDK's activeTools), calls it on a real server (adapters-server.mjs over stdio), and ends.
// The OpenAI and Anthropic forms of the meta-tool, its checks of the model's input, and
// Anthropic's defer_loading.
import { fileURLToPath } from "node:url";
import * as ai7 from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Client } from "../../src/node.js";
import { TOOL_SEARCH_NAME, ToolSearch, toAiSdkTools, toAnthropicTools } from "../../src/adapters/index.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";

const SERVER = { command: process.execPath, args: [fileURLToPath(new URL("../fixtures/adapters-server.mjs", import.meta.url))] };
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const toolStep = (toolName: string, input: unknown, id: string) => ({
  content: [{ type: "tool-call" as const, toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls" as const, raw: undefined },
  usage,
  warnings: [],
});

async function connected(): Promise<Client> {
  const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
  await client.connect("adapt", SERVER);
  return client;
}

describe("the tool_search meta-tool", () => {
  it("lets a model search, be given the tool found, and call it (AI SDK loop)", async () => {
    const client = await connected();
    const search = new ToolSearch(client, { limit: 1 });
    const all = toAiSdkTools(await client.tools(), client, { jsonSchema: ai7.jsonSchema, aiVersion: 7 });
    const echo = (await client.tools()).find((tool) => tool.name === "echo")!.qualifiedName;
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolStep(TOOL_SEARCH_NAME, { query: "echo text in capitals" }, "search-1"),
        toolStep(echo, { text: "found", shout: true }, "call-1"),
        { content: [{ type: "text" as const, text: "done" }], finishReason: { unified: "stop" as const, raw: undefined }, usage, warnings: [] },
      ],
    });
    const result = await ai7.generateText({
      model,
      tools: { ...all.tools, [search.name]: search.toAiSdkTool(ai7.jsonSchema) },
      // The model sees the meta-tool, and what it found so far: never the whole catalog.
      prepareStep: () => ({ activeTools: [search.name, ...search.names()] }),
      prompt: "Shout 'found'",
      stopWhen: ai7.isStepCount(3),
    });
    expect(result.text).toBe("done");
    const offered = model.doGenerateCalls.map((call) => (call.tools ?? []).map((tool) => tool.name).sort());
    expect(offered[0]).toEqual([TOOL_SEARCH_NAME]);
    expect(offered[1]).toEqual([echo, TOOL_SEARCH_NAME].sort());
    expect(search.names()).toEqual([echo]);
    const results = result.steps.flatMap((step) => step.toolResults);
    expect(results[0]).toMatchObject({ toolName: TOOL_SEARCH_NAME, output: { tools: [{ name: echo }] } });
    expect(results[1]?.toolName).toBe(echo);
    expect(JSON.stringify(results[1]?.output)).toContain("FOUND");
  });

  it("checks the model's input and hands back the same definition to each API", async () => {
    const client = await connected();
    const search = new ToolSearch(client);
    for (const bad of [null, [], {}, { query: "" }, { query: 7 }, { query: "x".repeat(1001) }, { query: "echo", limit: 0 }, { query: "echo", limit: 51 }, { query: "echo", limit: 1.5 }]) {
      await expect(search.run(bad), JSON.stringify(bad)).rejects.toBeInstanceOf(TypeError);
    }
    expect(search.loaded()).toEqual([]);
    const found = await search.run({ query: "echoes text" });
    expect(found.tools[0]?.name).toBe(search.loaded()[0]?.qualifiedName);
    expect(search.toOpenAIChatTool()).toEqual({ type: "function", function: { name: "tool_search", description: search.description, parameters: search.inputSchema } });
    expect(search.toAnthropicTool()).toMatchObject({ name: "tool_search", input_schema: { type: "object", required: ["query"] } });
    expect(() => new ToolSearch(client, { limit: 0 })).toThrow(TypeError);
    expect(() => new ToolSearch(client, { name: "has space" })).toThrow(TypeError);
    expect(() => new ToolSearch({} as never)).toThrow(TypeError);
  });

  it("marks Anthropic tools defer_loading when asked, and only then", async () => {
    const client = await connected();
    const tools = await client.tools();
    expect(toAnthropicTools(tools, { deferLoading: true }).tools.every((tool) => tool.defer_loading === true)).toBe(true);
    expect(toAnthropicTools(tools).tools.some((tool) => "defer_loading" in tool)).toBe(false);
    expect(() => toAnthropicTools(tools, { deferLoading: "yes" as never })).toThrow(TypeError);
  });
});
