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
