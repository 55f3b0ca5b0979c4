/**
 * Checks on what a caller passes (client and connect options, call options). A bound given as
 * NaN, a negative number or a string would otherwise switch a limit off without a word; here it
 * throws `InvalidArgumentError` naming the option. `Infinity` is a number: "no bound".
 */
import { InvalidArgumentError } from "./errors.js";

export function positiveNumber(what: string, value: unknown): number {
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) throw invalid(what, "a positive number", value);
  return value;
}

export function nonNegativeNumber(what: string, value: unknown): number {
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) throw invalid(what, "a number of 0 or more", value);
  return value;
}

export function positiveInteger(what: string, value: unknown): number {
  if (!Number.isInteger(value) || (value as number) <= 0) throw invalid(what, "a positive integer", value);
  return value as number;
}

export function nonNegativeInteger(what: string, value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 0) throw invalid(what, "an integer of 0 or more", value);
  return value as number;
}

/** Checks `value` only when given. */
export function optional<T>(check: (what: string, value: unknown) => T, what: string, value: unknown): T | undefined {
  return value === undefined ? undefined : check(what, value);
}

function invalid(what: string, expected: string, value: unknown): InvalidArgumentError {
  return new InvalidArgumentError(`${what} must be ${expected}, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
}
