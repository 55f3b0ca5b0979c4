// The AI SDK adapter end to end, under both majors of the SDK (`ai` is 7, `ai-6` is ai@6):
// generateText with the SDK's own mock language model calls MCP tools of a real server
// (test/fixtures/adapters-server.mjs, over stdio) through toAiSdkTools, and the model's next step
// sees each result as toModelOutput made it, in the shape that major takes, without a warning.
import { fileURLToPath } from "node:url";
import * as ai7 from "ai";
import * as ai6 from "ai-6";
import { MockLanguageModelV4 } from "ai/test";
import { MockLanguageModelV3 } from "ai-6/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type Handler } from "../../src/node.js";
import { toAiSdkTools, type AiSdkToolSet } from "../../src/adapters/index.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";

const SERVER = { command: process.execPath, args: [fileURLToPath(new URL("../fixtures/adapters-server.mjs", import.meta.url))] };
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The model's two steps: the given tool calls, then the text "done". Both majors take this shape. */
function steps(calls: Array<{ toolName: string; input: string }>) {
  return [
    {
      content: calls.map((call, i) => ({ type: "tool-call" as const, toolCallId: `call-${i}`, ...call })),
      finishReason: { unified: "tool-calls" as const, raw: undefined },
      usage,
      warnings: [],
    },
    { content: [{ type: "text" as const, text: "done" }], finishReason: { unified: "stop" as const, raw: undefined }, usage, warnings: [] },
  ];
}

/** What the tests read of a mock model and of a generateText result, the same in both majors. */
interface ModelSeen {
  doGenerateCalls: ReadonlyArray<{ tools?: ReadonlyArray<{ name: string }> | undefined; prompt: ReadonlyArray<{ role: string; content: unknown }> }>;
}
interface Generated {
  text: string;
  steps: ReadonlyArray<{ toolResults: ReadonlyArray<{ toolName: string; output: unknown }> }>;
}
interface Run {
  tools: AiSdkToolSet<unknown>;
  model: ModelSeen;
  run: Promise<Generated>;
}
interface RunOptions {
  calls: Array<{ toolName: string; input: string }>;
  strict?: boolean;
  abortSignal?: AbortSignal;
}

/** One major of the SDK: its own jsonSchema, generateText and mock model, and the media shapes it takes. */
interface Sdk {
  aiVersion: 6 | 7;
  generate(client: Client, options: RunOptions): Promise<Run>;
  image(mediaType: string, data: unknown): unknown;
  file(mediaType: string, data: unknown, filename: string): unknown;
}

// Each `generate` passes the adapter's tools to that major's generateText as they are: the call
// type-checks against that major's ToolSet.
const SDKS: Sdk[] = [
  {
    aiVersion: 7,
    async generate(client, { calls, strict, abortSignal }) {
      const tools = toAiSdkTools(await client.tools(), client, { jsonSchema: ai7.jsonSchema, aiVersion: 7, strict });
      const model = new MockLanguageModelV4({ doGenerate: steps(calls) });
      const run = ai7.generateText({ model, tools: tools.tools, prompt: "Go", stopWhen: ai7.isStepCount(2), abortSignal });
      return { tools, model, run };
    },
    image: (mediaType, data) => ({ type: "file", mediaType, data: { type: "data", data } }),
    file: (mediaType, data, filename) => ({ type: "file", mediaType, data: { type: "data", data }, filename }),
  },
  {
    aiVersion: 6,
    async generate(client, { calls, strict, abortSignal }) {
      const tools = toAiSdkTools(await client.tools(), client, { jsonSchema: ai6.jsonSchema, aiVersion: 6, strict });
      const model = new MockLanguageModelV3({ doGenerate: steps(calls) });
      const run = ai6.generateText({ model, tools: tools.tools, prompt: "Go", stopWhen: ai6.stepCountIs(2), abortSignal });
      return { tools, model, run };
    },
    image: (mediaType, data) => ({ type: "image-data", mediaType, data }),
    file: (mediaType, data, filename) => ({ type: "file-data", mediaType, data, filename }),
  },
];

/** The tool results the model was given in its second step, by tool call id. */
function toolResultsSeen(model: ModelSeen): Record<string, unknown> {
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  const seen: Record<string, unknown> = {};
  for (const message of prompt) {
    if (message.role !== "tool" || !Array.isArray(message.content)) continue;
    for (const part of message.content as Array<{ type: string; toolCallId: string; output: unknown }>) if (part.type === "tool-result") seen[part.toolCallId] = part.output;
  }
  return seen;
}

async function connected(handler?: Handler, protocolVersion?: "2025-11-25"): Promise<Client> {
  const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), ...(handler ? { handler } : {}) }));
  await client.connect("adapt", SERVER, protocolVersion ? { protocolVersion } : undefined);
  return client;
}

// Both majors report through this global what they would otherwise print (deprecated shapes,
// parts a provider cannot take); the tests assert there is nothing.
const sdkWarnings: unknown[] = [];
const globals = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
let previousLogger: unknown;
beforeAll(() => {
  previousLogger = globals.AI_SDK_LOG_WARNINGS;
  globals.AI_SDK_LOG_WARNINGS = ({ warnings }: { warnings: unknown[] }) => sdkWarnings.push(...warnings);
});
afterAll(() => {
  globals.AI_SDK_LOG_WARNINGS = previousLogger;
});

describe.for(SDKS)("the AI SDK adapter with generateText of ai@$aiVersion", (sdk) => {
  it("gives the catalog to the model, runs its tool calls on the server, and shows it each result in this major's shape", async () => {
    const client = await connected();
    sdkWarnings.length = 0;
    const { tools, model, run } = await sdk.generate(client, {
      calls: [
        { toolName: "adapt_gallery", input: "{}" },
        { toolName: "adapt_broken", input: "{}" },
      ],
    });
    expect(tools.skipped).toEqual([]);

    const result = await run;

    expect(result.text).toBe("done");
    const offered = model.doGenerateCalls[0]?.tools ?? [];
    expect(offered.map((tool) => tool.name).sort()).toEqual(Object.keys(tools.tools).sort());
    expect(offered.find((tool) => tool.name === "adapt_echo")).toMatchObject({
      type: "function",
      description: "Echoes the text, in capitals when shout is true",
      inputSchema: { type: "object", properties: { text: { type: "string" }, shout: { type: "boolean" } }, required: ["text"] },
    });
    // execute returned the server's own result.
    const gallery = result.steps[0]?.toolResults.find((item) => item.toolName === "adapt_gallery");
    expect(gallery?.output).toMatchObject({ content: expect.arrayContaining([{ type: "text", text: "a caption" }]) });

    const seen = toolResultsSeen(model);
    expect(seen["call-0"]).toEqual({
      type: "content",
      value: [
        { type: "text", text: "a caption" },
        sdk.image("image/png", PNG),
        { type: "text", text: "[audio/wav audio, 44 bytes was left out: tool results cannot carry audio]" },
        { type: "text", text: "[resource link] today.md: file:///notes/today.md (text/markdown; Today's notes)" },
        { type: "text", text: "[resource file:///notes/a.txt]\nembedded text" },
        sdk.file("application/pdf", expect.any(String), "report.pdf"),
        expect.objectContaining({ type: "text", text: expect.stringMatching(/^\[application\/octet-stream content \(the resource file:\/\/\/bin\/blob\.dat, 3 bytes\) was left out/) }),
      ],
    });
    expect(seen["call-1"]).toEqual({
      type: "error-text",
      value: "disk full\n[image/png content (an image, 68 bytes) was left out: an error result is text only]",
    });
    // Neither major had anything to say about the shapes it was given (ai@7 warns on ai@6's).
    expect(sdkWarnings).toEqual([]);
  });

  it("with strict, sends the strict schema and takes out the nulls it makes the model write before the server sees them", async () => {
    const client = await connected();
    const { tools, model, run } = await sdk.generate(client, { calls: [{ toolName: "adapt_echo", input: JSON.stringify({ text: "quiet please", shout: null }) }], strict: true });
    expect(tools.notStrict).toEqual([]);

    const result = await run;

    expect(model.doGenerateCalls[0]?.tools?.find((tool) => tool.name === "adapt_echo")).toMatchObject({
      strict: true,
      inputSchema: {
        type: "object",
        properties: { text: { type: "string" }, shout: { type: ["boolean", "null"] } },
        required: ["text", "shout"],
        additionalProperties: false,
      },
    });
    // The server's own validation refuses `shout: null`; the call succeeded, so it never saw it.
    expect(toolResultsSeen(model)["call-0"]).toEqual({ type: "text", value: "quiet please" });
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ content: [{ type: "text", text: "quiet please" }] });
  });

  it("passes the SDK's abort signal to callTool: aborting generateText cancels the call on the server", async () => {
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => (waiting = resolve));
    const handler: Handler = { handleLog: (_level, params) => (params.data === "hang: waiting" ? waiting() : undefined) };
    const client = await connected(handler, "2025-11-25");
    const controller = new AbortController();
    const { model, run } = await sdk.generate(client, { calls: [{ toolName: "adapt_hang", input: "{}" }], abortSignal: controller.signal });

    const outcome = run.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await started;
    controller.abort();
    const ended = await outcome;

    // The model never got a second step with a result of the cancelled call.
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(ended).toEqual({ error: expect.objectContaining({ name: "AbortError" }) });
    // One pipe: the server read the cancellation before this call.
    const counted = await client.callTool("adapt_cancellations", {});
    expect(counted.structuredContent).toEqual({ count: 1 });
  });
});
