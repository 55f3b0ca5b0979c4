// util/message-text.ts writes a request's registered `_meta` from text made once: what it writes
// must be, byte for byte, what JSON.stringify writes, whatever the params hold.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Envelope } from "../../src/protocol/envelope.js";
import { encodeOnce, messageText } from "../../src/util/message-text.js";

const seed = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };
const json = fc.jsonValue({ maxDepth: 3 });
const params = fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 5 });

describe("messageText", () => {
  const envelope = new Envelope("2026-07-28", { name: "t\u2028\"x", version: "1" }, { elicitation: { form: {} }, roots: {} });

  it("writes what JSON.stringify writes for any request the envelope wrapped, with a log level or none", () => {
    fc.assert(
      fc.property(params, fc.option(fc.constantFrom("debug", "error"), { nil: undefined }), fc.nat(), fc.boolean(), (given, level, id, notification) => {
        const wrapped = envelope.wrap(given, level);
        const message = notification ? { jsonrpc: "2.0", method: "m", params: wrapped } : { jsonrpc: "2.0", id, method: "tools/call", params: wrapped };
        expect(messageText(message)).toBe(JSON.stringify(message));
        // Nothing of the message changed on the way.
        expect(wrapped._meta).toBe(envelope.wrap(undefined, level)._meta);
      }),
      { numRuns: 1500, ...seed },
    );
  });

  it("writes what JSON.stringify writes when the caller's params carry a _meta of their own (a host's keys, a trace context)", () => {
    // Keys of every kind: integer-like ones (which objects order first), __proto__ as an own key,
    // undefined values, and the envelope's own keys (whose place the spread then decides).
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("0", "7", "__proto__", "io.modelcontextprotocol/clientInfo", "traceparent"));
    const own = fc.dictionary(key, fc.oneof(json, fc.constant(undefined)), { maxKeys: 5 }).map((entries) => {
      const made: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(entries)) Object.defineProperty(made, name, { value, enumerable: true, writable: true, configurable: true });
      return made;
    });
    fc.assert(
      fc.property(params, own, fc.option(fc.constantFrom("debug", "error"), { nil: undefined }), fc.nat(), (given, meta, level, id) => {
        const wrapped = envelope.wrap({ ...given, _meta: meta }, level);
        const message = { jsonrpc: "2.0", id, method: "tools/call", params: wrapped };
        expect(messageText(message)).toBe(JSON.stringify(message));
        // The envelope's keys win over the caller's, as they always did.
        expect((wrapped._meta as Record<string, unknown>)["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
      }),
      { numRuns: 1500, ...seed },
    );
  });

  it("writes what JSON.stringify writes when the registered object is not the params' last key, or not theirs", () => {
    const meta = encodeOnce({ a: 1 });
    const cases: object[] = [
      { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: meta, after: 2 } },
      { jsonrpc: "2.0", id: 1, params: { _meta: meta }, method: "m" },
      { jsonrpc: "2.0", id: 1, method: "m", params: Object.freeze({ x: 1, _meta: meta }) },
      { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { a: 1 } } },
      { jsonrpc: "2.0", id: 1, result: { _meta: meta } },
      [{ jsonrpc: "2.0", id: 1, method: "m", params: { _meta: meta } }],
      { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: meta } },
    ];
    for (const message of cases) expect(messageText(message)).toBe(JSON.stringify(message));
  });

  it("writes what JSON.stringify writes for any request, whatever its method, id and params, enveloped or not", () => {
    // The template covers a request as the peer makes it; anything else (another key order, an
    // extra key, an id the template could not write as JSON does) must take the plain path.
    const method = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("tools/call", 'q"uote', "back\\slash", "line\u2028sep", "nul\u0000", "\ud800"));
    const id = fc.oneof(fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1.5, NaN, Infinity, 2 ** 60));
    const shape = fc.constantFrom("peer", "reordered", "extra", "no-params");
    fc.assert(
      fc.property(method, id, params, fc.boolean(), shape, (name, given, body, wrapped, form) => {
        const sent = wrapped ? envelope.wrap(body) : body;
        const message =
          form === "peer"
            ? { jsonrpc: "2.0", id: given, method: name, params: sent }
            : form === "reordered"
              ? { jsonrpc: "2.0", method: name, id: given, params: sent }
              : form === "extra"
                ? { jsonrpc: "2.0", id: given, method: name, params: sent, extra: 1 }
                : { jsonrpc: "2.0", id: given, method: name };
        expect(messageText(message)).toBe(JSON.stringify(message));
      }),
      { numRuns: 1500, ...seed },
    );
  });

  it("writes a call's params (name and arguments) as JSON.stringify does, the usual shape and every near miss of it", () => {
    // The template takes exactly { name: string, arguments } (and a _meta left out); the rest —
    // another order or first key, an extra or inherited key, a name not a string, arguments a toJSON answers,
    // a function or undefined — must come out as JSON.stringify writes it.
    const name = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('q"uote', "line\u2028sep", "\ud800", "__proto__"), fc.constant(7), fc.constant(undefined));
    const args = fc.oneof(
      json,
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.constant({ toJSON: (key: string) => `told ${key}` }),
      fc.constant({ inner: { toJSON: (key: string) => `inner ${key}` } }),
    );
    const shape = fc.constantFrom("call", "reversed", "other-first", "arguments-inherited", "extra", "inherited", "only-inherited", "meta-undefined", "meta-set");
    fc.assert(
      fc.property(name, args, shape, fc.boolean(), fc.nat(), (tool, given, form, wrapped, id) => {
        let body: Record<string, unknown>;
        if (form === "reversed") body = { arguments: given, name: tool };
        else if (form === "other-first") body = Object.assign(Object.create({ name: "inherited" }) as Record<string, unknown>, { tool, arguments: given });
        else if (form === "arguments-inherited") body = Object.assign(Object.create({ arguments: { leaked: 1 } }) as Record<string, unknown>, { name: tool, other: 1 });
        else if (form === "extra") body = { name: tool, arguments: given, task: { ttl: 1 } };
        else if (form === "inherited") body = Object.assign(Object.create({ arguments: { x: 1 } }) as Record<string, unknown>, { name: tool });
        else if (form === "only-inherited") body = Object.create({ name: tool, arguments: given }) as Record<string, unknown>;
        else if (form === "meta-undefined") body = { name: tool, arguments: given, _meta: undefined };
        else if (form === "meta-set") body = { name: tool, arguments: given, _meta: { progressToken: 1 } };
        else body = { name: tool, arguments: given };
        const sent = wrapped ? envelope.wrap(body) : body;
        const message = { jsonrpc: "2.0", id, method: "tools/call", params: sent };
        expect(messageText(message)).toBe(JSON.stringify(message));
      }),
      { numRuns: 1500, ...seed },
    );
  });

  it("reads a call's name and arguments once, also when the template cannot write them", () => {
    // A getter may answer differently each time: the text is what one read gave, as
    // JSON.stringify (one read of each) would write it.
    const reads: string[] = [];
    let answers = 0;
    const params = {
      get name() {
        reads.push("name");
        return "echo";
      },
      get arguments() {
        reads.push("arguments");
        answers += 1;
        return answers === 1 ? { toJSON: () => "first" } : { v: answers };
      },
    };
    const text = messageText({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
    expect(text).toBe('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":"first"}}');
    expect(reads).toEqual(["name", "arguments"]);
    const dated = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: 7, arguments: new Date(0) } };
    expect(messageText(dated)).toBe(JSON.stringify(dated));
  });

  it("leaves a request with a toJSON of its own, or on its params, to JSON.stringify", () => {
    const toJSON = (key: string) => ({ key });
    const cases: object[] = [
      { jsonrpc: "2.0", id: 1, method: "m", params: { a: 1, toJSON } },
      { jsonrpc: "2.0", id: 1, method: "m", params: envelope.wrap({ a: 1, toJSON }) },
      Object.defineProperty({ jsonrpc: "2.0", id: 1, method: "m", params: { a: 1 } }, "toJSON", { value: () => "replaced" }),
      Object.defineProperty({ jsonrpc: "2.0", method: "m", params: envelope.wrap({ a: 1 }) }, "toJSON", { value: () => "replaced" }),
      { jsonrpc: "2.0", id: 1, method: "m", params: Object.freeze(envelope.wrap({ a: 1 })) },
    ];
    for (const message of cases) expect(messageText(message)).toBe(JSON.stringify(message));
  });

  it("writes a later MRTR leg as JSON.stringify does, from the first leg's text and the answers", () => {
    // Keys that would clash with the answers' (the caller's own inputResponses, requestState,
    // _meta), integer-like keys that objects order first, and answers a toJSON writes.
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("0", "7", "inputResponses", "requestState", "_meta", "name"));
    const given = fc.dictionary(key, json, { maxKeys: 5 });
    const responses = fc.oneof(
      fc.constant(undefined),
      fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 }),
      fc.constant({ a: { toJSON: (k: string) => `inner ${k}` } }),
      fc.constant({ toJSON: (k: string) => `outer ${k}` }),
    );
    const state = fc.option(fc.string({ maxLength: 10 }), { nil: undefined });
    fc.assert(
      fc.property(given, responses, state, fc.option(fc.constantFrom("debug", "error"), { nil: undefined }), fc.nat(), (body, inputResponses, requestState, level, id) => {
        const first = envelope.wrap(body, level, undefined, true);
        const firstMessage = { jsonrpc: "2.0", id, method: "tools/call", params: first };
        expect(messageText(firstMessage)).toBe(JSON.stringify(firstMessage));
        for (const round of [1, 2]) {
          const later = envelope.wrap(body, level, { inputResponses: inputResponses as Record<string, unknown> | undefined, requestState }, first);
          const message = { jsonrpc: "2.0", id: id + round, method: "tools/call", params: later };
          expect(messageText(message)).toBe(JSON.stringify(message));
        }
      }),
      { numRuns: 1500, ...seed },
    );
  });

  it("repeats the first leg's params as it sent them, and writes afresh what is not the leg it marked", () => {
    const args = { path: "a.txt" };
    const body = { name: "read", arguments: args };
    const first = envelope.wrap(body, undefined, undefined, true);
    const firstText = messageText({ jsonrpc: "2.0", id: 1, method: "tools/call", params: first });
    // The caller changes its arguments while the server waits for an answer.
    args.path = "b.txt";
    const answers = { inputResponses: { q: { action: "accept" } }, requestState: "s" };
    const later = envelope.wrap(body, undefined, answers, first);
    const laterText = messageText({ jsonrpc: "2.0", id: 2, method: "tools/call", params: later });
    expect(JSON.parse(laterText).params).toMatchObject({ name: "read", arguments: { path: "a.txt" }, inputResponses: answers.inputResponses, requestState: "s" });
    expect(laterText.startsWith(firstText.slice(0, firstText.indexOf(',"_meta"')).replace('"id":1', '"id":2'))).toBe(true);
    // A copy of the later leg's params (which carries the mark) is not that leg: it is written as it is.
    const copy = { ...later, extra: 1 };
    delete (copy as Record<string, unknown>)._meta;
    const moved = Object.assign(copy, { _meta: later._meta });
    const message = { jsonrpc: "2.0", id: 3, method: "tools/call", params: moved };
    expect(messageText(message)).toBe(JSON.stringify(message));
    // A first leg written another way (no envelope text kept) marks nothing.
    const plain = envelope.wrap({ ...body, _meta: { mine: 1 } }, undefined, undefined, true);
    const after = envelope.wrap(body, undefined, answers, plain);
    const afterMessage = { jsonrpc: "2.0", id: 4, method: "tools/call", params: after };
    expect(messageText(afterMessage)).toBe(JSON.stringify(afterMessage));
  });

  it("keeps a request's text only when its envelope was asked to (a call's first leg), as no key JSON or a spread of keys sees", () => {
    const body = { name: "read", arguments: { path: "a.txt" } };
    const answers = { inputResponses: { q: { action: "accept" } }, requestState: "s" };
    const kept = envelope.wrap(body, undefined, undefined, true);
    const plain = envelope.wrap(body);
    for (const [id, params] of [[1, kept], [2, plain]] as const) {
      const message = { jsonrpc: "2.0", id, method: "tools/call", params };
      expect(messageText(message)).toBe(JSON.stringify(message));
      expect(Object.keys(params)).toEqual(["name", "arguments", "_meta"]);
    }
    expect(Object.getOwnPropertySymbols(plain)).toEqual([]);
    // Later legs of each: the first repeats the kept text (the caller's change is not sent), the second is written afresh.
    body.arguments.path = "b.txt";
    const fromKept = JSON.parse(messageText({ jsonrpc: "2.0", id: 3, method: "tools/call", params: envelope.wrap(body, undefined, answers, kept) }));
    const fromPlain = JSON.parse(messageText({ jsonrpc: "2.0", id: 4, method: "tools/call", params: envelope.wrap(body, undefined, answers, plain) }));
    expect(fromKept.params.arguments).toEqual({ path: "a.txt" });
    expect(fromPlain.params.arguments).toEqual({ path: "b.txt" });
  });

  it("keeps what it registered from changing under it: the object is a frozen copy", () => {
    const capabilities = { elicitation: { form: {} as Record<string, unknown> } };
    const meta = encodeOnce({ capabilities });
    capabilities.elicitation.form.changed = true;
    expect(JSON.stringify(meta)).toBe('{"capabilities":{"elicitation":{"form":{}}}}');
    expect(Object.isFrozen(meta.capabilities.elicitation)).toBe(true);
  });

  it("leaves a caller's _meta that is not plain JSON to JSON.stringify: a toJSON, a BigInt, a cycle", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const toJSON of [() => "x", () => undefined, () => ({ replaced: true }), () => [1]]) {
      const message = { jsonrpc: "2.0", id: 1, method: "m", params: envelope.wrap({ _meta: { a: 1, toJSON } }) };
      expect(messageText(message)).toBe(JSON.stringify(message));
    }
    for (const meta of [{ big: 1n }, { cyclic }]) {
      const message = { jsonrpc: "2.0", id: 1, method: "m", params: envelope.wrap({ _meta: meta }) };
      expect(() => messageText(message)).toThrow(TypeError);
    }
  });

  it("throws as JSON.stringify does on what cannot be serialised, and leaves the params as they were", () => {
    const wrapped = envelope.wrap({ big: 1n });
    const meta = wrapped._meta;
    expect(() => messageText({ jsonrpc: "2.0", id: 1, method: "m", params: wrapped })).toThrow(TypeError);
    expect(wrapped._meta).toBe(meta);
  });
});
