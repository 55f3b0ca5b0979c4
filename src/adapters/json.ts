/**
 * Small helpers for reading schemas and results a server wrote: own members only (a key such
 * as `__proto__` or `constructor` is a field name like any other), and copies that are plain
 * JSON, so that a rewrite never touches what the catalog holds.
 */
import type { JsonObject } from "./types.js";

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` typed `unknown` first: `Array.isArray` on a typed array would narrow it to `any[]`. */
export function isArray(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

export function own(object: Json, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function ownString(object: Json, key: string): string | undefined {
  const value = own(object, key);
  return typeof value === "string" ? value : undefined;
}

/** Sets `key` as an own property, whatever its name (`obj[key] = v` with `__proto__` would not). */
export function setOwn(object: Json, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy through JSON, or why there is none (a cycle, a BigInt, nesting too deep for the engine). */
export function jsonCopy(value: unknown): { json: string; copy: unknown } | { reason: string } {
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return { reason: "is not JSON" };
    return { json, copy: JSON.parse(json) as unknown };
  } catch (error) {
    return { reason: `cannot be written as JSON (${error instanceof Error ? error.name : "error"})` };
  }
}

/** How deeply objects and arrays nest in `value`; counted without recursion, so any depth is safe. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (typeof node !== "object" || node === null) continue;
    if (depth > deepest) deepest = depth;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** At most `max` characters of a string a server chose, for a note or a reason. */
export function clip(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A JSON pointer (RFC 6901) into `root`, for a local `$ref` such as `#/$defs/point`. */
export function resolvePointer(root: Json, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeSegment(raw);
    if (key === undefined) return undefined;
    if (isObject(node)) node = own(node, key);
    else if (isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) node = node[Number(key)];
    else return undefined;
  }
  return node;
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
  } catch {
    return undefined;
  }
}

/** A copy made by `jsonCopy` is JSON by construction. */
export function asJsonObject(value: Json): JsonObject {
  return value as JsonObject;
}
