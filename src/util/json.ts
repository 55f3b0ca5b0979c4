/** JSON values as they cross the wire, and the JSON-RPC id rule. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON-RPC request id (the spec allows null only in error responses that cannot name one). */
export type RequestId = string | number;

/** A plain object (not an array, not null): what every JSON-RPC message and MCP result is. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string, or a finite number: the ids this client matches and answers. */
export function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/** JSON with the keys of every object in order: two values that mean the same read the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) => {
    if (!isObject(node)) return node;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(node).sort()) Object.defineProperty(sorted, key, { value: node[key], enumerable: true, writable: true, configurable: true });
    return sorted;
  });
}
