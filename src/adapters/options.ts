/**
 * The adapters' options, checked once per call before any tool is looked at: a misspelt key or
 * a bound that is not a number fails the call rather than being ignored (a `maxTool: 10`
 * that did nothing would only show as a refused request later).
 */
import type { ToolListOptions } from "./types.js";

export const LIST_KEYS = ["maxTools", "maxSchemaLength"] as const;
const DEFAULT_SCHEMA_LENGTH = 100_000;

export interface Limits {
  readonly maxTools: number;
  readonly maxSchemaLength: number;
}

/** Refuses a key of `given` not among `known`; `given` may be undefined. */
export function checkKeys(what: string, given: unknown, known: readonly string[]): void {
  if (given === undefined) return;
  if (typeof given !== "object" || given === null || Array.isArray(given)) throw new TypeError(`${what} must be an object`);
  for (const key of Object.keys(given)) {
    if (!known.includes(key)) throw new TypeError(`${what} has no option ${JSON.stringify(key)} (known: ${known.join(", ")})`);
  }
}

/** The list bounds of `options`, with `maxTools` defaulting to `defaultMaxTools`. */
export function limitsOf(options: ToolListOptions | undefined, defaultMaxTools: number): Limits {
  return {
    maxTools: bound("maxTools", options?.maxTools, defaultMaxTools),
    maxSchemaLength: bound("maxSchemaLength", options?.maxSchemaLength, DEFAULT_SCHEMA_LENGTH),
  };
}

/** A count bound: a positive integer, or `Infinity` for none. NaN, 0, negatives and fractions are refused. */
function bound(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Infinity || (typeof value === "number" && Number.isSafeInteger(value) && value > 0)) return value;
  throw new RangeError(`${name} must be a positive integer or Infinity, got ${typeof value === "number" ? String(value) : typeof value}`);
}

export function checkBoolean(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new TypeError(`${name} must be a boolean, got ${typeof value}`);
  return value;
}
