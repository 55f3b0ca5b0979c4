/**
 * The strict option as the OpenAI and AI SDK adapters share it: each tool's schema rewritten for
 * strict mode where it can be, the tool kept non-strict (and reported) where it cannot, and the
 * arguments the model then writes made what the server asked for.
 */
import { isObject, type Json } from "./json.js";
import { restoreOmitted } from "./strict-arguments.js";
import { toStrictSchema } from "./strict-schema.js";
import type { Accepted } from "./tool-list.js";
import type { ToolReport } from "./types.js";

export interface Parameters {
  readonly schema: Json;
  readonly strict: boolean;
}

/** Rewrites for strict mode, remembering each strict tool's own schema for `restore`. */
export class StrictTools {
  readonly notStrict: ToolReport[] = [];
  private readonly originals = new Map<string, Json>();

  constructor(private readonly wanted: boolean) {}

  parameters(tool: Accepted): Parameters {
    if (!this.wanted) return { schema: tool.schema, strict: false };
    const outcome = toStrictSchema(tool.schema);
    if (!outcome.ok) {
      this.notStrict.push({ qualifiedName: tool.qualifiedName, serverId: tool.serverId, reason: outcome.reason });
      return { schema: tool.schema, strict: false };
    }
    this.originals.set(tool.qualifiedName, tool.schema);
    return { schema: outcome.schema, strict: true };
  }

  /** The arguments for the server: the model's, less the nulls strict mode made it write. */
  restore(qualifiedName: string, args: Json): Json {
    const original = this.originals.get(qualifiedName);
    return original === undefined ? args : restoreOmitted(args, original);
  }
}

/**
 * The arguments of a function call as the server should get them. `text` is the model's JSON
 * (`arguments` of a Chat Completions tool call or a Responses `function_call`); it must be an
 * object. Throws a SyntaxError or TypeError otherwise, for the host to send back to the model.
 */
export function parseArguments(strict: StrictTools, qualifiedName: string, text: string): Record<string, unknown> {
  if (typeof text !== "string") throw new TypeError("the arguments must be the model's JSON text");
  const args: unknown = text.trim() === "" ? {} : JSON.parse(text);
  if (!isObject(args)) throw new TypeError(`the arguments for ${qualifiedName} are not a JSON object`);
  return strict.restore(qualifiedName, args);
}
