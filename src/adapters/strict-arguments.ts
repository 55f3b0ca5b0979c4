/**
 * The arguments a model wrote for a strict tool, made what the server asked for.
 *
 * Strict mode makes every optional property required and nullable, so the model sends `null`
 * where it would have left a property out. A server that never allowed null would refuse
 * those; `restoreOmitted` drops each `null` whose property was optional in the server's own
 * schema and does not allow null there, following `properties`, `items`, local `$ref`s and the
 * object branches of `anyOf`, `oneOf` and `allOf`.
 */
import { isArray, isObject, own, resolvePointer, setOwn, type Json } from "./json.js";
import { MAX_NESTING } from "./root-schema.js";

/** `args` with the nulls strict mode added taken out again; `schema` is the server's (object root). */
export function restoreOmitted(args: Json, schema: Json): Json {
  const restored = restore(args, schema, schema, 0);
  return isObject(restored) ? restored : args;
}

function restore(value: unknown, given: unknown, root: Json, depth: number): unknown {
  if (depth > MAX_NESTING) return value;
  const schema = dereference(given, root);
  if (!isObject(schema)) return value;
  if (isArray(value)) return value.map((item) => restore(item, own(schema, "items"), root, depth + 1));
  if (!isObject(value)) return value;
  const properties = own(schema, "properties");
  if (!isObject(properties)) return restore(value, branchFor(value, schema, root), root, depth + 1);
  const requiredList = own(schema, "required");
  const required = new Set(isArray(requiredList) ? requiredList : []);
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const property = own(properties, key);
    if (item === null && !required.has(key) && !allowsNull(property, root, depth)) continue;
    setOwn(out, key, restore(item, property, root, depth + 1));
  }
  return out;
}

/** The first object branch of a union that has a property for each key of `value`. */
function branchFor(value: Json, schema: Json, root: Json): unknown {
  const branches = own(schema, "anyOf") ?? own(schema, "oneOf") ?? own(schema, "allOf");
  if (!isArray(branches)) return undefined;
  return branches.find((branch) => {
    const target = dereference(branch, root);
    const properties = isObject(target) ? own(target, "properties") : undefined;
    return isObject(properties) && Object.keys(value).every((key) => Object.hasOwn(properties, key));
  });
}

function allowsNull(given: unknown, root: Json, depth: number): boolean {
  if (depth > MAX_NESTING) return true;
  const schema = dereference(given, root);
  if (!isObject(schema)) return true;
  const type = own(schema, "type");
  if (type === "null" || (isArray(type) && type.includes("null")) || own(schema, "nullable") === true || own(schema, "const") === null) return true;
  const list = own(schema, "enum");
  if (isArray(list)) return list.includes(null);
  const branches = own(schema, "anyOf") ?? own(schema, "oneOf");
  if (isArray(branches)) return branches.some((branch) => allowsNull(branch, root, depth + 1));
  // No type and nothing that implies one: any value, null among them.
  return type === undefined && !["properties", "items", "allOf", "not"].some((keyword) => Object.hasOwn(schema, keyword));
}

/** A local `$ref` followed (a few steps at most: a loop ends as "no schema"). */
function dereference(schema: unknown, root: Json): unknown {
  let node = schema;
  for (let hops = 0; isObject(node) && typeof own(node, "$ref") === "string"; hops++) {
    if (hops === 8) return undefined;
    node = resolvePointer(root, own(node, "$ref") as string);
  }
  return node;
}
