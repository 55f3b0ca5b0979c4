import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withCarrier, type TraceCarrier } from "../../src/tracing/tracing.js";

// What withCarrier did with spreads before it copied by hand (the copy is for speed only).
function bySpread(params: Record<string, unknown> | undefined, carrier: TraceCarrier): Record<string, unknown> | undefined {
  if (Object.keys(carrier).length === 0) return params;
  const given = params?._meta;
  const meta = typeof given === "object" && given !== null && !Array.isArray(given) ? given : {};
  return { ...params, _meta: { ...meta, ...carrier } };
}

const key = fc.oneof(fc.constantFrom("__proto__", "_meta", "name", "traceparent", "constructor"), fc.string({ maxLength: 6 }));
const value = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
const record = (values: fc.Arbitrary<unknown>) => fc.array(fc.tuple(key, values), { maxLength: 5 }).map((entries) => Object.fromEntries(entries));
const metaValue = fc.oneof(record(value), value, fc.constant(undefined));
const params = fc.option(fc.tuple(record(value), metaValue, fc.boolean()).map(([rest, meta, withMeta]) => (withMeta ? { ...rest, _meta: meta } : rest)), { nil: undefined });
const carrier = fc.array(fc.tuple(fc.constantFrom("traceparent", "tracestate", "baggage", "__proto__"), fc.string({ maxLength: 8 })), { maxLength: 3 }).map((entries): TraceCarrier => Object.fromEntries(entries));

describe("withCarrier", () => {
  it("gives what the spreads gave, _meta last, own keys only, without touching its inputs", () => {
    fc.assert(
      fc.property(params, carrier, (given, trace) => {
        const before = JSON.stringify(given);
        const result = withCarrier(given, trace);
        expect(result).toStrictEqual(bySpread(given, trace));
        expect(JSON.stringify(given)).toBe(before);
        if (result === given) return;
        expect(Object.keys(result!).at(-1)).toBe("_meta");
        expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
        expect(Object.getPrototypeOf(result!._meta)).toBe(Object.prototype);
        if (given !== undefined) expect(result!._meta).not.toBe(given._meta);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps a caller's __proto__ key an own field, as a spread does", () => {
    const given = JSON.parse('{"name":"x","__proto__":{"polluted":true},"_meta":{"__proto__":1,"k":"v"}}') as Record<string, unknown>;
    const result = withCarrier(given, { traceparent: "t" })!;
    expect(Object.hasOwn(result, "__proto__")).toBe(true);
    expect((result as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(result._meta as object, "__proto__")).toBe(true);
    expect(result._meta).toMatchObject({ k: "v", traceparent: "t" });
  });

  it("hands the params back as they were when the carrier is empty", () => {
    const given = { name: "x" };
    expect(withCarrier(given, {})).toBe(given);
  });
});
