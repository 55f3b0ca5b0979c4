/**
 * What a model API needs of a tool's `inputSchema` at its root, made from what servers send.
 *
 * OpenAI and Anthropic both take an object schema there and refuse, for the whole request,
 * a tool whose root is anything else: `type` other than "object", or `anyOf`, `oneOf`,
 * `allOf` (and for OpenAI `enum`, `not`) at the top level. Servers send each of these, and
 * also schemas with no `type`, a root `$ref`, or no `properties` (which OpenAI refuses as an
 * object schema missing properties). What can be read as an object schema without changing
 * what it accepts is rewritten so; the rest is refused here with the reason, per tool.
 */
import { clip, isArray, isObject, jsonCopy, nestingDepth, own, resolvePointer, type Json } from "./json.js";

/** Deeper than this, no API is likely to take a schema, and walking it would risk the stack. */
export const MAX_NESTING = 64;
const MAX_REF_HOPS = 8;
const ROOT_REFUSED = ["anyOf", "oneOf", "allOf", "not", "enum", "const"] as const;

export type RootOutcome = { ok: true; schema: Json } | { ok: false; reason: string };

/** A copy of `inputSchema` with an object root, or why it cannot have one. */
export function objectRoot(inputSchema: unknown, maxLength: number): RootOutcome {
  if (!isObject(inputSchema)) return refuse(`inputSchema is ${describe(inputSchema)}, not a JSON object`);
  const copied = jsonCopy(inputSchema);
  if ("reason" in copied) return refuse(`inputSchema ${copied.reason}`);
  if (copied.json.length > maxLength) return refuse(`inputSchema is ${copied.json.length} characters of JSON, over the bound of ${maxLength}`);
  const schema = copied.copy as Json;
  if (nestingDepth(schema) > MAX_NESTING) return refuse(`inputSchema nests more than ${MAX_NESTING} levels deep`);
  const inlined = inlineRootRef(schema);
  if (!inlined.ok) return inlined;
  return objectType(inlined.schema);
}

/** A root `$ref` to a definition of the same schema becomes that definition, with the definitions kept. */
function inlineRootRef(schema: Json): RootOutcome {
  let root = schema;
  for (let hops = 0; typeof own(root, "$ref") === "string"; hops++) {
    const ref = own(root, "$ref") as string;
    if (hops === MAX_REF_HOPS) return refuse(`inputSchema's root $ref ${JSON.stringify(clip(ref))} does not end in a schema within ${MAX_REF_HOPS} steps`);
    if (!ref.startsWith("#")) return refuse(`inputSchema's root $ref ${JSON.stringify(clip(ref))} points outside the schema (it is not fetched)`);
    const target = resolvePointer(schema, ref);
    if (!isObject(target)) return refuse(`inputSchema's root $ref ${JSON.stringify(clip(ref))} names no schema in it`);
    const { $ref: _ref, ...siblings } = root;
    root = { ...siblings, ...target };
    for (const key of ["$defs", "definitions"]) if (Object.hasOwn(schema, key)) root[key] = schema[key];
  }
  return { ok: true, schema: root };
}

function objectType(schema: Json): RootOutcome {
  for (const keyword of ROOT_REFUSED) {
    if (Object.hasOwn(schema, keyword)) return refuse(`inputSchema has "${keyword}" at the top level, where the model APIs take only an object schema`);
  }
  const type = own(schema, "type");
  if (type !== undefined && type !== "object") {
    const types: unknown[] = isArray(type) ? type : [type];
    if (!types.includes("object")) return refuse(`inputSchema's type is ${clip(JSON.stringify(type))}, not "object"`);
  }
  // MCP says inputSchema is an object schema: a missing type, or one that also allows null
  // (no model sends null as the arguments), is read as "object".
  schema.type = "object";
  const properties = own(schema, "properties");
  if (properties === undefined) schema.properties = {};
  else if (!isObject(properties)) return refuse(`inputSchema's properties is ${describe(properties)}, not an object`);
  const required = own(schema, "required");
  if (required !== undefined && !(isArray(required) && required.every((name) => typeof name === "string"))) {
    return refuse("inputSchema's required is not a list of property names");
  }
  return { ok: true, schema };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function refuse(reason: string): RootOutcome {
  return { ok: false, reason };
}
