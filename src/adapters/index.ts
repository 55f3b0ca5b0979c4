/**
 * `conduit-mcp/adapters`: the catalog (`client.tools()`) as the tool definitions of OpenAI
 * (Chat Completions and Responses), Anthropic and the Vercel AI SDK, and a tool result as each
 * one's content. No runtime dependency: the shapes are written here, from each API's docs.
 *
 * A tool an API cannot take (its schema, its name, one past the count limit) is reported in
 * `skipped` with the reason, never thrown: one bad tool in a request fails the whole request.
 */
export type { JsonObject, JsonValue, ToolCaller, ToolList, ToolListOptions, ToolReport } from "./types.js";
export { OPENAI_MAX_TOOLS, toOpenAIChatTools, toOpenAIResponsesTools, type OpenAIChatTool, type OpenAIResponsesTool, type OpenAIToolList, type OpenAIToolsOptions } from "./openai-tools.js";
export { toAnthropicTools, type AnthropicTool, type AnthropicToolsOptions } from "./anthropic-tools.js";
export { toAiSdkTools, type AiSdkTool, type AiSdkToolSet, type AiSdkToolsOptions } from "./ai-sdk-tools.js";
export {
  OPENAI_ERROR_LINE,
  toOpenAIChatImageParts,
  toOpenAIChatToolMessage,
  toOpenAIFunctionCallOutput,
  type OpenAIChatImagePart,
  type OpenAIChatToolMessage,
  type OpenAIFunctionCallOutput,
  type OpenAIOutputPart,
} from "./openai-results.js";
export { toAnthropicToolResult, type AnthropicImageMediaType, type AnthropicToolResult, type AnthropicToolResultBlock } from "./anthropic-results.js";
export { AI_SDK_VERSIONS, toAiSdkToolOutput, type AiSdk6MediaPart, type AiSdk7FilePart, type AiSdkContentPart, type AiSdkOutputOptions, type AiSdkToolOutput, type AiSdkVersion } from "./ai-sdk-results.js";
export { NO_CONTENT } from "./result-parts.js";
export { TOOL_SEARCH_NAME, ToolSearch, type AiSdkSearchTool, type ToolSearchFound, type ToolSearchSource, type ToolSearchToolOptions } from "./tool-search-tool.js";
