// protocol/envelope.ts copies a request's params by hand (a call's usual { name, arguments } by
// name, anything else key by key): the copy must be what a spread gives, keys, values and order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Envelope } from "../../src/protocol/envelope.js";

const seed = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };
const json = fc.jsonValue({ maxDepth: 2 });

describe("Envelope.wrap", () => {
  const envelope = new Envelope("2026-07-28", { name: "t", version: "1" }, { elicitation: { form: {} } });
  const shared = envelope.wrap(undefined)._meta;

  it("copies the params as { ...params, ...answers, _meta } would, a call's usual shape and its near misses alike", () => {
    const key = fc.constantFrom("name", "arguments", "_meta", "task", "0", "__proto__", "x");
    // Some keys not enumerable: a spread leaves them out, and so must the copy.
    const made = fc.array(fc.tuple(key, fc.oneof(json, fc.constant(undefined)), fc.boolean()), { maxLength: 4 }).map((pairs) => {
      const params: Record<string, unknown> = {};
      // A _meta left undefined only: one of the caller's own is merged with the envelope's, not replaced.
      for (const [name, value, enumerable] of pairs) Object.defineProperty(params, name, { value: name === "_meta" ? undefined : value, enumerable, writable: true, configurable: true });
      return params;
    });
    const call = fc.tuple(json, json).map(([name, args]) => ({ name, arguments: args }));
    const inherited = call.map((own) => Object.assign(Object.create({ arguments: 1 }) as Record<string, unknown>, { name: own.name }));
    const answers = fc.option(fc.record({ inputResponses: fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 2 }), requestState: fc.string({ maxLength: 6 }) }), { nil: undefined });
    fc.assert(
      fc.property(fc.oneof(made, call, inherited), answers, fc.boolean(), (params, answered, first) => {
        const wrapped = envelope.wrap(params, undefined, answered, answered === undefined && first ? true : undefined);
        const spread = answered === undefined ? { ...params, _meta: shared } : { ...params, ...answered, _meta: shared };
        expect(Object.entries(wrapped)).toEqual(Object.entries(spread));
        expect(Object.getPrototypeOf(wrapped)).toBe(Object.prototype);
      }),
      { numRuns: 1000, ...seed },
    );
  });

  it("reads each of a call's values once, as a spread does", () => {
    let reads = 0;
    const params = {
      get name() {
        reads += 1;
        return "echo";
      },
      arguments: { text: "x" },
    };
    const wrapped = envelope.wrap(params, undefined, undefined, true);
    expect(reads).toBe(1);
    expect(Object.entries(wrapped)).toEqual([
      ["name", "echo"],
      ["arguments", { text: "x" }],
      ["_meta", shared],
    ]);
  });
});
