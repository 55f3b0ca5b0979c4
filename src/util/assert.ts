/**
 * Checks on untrusted input at the boundary, each naming the field it looked at, so that a
 * malformed server reply reads as `result "tools"[3] "name" must be a string` rather than as a
 * TypeError far away. They throw `ClientError` of kind `"protocol"` carrying the raw value.
 */
import { ClientError } from "./errors.js";
import { isObject } from "./json.js";

export function protocolError(message: string, data?: unknown): ClientError {
  return new ClientError("protocol", message, { data });
}

export function expectObject(value: unknown, path: string, raw: unknown): Record<string, unknown> {
  if (!isObject(value)) throw protocolError(`${path} must be an object`, raw);
  return value;
}

export function expectArray(value: unknown, path: string, raw: unknown): unknown[] {
  if (!Array.isArray(value)) throw protocolError(`${path} must be an array`, raw);
  return value;
}

/** `field(result, "tools")` → `result "tools"`; `index(path, 3)` → `…[3]`. */
export function field(path: string, name: string): string {
  return `${path} "${name}"`;
}

export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}
