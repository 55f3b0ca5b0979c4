// input/handler.ts: a Handler's `ctx` has `signal` as an own, enumerable getter that makes the
// signal only when read, which a spread keeps, and every context of a kind has the same keys.
import { describe, expect, it } from "vitest";
import { formContext, inputContext, urlContext } from "../../src/input/handler.js";
import type { InputSource } from "../../src/input/pipeline.js";
import type { SignalSource } from "../../src/input/supervisor.js";

const source = { serverId: "s", era: "modern", assigns: { user: 1 }, relatedRequestId: null } as unknown as InputSource;

/** Signals made only when read, each read counted. */
function lazySignals(): SignalSource & { reads: number } {
  const controller = new AbortController();
  return {
    reads: 0,
    get signal() {
      this.reads += 1;
      return controller.signal;
    },
  };
}

describe("the Handler's ctx", () => {
  it("reads the signal only when the callback does, from its own signals", () => {
    const first = lazySignals();
    const second = lazySignals();
    const a = inputContext("c", source, first);
    const b = formContext("c", source, second, {});
    expect(first.reads + second.reads).toBe(0);
    expect(a.signal).toBe(first.signal);
    expect(b.signal).toBe(second.signal);
    expect(a.signal).not.toBe(b.signal);
  });

  it("has signal as an own enumerable key that a spread keeps, beside the context's fields", () => {
    const signals = lazySignals();
    const ctx = urlContext("c", source, signals, { url: "https://x.test/", host: "x.test", idn: false, originMismatch: true });
    expect(Object.keys(ctx)).toEqual(["client", "serverId", "era", "assigns", "relatedRequestId", "mode", "url", "host", "idn", "originMismatch", "signal"]);
    const copy = { ...ctx };
    expect(copy.signal).toBe(signals.signal);
    expect(copy.url).toBe("https://x.test/");
    expect(JSON.parse(JSON.stringify({ ...formContext("c", source, signals, { f: { sensitiveSuspected: true } }), signal: undefined }))).toEqual({
      client: "c",
      serverId: "s",
      era: "modern",
      assigns: { user: 1 },
      relatedRequestId: null,
      mode: "form",
      fields: { f: { sensitiveSuspected: true } },
    });
  });

  it("gives every context of a kind the same keys in the same order", () => {
    const keys = (made: object) => Object.keys(made).join(",");
    expect(keys(inputContext("a", source, lazySignals()))).toBe(keys(inputContext("b", { ...source, assigns: undefined }, lazySignals())));
    expect(keys(formContext("a", source, lazySignals(), {}))).toBe(keys(formContext("b", source, lazySignals(), { x: { sensitiveSuspected: false } })));
  });
});
