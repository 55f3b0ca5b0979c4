/**
 * The catalog as Vercel AI SDK tools: a record keyed by `qualifiedName`, for `tools` of
 * `generateText` / `streamText`, each tool's `execute` calling `caller.callTool` (the Client)
 * with the SDK's abort signal.
 *
 * No dependency on `ai`: the objects have the shape `dynamicTool({...})` makes in `ai@6` and
 * `ai@7` (a `type: "dynamic"` tool, the SDK's kind for tools known only at run time, such as
 * MCP's). The caller passes the SDK's own `jsonSchema` function to wrap each schema: that keeps
 * the server's schema exactly as sent; the other way in, a Standard Schema object, would have the
 * SDK set `additionalProperties: false` on every object of it. A tool's `toModelOutput` turns
 * its MCP result into what the model sees (ai-sdk-results.ts), in the shape of the major version
 * the caller names (`aiVersion`).
 *
 * Options for every call (a timeout, `assigns`) go in a caller of your own:
 * `{ callTool: (name, args, options) => client.callTool(name, args, { ...options, timeout: 30_000 }) }`.
 */
import type { CallToolResult, CatalogTool } from "../index.js";
import { isObject, setOwn, type Json } from "./json.js";
import { LIST_KEYS, checkBoolean, checkKeys, limitsOf } from "./options.js";
import { aiSdkToolOutput, checkAiVersion, type AiSdkToolOutput, type AiSdkVersion } from "./ai-sdk-results.js";
import { StrictTools } from "./strict-tools.js";
import { selectTools, type Accepted } from "./tool-list.js";
import type { JsonObject, ToolCaller, ToolListOptions, ToolReport } from "./types.js";

const KEYS = [...LIST_KEYS, "jsonSchema", "aiVersion", "strict"];

export interface AiSdkToolsOptions<Schema, V extends AiSdkVersion = AiSdkVersion> extends ToolListOptions {
  /** The AI SDK's `jsonSchema` (`import { jsonSchema } from "ai"`), applied to each tool's schema. */
  jsonSchema: (schema: JsonObject) => Schema;
  /**
   * The major version of the `ai` package in use, 6 or 7: the two take the images of a tool
   * result in different shapes (ai-sdk-results.ts), and nothing the SDK gives a tool says which
   * it is. Required; anything else is a TypeError naming what was given.
   */
  aiVersion: V;
  /**
   * Rewrite each schema for OpenAI's strict mode and mark the tool `strict` (the SDK's OpenAI
   * provider then sends `strict: true`), as `toOpenAIChatTools` does; `execute` takes out the
   * nulls strict mode makes the model write. A tool whose schema cannot be made strict stays
   * as it was and is named in `notStrict`. Default false.
   */
  strict?: boolean | undefined;
}

/** A tool as the AI SDK takes it (a dynamic `Tool` of `ai@6` and `ai@7`). */
export interface AiSdkTool<Schema, V extends AiSdkVersion = AiSdkVersion> {
  type: "dynamic";
  description?: string;
  inputSchema: Schema;
  strict?: boolean;
  /** Not sent to the model; the SDK copies it onto the tool's calls and results. */
  metadata: { serverId: string; toolName: string };
  execute(input: unknown, options?: { abortSignal?: AbortSignal | undefined }): Promise<CallToolResult>;
  toModelOutput(options: { output: unknown }): AiSdkToolOutput<V>;
}

export interface AiSdkToolSet<Schema, V extends AiSdkVersion = AiSdkVersion> {
  /** The tools, keyed by `qualifiedName`, in catalog order. */
  tools: Record<string, AiSdkTool<Schema, V>>;
  /** Tools left out: one not for the model (`visibility`), a schema the model APIs cannot take, a name they refuse, or past `maxTools`. */
  skipped: ToolReport[];
  /** With `strict: true`, the tools given non-strict because their schema could not be made strict. */
  notStrict: ToolReport[];
}

/**
 * The catalog as AI SDK tools, calling `caller` (the Client). No count bound by default; with
 * the OpenAI provider, set `maxTools: 128`.
 */
export function toAiSdkTools<Schema, V extends AiSdkVersion>(catalog: readonly CatalogTool[], caller: ToolCaller, options: AiSdkToolsOptions<Schema, V>): AiSdkToolSet<Schema, V> {
  checkKeys("AI SDK tool options", options, KEYS);
  if (typeof options?.jsonSchema !== "function") throw new TypeError('options.jsonSchema must be the AI SDK\'s jsonSchema function (import { jsonSchema } from "ai")');
  const aiVersion = checkAiVersion(options.aiVersion);
  if (typeof caller?.callTool !== "function") throw new TypeError("the caller must have callTool (pass the Client)");
  const strictTools = new StrictTools(checkBoolean("strict", options.strict));
  const { accepted, skipped } = selectTools(catalog, limitsOf(options, Infinity));
  const tools: Record<string, AiSdkTool<Schema, V>> = {};
  for (const tool of accepted) setOwn(tools, tool.qualifiedName, aiSdkTool(tool, caller, strictTools, options.jsonSchema, aiVersion));
  return { tools, skipped, notStrict: strictTools.notStrict };
}

function aiSdkTool<Schema, V extends AiSdkVersion>(tool: Accepted, caller: ToolCaller, strictTools: StrictTools, jsonSchema: (schema: JsonObject) => Schema, aiVersion: V): AiSdkTool<Schema, V> {
  const { schema, strict } = strictTools.parameters(tool);
  const { qualifiedName } = tool;
  return {
    type: "dynamic",
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: jsonSchema(schema as JsonObject),
    ...(strict ? { strict } : {}),
    metadata: { serverId: tool.serverId, toolName: tool.tool.name },
    // Async, so that input the model got wrong rejects like a failed call rather than throwing.
    async execute(input, executeOptions) {
      const args = strictTools.restore(qualifiedName, argumentsOf(qualifiedName, input));
      const signal = executeOptions?.abortSignal;
      return await caller.callTool(qualifiedName, args, signal === undefined ? undefined : { signal });
    },
    toModelOutput: ({ output }) => aiSdkToolOutput(output as CallToolResult, aiVersion),
  };
}

/** The model's input as the arguments object `tools/call` takes; nothing at all is no arguments. */
function argumentsOf(qualifiedName: string, input: unknown): Json {
  if (input === undefined || input === null) return {};
  if (!isObject(input)) throw new TypeError(`the input for ${qualifiedName} is not an object`);
  return input;
}
