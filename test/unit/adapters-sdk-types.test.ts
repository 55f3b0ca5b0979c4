// The adapters' shapes against the SDKs' own types (the AI SDK's in both majors, `ai` being 7 and
// `ai-6` ai@6): `npx tsc` checks each assignment below, and
// each `@ts-expect-error` proves a wrong shape is refused (were the types to decay to `any`,
// the directive itself would be the error). At run time, each SDK client sends the definitions
// and results to a loopback server exactly as the adapters made them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ToolResultPart, ToolSet } from "ai";
import { jsonSchema } from "ai";
import type { ToolResultPart as ToolResultPart6, ToolSet as ToolSet6 } from "ai-6";
import { jsonSchema as jsonSchema6 } from "ai-6";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallToolResult, CatalogTool } from "../../src/node.js";
import {
  toAiSdkToolOutput,
  toAiSdkTools,
  toAnthropicToolResult,
  toAnthropicTools,
  toOpenAIChatImageParts,
  toOpenAIChatToolMessage,
  toOpenAIChatTools,
  toOpenAIFunctionCallOutput,
  toOpenAIResponsesTools,
  type ToolCaller,
} from "../../src/adapters/index.js";

const catalog: CatalogTool[] = [
  { name: "search", serverId: "docs", qualifiedName: "docs_search", visibility: ["model", "app"], description: "Searches", inputSchema: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer" } }, required: ["q"] } },
];
const result: CallToolResult = {
  content: [
    { type: "text", text: "2 hits" },
    { type: "image", data: "AAAA", mimeType: "image/png" },
  ],
};
const caller: ToolCaller = { callTool: () => Promise.resolve(result) };

// OpenAI, Chat Completions.
const chatTools: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAIChatTools(catalog, { strict: true }).tools;
const chatMessage: OpenAI.Chat.Completions.ChatCompletionToolMessageParam = toOpenAIChatToolMessage("call_1", result);
const chatImages: OpenAI.Chat.Completions.ChatCompletionContentPartImage[] = toOpenAIChatImageParts(result);
const chatHistory: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [chatMessage, { role: "user", content: chatImages }];
// OpenAI, Responses.
const responsesTools: OpenAI.Responses.FunctionTool[] = toOpenAIResponsesTools(catalog, { strict: true }).tools;
const responsesTool: OpenAI.Responses.Tool = responsesTools[0]!;
const functionOutput: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = toOpenAIFunctionCallOutput("call_1", result);
const responsesInput: OpenAI.Responses.ResponseInputItem[] = [functionOutput];
// Anthropic.
const anthropicTools: Anthropic.Messages.Tool[] = toAnthropicTools(catalog).tools;
const anthropicUnion: Anthropic.Messages.ToolUnion[] = anthropicTools;
const toolResult: Anthropic.Messages.ToolResultBlockParam = toAnthropicToolResult("toolu_1", result);
const anthropicMessage: Anthropic.Messages.MessageParam = { role: "user", content: [toolResult] };
// AI SDK 7, and 6, each in the shape its major takes.
const aiTools: ToolSet = toAiSdkTools(catalog, caller, { jsonSchema, aiVersion: 7 }).tools;
const aiOutput: ToolResultPart["output"] = toAiSdkToolOutput(result, { aiVersion: 7 });
const ai6Tools: ToolSet6 = toAiSdkTools(catalog, caller, { jsonSchema: jsonSchema6, aiVersion: 6 }).tools;
const ai6Output: ToolResultPart6["output"] = toAiSdkToolOutput(result, { aiVersion: 6 });

// Wrong shapes are refused.
// @ts-expect-error: a Responses tool has no `function` member, so it is no Chat Completions tool.
const chatFromResponses: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAIResponsesTools(catalog).tools;
// @ts-expect-error: a Chat Completions tool has no `name` and `parameters` of its own.
const responsesFromChat: OpenAI.Responses.FunctionTool[] = toOpenAIChatTools(catalog).tools;
// @ts-expect-error: an OpenAI tool message is not an Anthropic tool_result block.
const resultFromChat: Anthropic.Messages.ToolResultBlockParam = chatMessage;
// @ts-expect-error: an Anthropic tool has no `type: "function"`.
const chatFromAnthropic: OpenAI.Chat.Completions.ChatCompletionTool[] = anthropicTools;
// @ts-expect-error: a plain JSON schema is not the AI SDK's schema type; jsonSchema must wrap it.
const aiFromPlainSchema: ToolSet = toAiSdkTools(catalog, caller, { jsonSchema: (schema) => schema, aiVersion: 7 }).tools;
// @ts-expect-error: the same in ai@6.
const ai6FromPlainSchema: ToolSet6 = toAiSdkTools(catalog, caller, { jsonSchema: (schema) => schema, aiVersion: 6 }).tools;
// @ts-expect-error: an Anthropic tool_result is not an AI SDK tool output.
const aiFromAnthropic: ToolResultPart["output"] = toolResult;
// @ts-expect-error: ai@7's media parts (`file`) are not among ai@6's, so its tools are no ai@6 ToolSet.
const ai6From7: ToolSet6 = toAiSdkTools(catalog, caller, { jsonSchema: jsonSchema6, aiVersion: 7 }).tools;
// @ts-expect-error: nor is its output.
const ai6OutputFrom7: ToolResultPart6["output"] = toAiSdkToolOutput(result, { aiVersion: 7 });
// @ts-expect-error: 8 is no major this adapter knows (a function, as the call throws a TypeError).
const aiOfNoMajor = () => toAiSdkTools(catalog, caller, { jsonSchema, aiVersion: 8 });
void [responsesTool, anthropicUnion, anthropicMessage, aiTools, aiOutput, ai6Tools, ai6Output, chatFromResponses, responsesFromChat, resultFromChat, chatFromAnthropic, aiFromPlainSchema, ai6FromPlainSchema, aiFromAnthropic, ai6From7, ai6OutputFrom7, aiOfNoMajor];

/** A loopback API that records each request body and answers with an empty reply of the right kind. */
let server: Server;
let baseURL: string;
const bodies: unknown[] = [];
const REPLIES: Record<string, unknown> = {
  "/v1/chat/completions": { id: "c", object: "chat.completion", created: 0, model: "m", choices: [] },
  "/v1/responses": { id: "r", object: "response", created_at: 0, model: "m", output: [], status: "completed" },
  "/v1/messages": { id: "m", type: "message", role: "assistant", model: "m", content: [], stop_reason: "end_turn", usage: { input_tokens: 0, output_tokens: 0 } },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      bodies.push(JSON.parse(body));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(REPLIES[request.url ?? ""] ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))));

describe("the SDK clients", () => {
  it("send the OpenAI definitions and results as the adapters made them", async () => {
    const openai = new OpenAI({ apiKey: "test", baseURL: `${baseURL}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({ model: "m", messages: chatHistory, tools: chatTools });
    await openai.responses.create({ model: "m", input: responsesInput, tools: responsesTools });
    expect(bodies.splice(0)).toEqual([
      { model: "m", messages: JSON.parse(JSON.stringify(chatHistory)), tools: JSON.parse(JSON.stringify(chatTools)) },
      { model: "m", input: JSON.parse(JSON.stringify(responsesInput)), tools: JSON.parse(JSON.stringify(responsesTools)) },
    ]);
    expect(chatTools[0]).toMatchObject({ type: "function", function: { name: "docs_search", strict: true, parameters: { required: ["q", "limit"] } } });
  });

  it("send the Anthropic definitions and results as the adapters made them", async () => {
    const anthropic = new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 });
    await anthropic.messages.create({ model: "m", max_tokens: 16, messages: [anthropicMessage], tools: anthropicTools });
    expect(bodies.splice(0)).toEqual([{ model: "m", max_tokens: 16, messages: JSON.parse(JSON.stringify([anthropicMessage])), tools: JSON.parse(JSON.stringify(anthropicTools)) }]);
    expect(toolResult.content).toEqual([
      { type: "text", text: "2 hits" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
    ]);
  });
});
