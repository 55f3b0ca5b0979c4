// Fuzzing safe text (src/util/sanitize.ts), what every server string a host shows goes through:
// for any text, the result holds no ESC, C0/C1 control, DEL, bidi control, zero-width or line
// separator character, is at most `max` characters, splits no surrogate pair, and cleaning it
// again changes nothing.
//
// fast-check's `fc.assert` throws with the seed, the replay path and the shrunk counterexample
// in its message, which vitest prints; `FUZZ_SEED=<seed>` replays a failed run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRow } from "./safety.js";
import { InvalidArgumentError } from "../../src/util/errors.js";
import { safeText, sanitize } from "../../src/util/sanitize.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

// The characters the module's doc promises to remove, written out here rather than taken from it.
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;
const FORBIDDEN_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;
const SPLIT_PAIR = /[\ud800-\udbff]$/;

/** Text rich in what terminals obey: escape sequences, controls, bidi and invisible characters. */
const hostileUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("\u001b", "\u001b[", "\u001b]", "\u0007", "\u001b\\", "[31m", "0;", "\r\n", "\n", "\r", "\t", "\u0000", "\u007f", "\u0085", "\u009b") },
  { weight: 2, arbitrary: fc.constantFrom("\u061c", "\u200b", "\u200d", "\u200e", "\u202e", "\u2028", "\u2029", "\u2060", "\u2066", "\u2069", "\ufeff", "😀", "é") },
  { weight: 5, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
);
const hostileText = fc.array(hostileUnit, { maxLength: 60 }).map((parts) => parts.join(""));
const max = fc.oneof(fc.integer({ min: 0, max: 80 }), fc.constant(Infinity));

describe("fuzz: safe text", () => {
  it("safeText leaves nothing a terminal obeys, stays within max, splits no pair, and is idempotent", (context) => {
    const runs = 2_000;
    fc.assert(
      fc.property(hostileText, max, (text, limit) => {
        const clean = safeText(text, limit);
        expect(clean).not.toMatch(FORBIDDEN);
        expect(clean.length).toBeLessThanOrEqual(limit);
        expect(clean.endsWith("…") ? clean.slice(0, -1) : clean).not.toMatch(SPLIT_PAIR);
        expect(safeText(clean, limit)).toBe(clean);
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "safe text", "safeText leaves nothing a terminal obeys, stays within max, splits no pair, and is idempotent");
  });

  it("sanitize does the same, keeping only line feeds when asked to keep lines", (context) => {
    const runs = 2_000;
    fc.assert(
      fc.property(hostileText, max, fc.boolean(), (text, limit, lines) => {
        const clean = sanitize(text, { max: limit, lines });
        expect(clean).not.toMatch(lines ? FORBIDDEN_BUT_LF : FORBIDDEN);
        expect(clean.length).toBeLessThanOrEqual(limit);
        expect(sanitize(clean, { max: limit, lines })).toBe(clean);
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "safe text", "sanitize does the same, keeping only line feeds when asked to keep lines");
  });

  it("sanitize refuses a max that is no bound (NaN, negative, fractional) rather than guessing one", (context) => {
    const runs = 300;
    const noBound = fc.oneof(fc.constant(Number.NaN), fc.constant(-Infinity), fc.integer({ max: -1 }), fc.double({ noNaN: true, noInteger: true }).filter(Number.isFinite));
    fc.assert(
      fc.property(hostileText, noBound, (text, limit) => {
        expect(() => sanitize(text, { max: limit })).toThrow(InvalidArgumentError);
      }),
      { numRuns: runs },
    );
    fuzzRow(context, runs, "safe text", "sanitize refuses a max that is no bound (NaN, negative, fractional) rather than guessing one");
  });
});
