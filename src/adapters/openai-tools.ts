/**
 * The catalog as OpenAI function tools, for Chat Completions (`tools` of
 * `chat.completions.create`) and for the Responses API (`tools` of `responses.create`).
 *
 * OpenAI takes at most 128 functions in one request: past that the request fails, so the tools
 * after the 128th (or `maxTools`) are reported in `skipped` instead. With `strict: true` each
 * schema is rewritten as strict mode requires (see strict-schema.ts); a tool whose schema
 * cannot be is given non-strict, as it was, and named in `notStrict`. Either way, pass the
 * model's `arguments` through `parseArguments` before calling the tool.
 */
import type { CatalogTool } from "../index.js";
import { asJsonObject } from "./json.js";
import { LIST_KEYS, checkBoolean, checkKeys, limitsOf } from "./options.js";
import { StrictTools, parseArguments } from "./strict-tools.js";
import { selectTools, type Accepted } from "./tool-list.js";
import type { JsonObject, ToolList, ToolListOptions, ToolReport } from "./types.js";

/** OpenAI's documented limit on the functions of one request. */
export const OPENAI_MAX_TOOLS = 128;
const KEYS = [...LIST_KEYS, "strict"];

export interface OpenAIToolsOptions extends ToolListOptions {
  /** Rewrite each schema for strict mode and set `strict: true` where that worked. Default false. */
  strict?: boolean | undefined;
}

/** A Chat Completions function tool (`ChatCompletionFunctionTool` of the `openai` package). */
export interface OpenAIChatTool {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters: JsonObject;
    strict?: boolean;
  };
}

/** A Responses API function tool (`FunctionTool` of the `openai` package). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description?: string;
  parameters: JsonObject;
  strict: boolean;
}

export interface OpenAIToolList<T> extends ToolList<T> {
  /** With `strict: true`, the tools given non-strict because their schema could not be made strict. */
  notStrict: ToolReport[];
  /**
   * The arguments of a call of tool `qualifiedName` as its server should get them, from the
   * model's JSON text: for a strict tool, the nulls strict mode made the model write for
   * properties it would have left out are taken out again. Throws a SyntaxError (not JSON) or
   * a TypeError (not an object), which the host sends back to the model as the call's output.
   */
  parseArguments(this: void, qualifiedName: string, argumentsJson: string): Record<string, unknown>;
}

/** The catalog as Chat Completions tools. */
export function toOpenAIChatTools(catalog: readonly CatalogTool[], options?: OpenAIToolsOptions): OpenAIToolList<OpenAIChatTool> {
  return build(catalog, options, (tool, parameters, strict) => ({
    type: "function",
    function: { name: tool.qualifiedName, ...describe(tool), parameters, ...(strict ? { strict } : {}) },
  }));
}

/** The catalog as Responses API tools. */
export function toOpenAIResponsesTools(catalog: readonly CatalogTool[], options?: OpenAIToolsOptions): OpenAIToolList<OpenAIResponsesTool> {
  return build(catalog, options, (tool, parameters, strict) => ({ type: "function", name: tool.qualifiedName, ...describe(tool), parameters, strict }));
}

function build<T>(catalog: readonly CatalogTool[], options: OpenAIToolsOptions | undefined, make: (tool: Accepted, parameters: JsonObject, strict: boolean) => T): OpenAIToolList<T> {
  checkKeys("OpenAI tool options", options, KEYS);
  const strictTools = new StrictTools(checkBoolean("strict", options?.strict));
  const { accepted, skipped } = selectTools(catalog, limitsOf(options, OPENAI_MAX_TOOLS));
  const tools = accepted.map((tool) => {
    const { schema, strict } = strictTools.parameters(tool);
    return make(tool, asJsonObject(schema), strict);
  });
  return {
    tools,
    skipped,
    notStrict: strictTools.notStrict,
    parseArguments: (qualifiedName, argumentsJson) => parseArguments(strictTools, qualifiedName, argumentsJson),
  };
}

function describe(tool: Accepted): { description?: string } {
  return tool.description === undefined ? {} : { description: tool.description };
}
