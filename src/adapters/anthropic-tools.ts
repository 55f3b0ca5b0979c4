/**
 * The catalog as Anthropic Messages API tools (`tools` of `messages.create`): a name, a
 * description and an `input_schema` whose root is an object schema, which the API requires
 * (and it refuses `oneOf`, `anyOf` or `allOf` at the top level, for the whole request).
 * Below the root the schema is the server's, as it sent it.
 */
import type { CatalogTool } from "../index.js";
import { LIST_KEYS, checkBoolean, checkKeys, limitsOf } from "./options.js";
import { selectTools } from "./tool-list.js";
import type { JsonValue, ToolList, ToolListOptions } from "./types.js";

/** An Anthropic client tool (`Tool` of the `@anthropic-ai/sdk` package). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: "object"; [keyword: string]: JsonValue };
  /** Anthropic's tool search: the definition is loaded only when the API's search finds it. */
  defer_loading?: boolean;
}

export interface AnthropicToolsOptions extends ToolListOptions {
  /**
   * Mark every tool `defer_loading: true`, for Anthropic's own tool search (a server tool such
   * as `tool_search_tool_bm25` beside them): the model sees a tool's definition only once the
   * API's search found it. Default false.
   */
  deferLoading?: boolean | undefined;
}

const KEYS = [...LIST_KEYS, "deferLoading"];

/** The catalog as Anthropic tools. No count bound by default (`maxTools` sets one). */
export function toAnthropicTools(catalog: readonly CatalogTool[], options?: AnthropicToolsOptions): ToolList<AnthropicTool> {
  checkKeys("Anthropic tool options", options, KEYS);
  const deferred = checkBoolean("deferLoading", options?.deferLoading);
  const { accepted, skipped } = selectTools(catalog, limitsOf(options, Infinity));
  const tools = accepted.map(({ qualifiedName, description, schema }): AnthropicTool => ({
    name: qualifiedName,
    ...(description === undefined ? {} : { description }),
    input_schema: schema as AnthropicTool["input_schema"],
    ...(deferred ? { defer_loading: true } : {}),
  }));
  return { tools, skipped };
}
