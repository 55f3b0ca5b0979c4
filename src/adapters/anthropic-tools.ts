/**
 * The catalog as Anthropic Messages API tools (`tools` of `messages.create`): a name, a
 * description and an `input_schema` whose root is an object schema, which the API requires
 * (and it refuses `oneOf`, `anyOf` or `allOf` at the top level, for the whole request).
 * Below the root the schema is the server's, as it sent it.
 */
import type { CatalogTool } from "../index.js";
import { LIST_KEYS, checkKeys, limitsOf } from "./options.js";
import { selectTools } from "./tool-list.js";
import type { JsonValue, ToolList, ToolListOptions } from "./types.js";

/** An Anthropic client tool (`Tool` of the `@anthropic-ai/sdk` package). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: "object"; [keyword: string]: JsonValue };
}

export type AnthropicToolsOptions = ToolListOptions;

/** The catalog as Anthropic tools. No count bound by default (`maxTools` sets one). */
export function toAnthropicTools(catalog: readonly CatalogTool[], options?: AnthropicToolsOptions): ToolList<AnthropicTool> {
  checkKeys("Anthropic tool options", options, LIST_KEYS);
  const { accepted, skipped } = selectTools(catalog, limitsOf(options, Infinity));
  const tools = accepted.map(({ qualifiedName, description, schema }): AnthropicTool => ({
    name: qualifiedName,
    ...(description === undefined ? {} : { description }),
    input_schema: schema as AnthropicTool["input_schema"],
  }));
  return { tools, skipped };
}
