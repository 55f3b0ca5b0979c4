/**
 * A tool's schema rewritten to what OpenAI's strict mode (Structured Outputs) accepts, or the
 * reason it cannot be.
 *
 * The rules, from OpenAI's "Supported schemas": every object has `additionalProperties: false`
 * and lists all its properties in `required` (an optional one is emulated by a union with
 * null); the types are string, number, integer, boolean, object, array, null, `enum`, `const`
 * and `anyOf`; `$ref` to `$defs`/`definitions` of the same schema (recursion included); the
 * keywords beyond the types are `pattern`, `format` (nine formats), `multipleOf`, `minimum`,
 * `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minItems`, `maxItems`; at most 5,000
 * properties, 10 levels of objects, 1,000 enum values, and 120,000 characters of property
 * names, definition names, enum and const values.
 *
 * What the rewrite does with the rest:
 * - An optional property becomes required and nullable; `restoreOmitted` takes the nulls the
 *   model then sends out again before the call, so the server sees what it asked for.
 * - `oneOf` becomes `anyOf` (the model cannot know a branch's exclusivity anyway); an `allOf`
 *   of one schema is merged into its parent.
 * - A keyword that only narrows what is valid and is not supported (`minLength`, `maxLength`,
 *   `uniqueItems`, `minProperties`, `propertyNames`, `contains`, an unknown `format`, ...) is
 *   removed, as is every annotation but `title` and `description` (`default`, `examples`,
 *   `$schema`, ...): the server still checks the arguments it receives.
 * - What would change the shape of the arguments is refused: `not`, `if`/`then`/`else`,
 *   `dependentSchemas`/`dependentRequired`, `patternProperties`, an `allOf` of several schemas,
 *   an object open to any property (a map, or `{type: "object"}` below the root), an array
 *   without `items` or with tuple items, a schema with no type (any value), a `$ref` outside
 *   the schema's root definitions, and anything past the size limits above.
 */
import { clip, isArray, isObject, own, ownString, setOwn, type Json } from "./json.js";
import { MAX_NESTING } from "./root-schema.js";

export type StrictOutcome = { ok: true; schema: Json } | { ok: false; reason: string };

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const NUMBER_KEYWORDS = ["multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const;
const ARRAY_KEYWORDS = ["minItems", "maxItems"] as const;
const SHAPE_KEYWORDS = ["not", "if", "then", "else", "dependentSchemas", "dependentRequired", "dependencies", "prefixItems"] as const;
/** With a `$ref`, these would be lost: the reference cannot carry them. */
const BESIDE_REF = ["type", "properties", "items", "anyOf", "oneOf", "allOf", "enum", "const"] as const;
const LIMITS = { properties: 5_000, objectDepth: 10, enumValues: 1_000, characters: 120_000, bigEnum: 250, bigEnumCharacters: 15_000 };

class Refusal extends Error {}

interface Walk {
  properties: number;
  enumValues: number;
  characters: number;
}

/** `schema` (an object root, from `objectRoot`) as strict mode takes it. */
export function toStrictSchema(schema: Json): StrictOutcome {
  const walk: Walk = { properties: 0, enumValues: 0, characters: 0 };
  try {
    const strict = node(schema, "#", 1, 0, walk);
    for (const key of ["$defs", "definitions"]) {
      const definitions = own(schema, key);
      if (definitions === undefined) continue;
      if (!isObject(definitions)) throw new Refusal(`#/${key} is not an object`);
      const out: Json = {};
      for (const [name, definition] of Object.entries(definitions)) {
        count(walk, "characters", name.length);
        setOwn(out, name, node(definition, `#/${key}/${name}`, 1, 1, walk));
      }
      strict[key] = out;
    }
    return { ok: true, schema: strict };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: `strict mode: ${error.message}` };
    throw error;
  }
}

/** One schema of the tree; `objects` counts the objects around it, `depth` every level. */
function node(given: unknown, path: string, objects: number, depth: number, walk: Walk): Json {
  if (depth > MAX_NESTING) throw new Refusal(`${at(path)} nests too deeply`);
  if (!isObject(given)) throw new Refusal(`${at(path)} is ${typeof given === "boolean" ? `the schema ${String(given)}` : "not a schema"}`);
  const schema = mergeSingleAllOf(given, path);
  for (const keyword of SHAPE_KEYWORDS) if (Object.hasOwn(schema, keyword)) throw new Refusal(`"${keyword}" at ${at(path)} is not supported`);
  if (Object.hasOwn(schema, "$defs") || Object.hasOwn(schema, "definitions")) {
    if (path !== "#") throw new Refusal(`definitions at ${at(path)}, below the root, are not supported`);
  }
  const out: Json = {};
  for (const key of ["title", "description"]) if (typeof own(schema, key) === "string") out[key] = own(schema, key);
  const ref = own(schema, "$ref");
  if (ref !== undefined) return reference(schema, ref, out, path);
  if (Object.hasOwn(schema, "anyOf") || Object.hasOwn(schema, "oneOf")) return union(schema, out, path, objects, depth, walk);
  values(schema, out, path, walk);
  const types = typesOf(schema, out, path);
  if (types.includes("object")) objectSchema(schema, out, path, objects, depth, walk);
  if (types.includes("array")) arraySchema(schema, out, path, objects, depth, walk);
  if (types.includes("string")) stringSchema(schema, out);
  if (types.includes("number") || types.includes("integer")) copyNumbers(schema, out, NUMBER_KEYWORDS);
  return out;
}

function mergeSingleAllOf(schema: Json, path: string): Json {
  const allOf = own(schema, "allOf");
  if (allOf === undefined) return schema;
  if (!isArray(allOf) || allOf.length !== 1 || !isObject(allOf[0])) throw new Refusal(`"allOf" of several schemas at ${at(path)} is not supported`);
  const { allOf: _allOf, ...rest } = schema;
  const inner = allOf[0];
  for (const key of Object.keys(inner)) {
    if (Object.hasOwn(rest, key) && key !== "description" && key !== "title") throw new Refusal(`"allOf" at ${at(path)} repeats "${key}"`);
  }
  // The merged schema may hold an allOf of its own.
  return mergeSingleAllOf({ ...inner, ...rest }, path);
}

function reference(schema: Json, ref: unknown, out: Json, path: string): Json {
  if (typeof ref !== "string" || !(ref === "#" || ref.startsWith("#/$defs/") || ref.startsWith("#/definitions/"))) {
    throw new Refusal(`the $ref ${clip(JSON.stringify(ref))} at ${at(path)} is not to the schema's own definitions`);
  }
  for (const keyword of BESIDE_REF) if (Object.hasOwn(schema, keyword)) throw new Refusal(`"${keyword}" beside a $ref at ${at(path)} is not supported`);
  out.$ref = ref;
  return out;
}

function union(schema: Json, out: Json, path: string, objects: number, depth: number, walk: Walk): Json {
  if (Object.hasOwn(schema, "anyOf") && Object.hasOwn(schema, "oneOf")) throw new Refusal(`both "anyOf" and "oneOf" at ${at(path)}`);
  const keyword = Object.hasOwn(schema, "anyOf") ? "anyOf" : "oneOf";
  const branches = own(schema, keyword);
  if (!isArray(branches) || branches.length === 0) throw new Refusal(`"${keyword}" at ${at(path)} is not a list of schemas`);
  for (const sibling of ["type", "properties", "items", "enum", "const"]) {
    if (Object.hasOwn(schema, sibling)) throw new Refusal(`"${sibling}" beside "${keyword}" at ${at(path)} is not supported`);
  }
  out.anyOf = branches.map((branch, i) => node(branch, `${path}/${keyword}/${i}`, objects, depth + 1, walk));
  return out;
}

function values(schema: Json, out: Json, path: string, walk: Walk): void {
  const list = own(schema, "enum");
  if (list !== undefined) {
    if (!isArray(list) || list.length === 0) throw new Refusal(`"enum" at ${at(path)} is not a list of values`);
    count(walk, "enumValues", list.length);
    const characters = list.reduce<number>((sum, value) => sum + (typeof value === "string" ? value.length : 0), 0);
    if (list.length > LIMITS.bigEnum && characters > LIMITS.bigEnumCharacters) {
      throw new Refusal(`"enum" at ${at(path)} has ${list.length} values of ${characters} characters, over ${LIMITS.bigEnumCharacters}`);
    }
    count(walk, "characters", characters);
    out.enum = list;
  }
  if (Object.hasOwn(schema, "const")) {
    const value = own(schema, "const");
    if (typeof value === "string") count(walk, "characters", value.length);
    out.const = value;
  }
}

/** The schema's types, written to `out`; a schema with none must be an enum or const. */
function typesOf(schema: Json, out: Json, path: string): string[] {
  const type = own(schema, "type");
  if (type === undefined) {
    if (Object.hasOwn(out, "enum") || Object.hasOwn(out, "const")) return [];
    const implied = Object.hasOwn(schema, "properties") ? "object" : Object.hasOwn(schema, "items") ? "array" : undefined;
    if (implied !== undefined) {
      out.type = implied;
      return [implied];
    }
    throw new Refusal(`${at(path)} has no type (any value), which strict mode cannot express`);
  }
  const types: unknown[] = isArray(type) ? type : [type];
  if (types.length === 0 || !types.every((name): name is string => typeof name === "string" && TYPES.has(name))) {
    throw new Refusal(`the type ${clip(JSON.stringify(type))} at ${at(path)} is not supported`);
  }
  out.type = isArray(type) ? [...new Set(types)] : type;
  return types;
}

function objectSchema(schema: Json, out: Json, path: string, objects: number, depth: number, walk: Walk): void {
  if (objects > LIMITS.objectDepth) throw new Refusal(`${at(path)} is nested in more than ${LIMITS.objectDepth} objects`);
  const properties = own(schema, "properties") ?? {};
  if (!isObject(properties)) throw new Refusal(`the properties of ${at(path)} are not an object`);
  const extra = own(schema, "additionalProperties");
  const patterns = own(schema, "patternProperties");
  const names = Object.keys(properties);
  if ((isObject(extra) && Object.keys(extra).length > 0) || (isObject(patterns) && Object.keys(patterns).length > 0)) {
    throw new Refusal(`${at(path)} is a map (its keys are not listed), which strict mode cannot express`);
  }
  if (names.length === 0 && extra !== false && (path !== "#" || extra !== undefined)) {
    throw new Refusal(`${at(path)} is an object open to any property, which strict mode cannot express`);
  }
  count(walk, "properties", names.length);
  const required = new Set((isArray(own(schema, "required")) ? (own(schema, "required") as unknown[]) : []).filter((name) => typeof name === "string"));
  const strictProperties: Json = {};
  for (const name of names) {
    count(walk, "characters", name.length);
    const child = node(properties[name], `${path}/properties/${name}`, objects + 1, depth + 1, walk);
    setOwn(strictProperties, name, required.has(name) ? child : nullable(child));
  }
  out.properties = strictProperties;
  out.required = names;
  out.additionalProperties = false;
}

function arraySchema(schema: Json, out: Json, path: string, objects: number, depth: number, walk: Walk): void {
  const items = own(schema, "items");
  if (items === undefined) throw new Refusal(`the array at ${at(path)} has no "items" schema`);
  if (isArray(items)) throw new Refusal(`the array at ${at(path)} has tuple items`);
  out.items = node(items, `${path}/items`, objects, depth + 1, walk);
  copyNumbers(schema, out, ARRAY_KEYWORDS);
}

function stringSchema(schema: Json, out: Json): void {
  const pattern = ownString(schema, "pattern");
  if (pattern !== undefined) out.pattern = pattern;
  const format = ownString(schema, "format");
  if (format !== undefined && FORMATS.has(format)) out.format = format;
}

function copyNumbers(schema: Json, out: Json, keywords: readonly string[]): void {
  for (const keyword of keywords) {
    const value = own(schema, keyword);
    if (typeof value === "number" && Number.isFinite(value)) out[keyword] = value;
  }
}

/** `child` also allowing null: how strict mode says "may be left out". */
export function nullable(child: Json): Json {
  if (allowsNull(child)) return child;
  if (Object.hasOwn(child, "$ref") || Object.hasOwn(child, "anyOf")) {
    const { title, description, ...inner } = child;
    const branches = isArray(inner.anyOf) && Object.keys(inner).length === 1 ? inner.anyOf : [inner];
    return { ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), anyOf: [...branches, { type: "null" }] };
  }
  const out: Json = { ...child };
  if (typeof out.type === "string") out.type = [out.type, "null"];
  else if (isArray(out.type)) out.type = [...out.type, "null"];
  if (isArray(out.enum)) out.enum = [...out.enum, null];
  if (Object.hasOwn(out, "const")) {
    out.enum = [out.const, null];
    delete out.const;
  }
  return out;
}

/** Whether a schema as this module writes it already lets null through. */
function allowsNull(schema: Json): boolean {
  const type = own(schema, "type");
  if (type === "null" || (isArray(type) && type.includes("null"))) return true;
  const anyOf = own(schema, "anyOf");
  if (isArray(anyOf)) return anyOf.some((branch) => isObject(branch) && allowsNull(branch));
  const list = own(schema, "enum");
  if (isArray(list) && type === undefined) return list.includes(null);
  return own(schema, "const") === null;
}

function count(walk: Walk, what: "properties" | "enumValues" | "characters", n: number): void {
  walk[what] += n;
  const limit = LIMITS[what];
  if (walk[what] > limit) throw new Refusal(`the schema has more than ${limit} ${what === "enumValues" ? "enum values" : what === "characters" ? "characters of names and values" : "properties"}`);
}

function at(path: string): string {
  return clip(path, 160);
}
