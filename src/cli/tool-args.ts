/**
 * A tool's arguments from the command line: one JSON object (`'{"a": 1}'`), or `key=value`
 * pairs whose values take the type the tool's schema gives the key (`n=3` is a number where `n`
 * is a number, `tags=["a","b"]` JSON where it is an array; a string otherwise).
 */
import { CliError, EXIT } from "./exit-codes.js";

type Json = Record<string, unknown>;

export function toolArguments(tokens: readonly string[], schema: unknown): Record<string, unknown> {
  if (tokens.length === 1 && tokens[0]!.trimStart().startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(tokens[0]!);
    } catch (error) {
      throw new CliError(`the arguments are not JSON: ${(error as Error).message}`, EXIT.usage);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new CliError("the arguments must be a JSON object", EXIT.usage);
    return parsed as Record<string, unknown>;
  }
  const properties = typeof schema === "object" && schema !== null && typeof (schema as Json).properties === "object" ? ((schema as Json).properties as Json) : {};
  const args: Record<string, unknown> = {};
  for (const token of tokens) {
    const at = token.indexOf("=");
    if (at <= 0) throw new CliError(`arguments are key=value pairs or one JSON object, not ${JSON.stringify(token)}`, EXIT.usage);
    const key = token.slice(0, at);
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const type = typeof property === "object" && property !== null ? (property as Json).type : undefined;
    Object.defineProperty(args, key, { value: typed(key, token.slice(at + 1), type), enumerable: true, writable: true, configurable: true });
  }
  return args;
}

function typed(key: string, text: string, type: unknown): unknown {
  switch (type) {
    case "string":
      return text;
    case "number":
    case "integer": {
      const value = Number(text);
      if (text.trim() === "" || !Number.isFinite(value)) throw new CliError(`${key} must be a number, not ${JSON.stringify(text)}`, EXIT.usage);
      return value;
    }
    case "boolean":
      if (text === "true") return true;
      if (text === "false") return false;
      throw new CliError(`${key} must be true or false, not ${JSON.stringify(text)}`, EXIT.usage);
    case "array":
    case "object":
    case "null":
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new CliError(`${key} must be JSON (${type}), not ${JSON.stringify(text)}`, EXIT.usage);
      }
    default:
      // No type to go by: JSON when it parses as JSON (numbers, true, […]), else the text.
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
  }
}
