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

/**
 * Refuses a key of `given` that is not among `known` (a misspelt option would otherwise be
 * ignored without a word), naming the nearest known key.
 */
export function knownKeys(what: string, given: object, known: ReadonlySet<string>): void {
  for (const key in given) {
    if (known.has(key) || !Object.hasOwn(given, key)) continue;
    throw new InvalidArgumentError(`${what} has no option ${JSON.stringify(key)}; did you mean ${JSON.stringify(nearest(key, known))}?`);
  }
}

/** The known key with the fewest edits from `key`. */
function nearest(key: string, known: ReadonlySet<string>): string {
  let best = "";
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
