// The AI SDK adapter end to end: generateText with the SDK's mock language model calls MCP tools
// of a real server (test/fixtures/adapters-server.mjs, over stdio) through toAiSdkTools, and the
// model's next step sees each result as toModelOutput made it.
import { fileURLToPath } from "node:url";
import { generateText, isStepCount, jsonSchema } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Client, type Handler } from "../../src/index.js";
import { toAiSdkTools } from "../../src/adapters/index.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";

const SERVER = { command: process.execPath, args: [fileURLToPath(new URL("../fixtures/adapters-server.mjs", import.meta.url))] };
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
type Step = ConstructorParameters<typeof MockLanguageModelV4>[0];

/** A model that first calls the given tools, then answers "done". */
function modelCalling(calls: Array<{ toolName: string; input: string }>): MockLanguageModelV4 {
  const steps: NonNullable<Step>["doGenerate"] = [
    {
      content: calls.map((call, i) => ({ type: "tool-call" as const, toolCallId: `call-${i}`, ...call })),
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    },
    { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] },
  ];
  return new MockLanguageModelV4({ doGenerate: steps });
}

/** The tool results the model was given in its second step, by tool call id. */
function toolResultsSeen(model: MockLanguageModelV4): Record<string, unknown> {
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  const seen: Record<string, unknown> = {};
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result") seen[part.toolCallId] = part.output;
  }
  return seen;
}

async function connected(handler?: Handler, protocolVersion?: "2025-11-25"): Promise<Client> {
  const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), ...(handler ? { handler } : {}) }));
  await client.connect("adapt", SERVER, protocolVersion ? { protocolVersion } : undefined);
  return client;
}

describe("the AI SDK adapter with generateText", () => {
  it("gives the catalog to the model, runs its tool calls on the server, and shows it each result", async () => {
    const client = await connected();
    const { tools, skipped } = toAiSdkTools(await client.tools(), client, { jsonSchema });
    expect(skipped).toEqual([]);
    const model = modelCalling([
      { toolName: "adapt_gallery", input: "{}" },
      { toolName: "adapt_broken", input: "{}" },
    ]);

    const result = await generateText({ model, tools, prompt: "Show me everything", stopWhen: isStepCount(2) });

    expect(result.text).toBe("done");
    const offered = model.doGenerateCalls[0]?.tools ?? [];
    expect(offered.map((tool) => tool.name).sort()).toEqual(Object.keys(tools).sort());
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
        { type: "file", mediaType: "image/png", data: { type: "data", data: PNG } },
        { type: "text", text: "[audio/wav audio, 44 bytes was left out: tool results cannot carry audio]" },
        { type: "text", text: "[resource link] today.md: file:///notes/today.md (text/markdown; Today's notes)" },
        { type: "text", text: "[resource file:///notes/a.txt]\nembedded text" },
        { type: "file", mediaType: "application/pdf", data: { type: "data", data: expect.any(String) }, filename: "report.pdf" },
        expect.objectContaining({ type: "text", text: expect.stringMatching(/^\[application\/octet-stream content \(the resource file:\/\/\/bin\/blob\.dat, 3 bytes\) was left out/) }),
      ],
    });
    expect(seen["call-1"]).toEqual({
      type: "error-text",
      value: "disk full\n[image/png content (an image, 68 bytes) was left out: an error result is text only]",
    });
  });

  it("with strict, sends the strict schema and takes out the nulls it makes the model write before the server sees them", async () => {
    const client = await connected();
    const { tools, notStrict } = toAiSdkTools(await client.tools(), client, { jsonSchema, strict: true });
    expect(notStrict).toEqual([]);
    const model = modelCalling([{ toolName: "adapt_echo", input: JSON.stringify({ text: "quiet please", shout: null }) }]);

    const result = await generateText({ model, tools, prompt: "Echo", stopWhen: isStepCount(2) });

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
    const { tools } = toAiSdkTools(await client.tools(), client, { jsonSchema });
    const controller = new AbortController();
    const model = modelCalling([{ toolName: "adapt_hang", input: "{}" }]);

    const run = generateText({ model, tools, prompt: "Wait", stopWhen: isStepCount(2), abortSignal: controller.signal });
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
