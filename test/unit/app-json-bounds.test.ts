// The walk that bounds a view's messages counts exactly the UTF-8 bytes JSON.stringify writes
// (checked against it on random values), stops at the bound, and refuses what JSON cannot say.
// And the session's limits: partial ones merge with the defaults, meaningless ones throw.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { measureJson } from "../../src/util/json-measure.js";
import { InvalidArgumentError } from "../../src/index.js";
import { DEFAULT_APP_LIMITS } from "../../src/apps/index.js";
import { resolveAppLimits } from "../../src/apps/app-limits.js";

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("measureJson", () => {
  it("counts what JSON.stringify writes, byte for byte", () => {
    const text = fc.string({ unit: "binary" });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, fc.constant(null), fc.boolean(), fc.double(), fc.integer(), text, fc.array(tie("node")), fc.dictionary(text, tie("node"))),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const measured = measureJson(v, Infinity, 1000);
        expect(measured).toEqual({ ok: true, bytes: bytesOf(v) });
      }),
      { numRuns: 500 },
    );
  });

  it("counts escapes, surrogate pairs and lone surrogates as JSON writes them", () => {
    for (const value of ['"\\', "\u0000\b\t\n\f\r\u001f", "é€😀", "\ud800", "a\udc00b", [undefined, 1], { a: undefined, b: 2 }, -0, 1e21, Number.NaN]) {
      expect(measureJson(value, Infinity, 10)).toEqual({ ok: true, bytes: bytesOf(value) });
    }
  });

  it("stops at the bound without reading what lies past it", () => {
    // {"a":"xxxxxxxxx"} is 17 bytes.
    expect(measureJson({ a: "x".repeat(9) }, 16, 10)).toEqual({ ok: false, reason: "too-large" });
    expect(measureJson({ a: "x".repeat(9) }, 17, 10)).toEqual({ ok: true, bytes: 17 });
    // A huge array is refused on its length alone.
    expect(measureJson(new Array(1_000_000).fill(0), 1000, 10)).toEqual({ ok: false, reason: "too-large" });
    let deep: unknown = 1;
    for (let i = 0; i < 11; i++) deep = [deep];
    expect(measureJson(deep, Infinity, 10)).toEqual({ ok: false, reason: "too-deep" });
  });

  it("refuses what has no JSON: maps, dates, typed arrays, class instances, functions, bigints, cycles, throwing getters", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const getter = Object.defineProperty({}, "x", { enumerable: true, get: () => { throw new Error("no"); } });
    for (const value of [new Map(), new Date(), new Uint8Array(2), new (class A {})(), () => 1, 10n, Symbol("s"), undefined]) {
      expect(measureJson({ v: value }, Infinity, 10).ok === false || value === undefined).toBe(true);
    }
    expect(measureJson(undefined, Infinity, 10)).toEqual({ ok: false, reason: "not-json" });
    expect(measureJson(cyclic, Infinity, 50)).toEqual({ ok: false, reason: "too-deep" });
    expect(measureJson(getter, Infinity, 10)).toEqual({ ok: false, reason: "not-json" });
    expect(measureJson(Object.create(null) as object, Infinity, 10)).toEqual({ ok: true, bytes: 2 });
  });
});

describe("AppSession limits", () => {
  it("merges a partial rate with the default", () => {
    const limits = resolveAppLimits({ messageRate: { perSecond: 1 }, teardownTimeout: 100 });
    expect(limits.messageRate).toEqual({ perSecond: 1, burst: DEFAULT_APP_LIMITS.messageRate.burst });
    expect(limits.teardownTimeout).toBe(100);
    expect(limits.maxInFlight).toBe(DEFAULT_APP_LIMITS.maxInFlight);
  });

  it("throws on a bound that means nothing or a key it does not know", () => {
    for (const bad of [{ maxDepth: 0 }, { maxMessageBytes: 1.5 }, { hostTimeout: Number.NaN }, { logRate: { perSecond: -1 } }, { logRate: { burts: 2 } }, { maxBytes: 1 }, { callTimeout: "5" }]) {
      expect(() => resolveAppLimits(bad as never)).toThrow(InvalidArgumentError);
    }
  });
});
