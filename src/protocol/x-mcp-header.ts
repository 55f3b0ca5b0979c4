/**
 * `x-mcp-header` annotations in a tool's input schema (2026-07-28 server/tools): which
 * arguments are mirrored into `Mcp-Param-{Name}` headers. An annotation is valid when its name
 * is a non-empty HTTP token, unique (ignoring case) in the schema, on a string, integer or
 * boolean property, and that property is reachable from the root through `properties` keys
 * alone. A tool with any invalid annotation MUST be dropped from the list a client exposes
 * over Streamable HTTP.
 */
import { isObject } from "../util/json.js";
import { quote } from "../util/text.js";

export interface HeaderParam {
  /** The `{Name}` of `Mcp-Param-{Name}`, as the schema spells it. */
  name: string;
  /** Property keys from the root to the argument. */
  path: readonly string[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(["string", "integer", "boolean"]);
/** Keywords whose values are data, not schemas: an `x-mcp-header` key inside them is no annotation. */
const VALUE_KEYWORDS = new Set(["enum", "const", "default", "examples"]);

export type HeaderParams = { ok: true; params: HeaderParam[] } | { ok: false; reason: string };

/**
 * How deep a schema is walked. A tool's schema nested deeper than this is refused like an
 * invalid annotation (the walk is recursive, and a server must not be able to exhaust the stack).
 */
export const MAX_SCHEMA_DEPTH = 64;

export function headerParams(inputSchema: unknown): HeaderParams {
  const params: HeaderParam[] = [];
  const problems: string[] = [];
  walk(inputSchema, [], params, problems, 0);
  if (problems.length > 0) return { ok: false, reason: problems[0]! };
  const seen = new Set<string>();
  for (const param of params) {
    const key = param.name.toLowerCase();
    if (seen.has(key)) return { ok: false, reason: `x-mcp-header "${param.name}" is used twice` };
    seen.add(key);
  }
  return { ok: true, params };
}

/** `path` is the `properties` chain to `node`, or null once the chain went through anything else. */
function walk(node: unknown, path: string[] | null, params: HeaderParam[], problems: string[], depth: number): void {
  if (typeof node !== "object" || node === null || problems.length > 0) return;
  if (depth > MAX_SCHEMA_DEPTH) return void problems.push(`the schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (Array.isArray(node)) {
    for (const item of node) walk(item, null, params, problems, depth + 1);
    return;
  }
  if ("x-mcp-header" in node) annotation(node, path, params, problems);
  for (const [key, value] of Object.entries(node)) {
    if (key === "x-mcp-header" || VALUE_KEYWORDS.has(key)) continue;
    if (key === "properties" && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) walk(sub, path === null ? null : [...path, name], params, problems, depth + 2);
    } else {
      walk(value, null, params, problems, depth + 1);
    }
  }
}

function annotation(node: Record<string, unknown>, path: string[] | null, params: HeaderParam[], problems: string[]): void {
  const name = node["x-mcp-header"];
  const where = path === null || path.length === 0 ? "a place not reachable through properties alone" : `"${path.join(".")}"`;
  if (path === null || path.length === 0) return void problems.push(`x-mcp-header at ${where}`);
  if (typeof name !== "string" || !TOKEN.test(name)) return void problems.push(`x-mcp-header at ${where} is not an HTTP token`);
  if (primitiveType(node.type) === undefined) {
    return void problems.push(`x-mcp-header at ${where} is on a ${quote(node.type, 60)} property, not a string, integer or boolean`);
  }
  params.push({ name, path });
}

/**
 * The property's one primitive type. A nullable one (`["string", "null"]`) counts: the spec
 * has the client omit the header for a null value, so null must be a value it can see.
 */
function primitiveType(type: unknown): string | undefined {
  const types: unknown[] = Array.isArray(type) ? type.filter((t) => t !== "null") : [type];
  const only = types[0];
  return types.length === 1 && typeof only === "string" && PRIMITIVES.has(only) ? only : undefined;
}
