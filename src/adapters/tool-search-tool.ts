/**
 * A `tool_search` meta-tool for catalogs too big to hand a model whole: the model is given this
 * one tool, searches the catalog with it (`client.searchTools`, BM25, deterministic), and the
 * tools it found are what the host hands it from then on (`loaded()`, in the order found, for the
 * rest of the conversation). One `ToolSearch` per conversation: what it found is that
 * conversation's.
 *
 * The model's input is checked like any caller's: a query that is not a non-empty string of at
 * most 1 000 characters, or a `limit` outside 1–50, is a TypeError, which the model APIs' loops
 * hand back to the model as the tool's error. A search lists what the catalog has not listed,
 * and so connects a lazy server, as `client.tools()` does.
 */
import type { CatalogTool, ToolSearchHit } from "../index.js";
import type { AnthropicTool } from "./anthropic-tools.js";
import type { OpenAIChatTool } from "./openai-tools.js";
import type { JsonObject } from "./types.js";

export const TOOL_SEARCH_NAME = "tool_search";
const MAX_QUERY = 1_000;
const MAX_LIMIT = 50;

/** What a ToolSearch searches: the Client. */
export interface ToolSearchSource {
  searchTools(query: string, options?: { limit?: number | undefined }): Promise<readonly ToolSearchHit[]>;
}

export interface ToolSearchToolOptions {
  /** Tools a search returns when the model names no `limit` (default 5). */
  limit?: number | undefined;
  /** The meta-tool's name (default `tool_search`). */
  name?: string | undefined;
}

/** What a search answers the model: the tools found, by the names to call them with. */
export interface ToolSearchFound {
  tools: Array<{ name: string; description?: string }>;
}

/** The meta-tool as the AI SDK takes it (a dynamic tool). */
export interface AiSdkSearchTool<Schema> {
  type: "dynamic";
  description: string;
  inputSchema: Schema;
  execute(input: unknown): Promise<ToolSearchFound>;
}

const DESCRIPTION =
  "Search the tools available to you by what they do. Returns the names and descriptions of the best matches; " +
  "the tools found can be called from the next turn on.";

export class ToolSearch {
  readonly name: string;
  readonly description = DESCRIPTION;
  readonly inputSchema: JsonObject;
  private readonly limit: number;
  private readonly found = new Map<string, CatalogTool>();

  constructor(
    private readonly source: ToolSearchSource,
    options: ToolSearchToolOptions = {},
  ) {
    if (typeof source?.searchTools !== "function") throw new TypeError("a ToolSearch needs a source with searchTools (the Client)");
    this.limit = limitOf("limit", options.limit ?? 5);
    this.name = options.name ?? TOOL_SEARCH_NAME;
    if (typeof this.name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(this.name)) throw new TypeError(`a tool search's name must be 1–64 letters, digits, _ or -, got ${JSON.stringify(this.name)}`);
    this.inputSchema = {
      type: "object",
      properties: {
        query: { type: "string", description: "What the tool should do, in a few words" },
        limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, description: `How many tools to return (default ${this.limit})` },
      },
      required: ["query"],
      additionalProperties: false,
    };
  }

  /** Runs the model's search; the tools found join `loaded()`. */
  async run(input: unknown): Promise<ToolSearchFound> {
    if (typeof input !== "object" || input === null || Array.isArray(input)) throw new TypeError("tool_search takes an object: { query, limit? }");
    const { query, limit } = input as { query?: unknown; limit?: unknown };
    if (typeof query !== "string" || query.trim() === "" || query.length > MAX_QUERY) throw new TypeError(`tool_search's query must be a non-empty string of at most ${MAX_QUERY} characters`);
    const hits = await this.source.searchTools(query, { limit: limit === undefined ? this.limit : limitOf("tool_search's limit", limit) });
    for (const hit of hits) this.found.set(hit.tool.qualifiedName, hit.tool);
    return { tools: hits.map(({ tool }) => (tool.description === undefined ? { name: tool.qualifiedName } : { name: tool.qualifiedName, description: tool.description })) };
  }

  /** The tools found so far, in the order found: convert them with the adapter of the model's API. */
  loaded(): CatalogTool[] {
    return [...this.found.values()];
  }

  /** The qualified names of `loaded()` (for the AI SDK's `activeTools`). */
  names(): string[] {
    return [...this.found.keys()];
  }

  toOpenAIChatTool(): OpenAIChatTool {
    return { type: "function", function: { name: this.name, description: this.description, parameters: this.inputSchema } };
  }

  toAnthropicTool(): AnthropicTool {
    return { name: this.name, description: this.description, input_schema: this.inputSchema as AnthropicTool["input_schema"] };
  }

  /** The meta-tool for the AI SDK; `jsonSchema` is the SDK's own (`import { jsonSchema } from "ai"`). */
  toAiSdkTool<Schema>(jsonSchema: (schema: JsonObject) => Schema): AiSdkSearchTool<Schema> {
    return { type: "dynamic", description: this.description, inputSchema: jsonSchema(this.inputSchema), execute: (input) => this.run(input) };
  }
}

function limitOf(what: string, value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_LIMIT) return value;
  throw new TypeError(`${what} must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(value)}`);
}
