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

/**
 * What a check of a server's input request says when it refuses: the JSON-RPC error a legacy
 * server gets (the modern era carries the same code in a ClientError of kind `"input_refused"`).
 * Such checks return a verdict rather than throw: a refusal is an answer, not a failure.
 */
export interface Refusal {
  code: number;
  message: string;
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export const pass = <T>(value: T): Verdict<T> => ({ ok: true, value });
export const refuse = <T = never>(code: number, message: string): Verdict<T> => ({ ok: false, refusal: { code, message } });
