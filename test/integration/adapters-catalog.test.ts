// The adapters over a catalog of real servers: the bundled notes example and the adapters
// fixture on the official server library, and a scripted server whose schemas are the kinds
// model APIs refuse. Each bad tool is reported on its own; the rest of the list is given. Real
// tool results are then turned into each API's content.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client, type CatalogTool } from "../../src/node.js";
import {
  toAnthropicToolResult,
  toAnthropicTools,
  toOpenAIChatToolMessage,
  toOpenAIChatTools,
  toOpenAIFunctionCallOutput,
  toOpenAIResponsesTools,
} from "../../src/adapters/index.js";
import { capturingLogger } from "../helpers/logger.js";
import { startRawStdio } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";

const script = (path: string) => ({ command: process.execPath, args: [fileURLToPath(new URL(path, import.meta.url))] });
const NOTES = script("../../examples/servers/notes-server.mjs");
const ADAPTERS = script("../fixtures/adapters-server.mjs");
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** Schemas servers send that no model API takes as they are, and some it takes once read right. */
const ODD_SCHEMAS: Record<string, unknown> = {
  union: { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "number" } } }] },
  scalar: { type: "string" },
  remote: { $ref: "https://example.com/schemas/args.json" },
  huge: { type: "object", properties: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`field_${i}`, { type: "string", description: "x".repeat(30) }])) },
  untyped: { properties: { q: { type: "string" } }, required: ["q"] },
  defined: { $ref: "#/$defs/args", $defs: { args: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } } },
  empty: {},
  map: { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } } } },
};

async function catalog(): Promise<{ client: Client; tools: CatalogTool[] }> {
  const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
  const raw = track(await startRawStdio());
  raw.autoInitialize({ capabilities: { tools: {} } });
  raw.handle("tools/list", () => ({ tools: Object.entries(ODD_SCHEMAS).map(([name, inputSchema]) => ({ name, description: `the ${name} tool`, inputSchema })) }));
  await client.connect("notes", NOTES);
  await client.connect("odd", raw.target);
  await client.connect("adapt", ADAPTERS);
  return { client, tools: await client.tools() };
}

const REFUSED = {
  odd_union: 'inputSchema has "anyOf" at the top level, where the model APIs take only an object schema',
  odd_scalar: 'inputSchema\'s type is "string", not "object"',
  odd_remote: 'inputSchema\'s root $ref "https://example.com/schemas/args.json" points outside the schema (it is not fetched)',
};

describe("tool definitions from a catalog of real servers", () => {
  it("gives every tool an API can take, and reports each one it cannot, for OpenAI and Anthropic alike", async () => {
    const { tools } = await catalog();
    const chat = toOpenAIChatTools(tools);
    const responses = toOpenAIResponsesTools(tools);
    const anthropic = toAnthropicTools(tools);
    for (const { skipped } of [chat, responses, anthropic]) {
      const reasons = Object.fromEntries(skipped.map((report) => [report.qualifiedName, report.reason]));
      expect(Object.keys(reasons).sort()).toEqual(["odd_huge", "odd_remote", "odd_scalar", "odd_union"]);
      expect(reasons).toMatchObject(REFUSED);
      expect(reasons["odd_huge"]).toMatch(/^inputSchema is \d+ characters of JSON, over the bound of 100000$/);
      expect(skipped.every((report) => report.serverId === "odd")).toBe(true);
    }
    const names = chat.tools.map((tool) => tool.function.name);
    expect(names).toEqual(expect.arrayContaining(["notes_add_note", "adapt_echo", "odd_untyped", "odd_defined", "odd_empty"]));
    expect(names).toHaveLength(tools.length - 4);
    expect(responses.tools.map((tool) => tool.name)).toEqual(names);
    expect(anthropic.tools.map((tool) => tool.name)).toEqual(names);

    // Read right: no type is an object; a root $ref is its definition; nothing is no parameters.
    const anthropicTool = (name: string) => anthropic.tools.find((tool) => tool.name === name)!;
    expect(anthropicTool("odd_untyped").input_schema).toEqual({ type: "object", properties: { q: { type: "string" } }, required: ["q"] });
    expect(anthropicTool("odd_defined").input_schema).toMatchObject({ type: "object", properties: { id: { type: "integer" } }, required: ["id"] });
    expect(anthropicTool("odd_empty")).toEqual({ name: "odd_empty", description: "the empty tool", input_schema: { type: "object", properties: {} } });
    expect(responses.tools.find((tool) => tool.name === "notes_add_note")).toMatchObject({
      type: "function",
      description: "Stores a note under a title",
      strict: false,
      parameters: { type: "object", properties: { title: { type: "string" }, body: { type: "string" } } },
    });
  });

  it("with strict, rewrites the schemas it can and keeps the others non-strict, naming them", async () => {
    const { tools } = await catalog();
    const { tools: strictTools, notStrict, skipped } = toOpenAIResponsesTools(tools, { strict: true });
    expect(skipped).toHaveLength(4);
    expect(notStrict).toEqual([
      { qualifiedName: "odd_map", serverId: "odd", reason: "strict mode: #/properties/tags is a map (its keys are not listed), which strict mode cannot express" },
    ]);
    const map = strictTools.find((tool) => tool.name === "odd_map")!;
    expect(map.strict).toBe(false);
    expect(map.parameters).toEqual(ODD_SCHEMAS["map"]);
    const echo = strictTools.find((tool) => tool.name === "adapt_echo")!;
    expect(echo).toMatchObject({
      strict: true,
      parameters: {
        type: "object",
        properties: { text: { type: "string" }, shout: { type: ["boolean", "null"] } },
        required: ["text", "shout"],
        additionalProperties: false,
      },
    });
    expect(echo.parameters).not.toHaveProperty("$schema");
    expect(strictTools.filter((tool) => !tool.strict).map((tool) => tool.name)).toEqual(["odd_map"]);
  });
});

describe("tool results of a real server as each API's content", () => {
  it("turns every content type into OpenAI and Anthropic content, keeping isError", async () => {
    const { client } = await catalog();
    const gallery = await client.callTool("adapt_gallery", {});
    const broken = await client.callTool("adapt_broken", {});
    const report = await client.callTool("adapt_report", {});

    const chat = toOpenAIChatToolMessage("call_1", gallery);
    expect(chat.role).toBe("tool");
    expect(chat.tool_call_id).toBe("call_1");
    expect(chat.content.split("\n")).toEqual([
      "a caption",
      "[image/png content (an image, 68 bytes) was left out: a Chat Completions tool message is text only]",
      "[audio/wav audio, 44 bytes was left out: tool results cannot carry audio]",
      "[resource link] today.md: file:///notes/today.md (text/markdown; Today's notes)",
      "[resource file:///notes/a.txt]",
      "embedded text",
      "[application/pdf content (the resource file:///docs/report.pdf, 15 bytes) was left out: a Chat Completions tool message is text only]",
      "[application/octet-stream content (the resource file:///bin/blob.dat, 3 bytes) was left out: a Chat Completions tool message is text only]",
    ]);

    const output = toOpenAIFunctionCallOutput("call_2", gallery);
    expect(output).toMatchObject({ type: "function_call_output", call_id: "call_2" });
    expect(output.output).toEqual([
      { type: "input_text", text: "a caption" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
      { type: "input_text", text: "[audio/wav audio, 44 bytes was left out: tool results cannot carry audio]" },
      { type: "input_text", text: "[resource link] today.md: file:///notes/today.md (text/markdown; Today's notes)" },
      { type: "input_text", text: "[resource file:///notes/a.txt]\nembedded text" },
      { type: "input_file", file_data: expect.stringMatching(/^data:application\/pdf;base64,/), filename: "report.pdf" },
      { type: "input_text", text: expect.stringMatching(/^\[application\/octet-stream content/) },
    ]);

    const anthropic = toAnthropicToolResult("toolu_1", gallery);
    expect(anthropic).not.toHaveProperty("is_error");
    expect(anthropic.content.map((block) => block.type)).toEqual(["text", "image", "text", "text", "text", "document", "text"]);
    expect(anthropic.content[1]).toEqual({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } });
    expect(anthropic.content[5]).toMatchObject({ type: "document", source: { type: "base64", media_type: "application/pdf" }, title: "report.pdf" });

    expect(toAnthropicToolResult("toolu_2", broken)).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_2",
      is_error: true,
      content: [
        { type: "text", text: "disk full" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    });
    expect(toOpenAIChatToolMessage("c", broken).content.split("\n")[0]).toBe("[the tool reported an error]");
    expect(toOpenAIFunctionCallOutput("c", broken).output).toEqual([
      { type: "input_text", text: "[the tool reported an error]" },
      { type: "input_text", text: "disk full" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
    ]);

    // Only structured content: given as its JSON.
    expect(toOpenAIFunctionCallOutput("c", report).output).toBe('{"total":3}');
    expect(toAnthropicToolResult("t", report).content).toEqual([{ type: "text", text: '{"total":3}' }]);
  });
});
