// The MRTR flow's own logic with a scripted leg (no I/O): the pause schedule of state-only
// rounds on a fake clock, the round cap, and what each retry carries.
import { afterEach, describe, expect, it, vi } from "vitest";
import { runWithInput, type Leg } from "../../src/protocol/mrtr.js";

afterEach(() => vi.useRealTimers());

const options = { method: "tools/call", maxRounds: 10, assigns: undefined };

describe("runWithInput", () => {
  it("waits 50 ms before retrying a state-only round, doubling up to 1 s", async () => {
    vi.useFakeTimers();
    const times: number[] = [];
    const leg: Leg = () => {
      times.push(Date.now());
      return Promise.resolve(times.length <= 7 ? { resultType: "input_required", requestState: "s" } : { content: [] });
    };
    const done = runWithInput({ name: "t" }, options, leg, () => Promise.reject(new Error("no input was asked")));
    await vi.runAllTimersAsync();
    expect(await done).toEqual({ content: [] });
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([50, 100, 200, 400, 800, 1000, 1000]);
  });

  it("sends the original params with the answers and the state, never earlier answers", async () => {
    const sent: Record<string, unknown>[] = [];
    // The leg is given the call's params and, apart, what a later leg adds to them.
    const leg: Leg = (params, _signal, _total, answers) => {
      sent.push(answers === undefined ? params : { ...params, ...answers });
      if (sent.length === 1) return Promise.resolve({ resultType: "input_required", inputRequests: { a: { method: "roots/list" } }, requestState: "one" });
      if (sent.length === 2) return Promise.resolve({ resultType: "input_required", inputRequests: { b: { method: "roots/list" } } });
      return Promise.resolve({ resultType: "complete", content: [] });
    };
    let n = 0;
    await runWithInput({ name: "t", arguments: { x: 1 } }, options, leg, (requests) => Promise.resolve(Object.fromEntries(Object.keys(requests).map((k) => [k, { n: ++n }]))));
    expect(sent).toEqual([
      { name: "t", arguments: { x: 1 } },
      { name: "t", arguments: { x: 1 }, requestState: "one", inputResponses: { a: { n: 1 } } },
      { name: "t", arguments: { x: 1 }, inputResponses: { b: { n: 2 } } },
    ]);
  });

  it("gives the first leg the caller's total bound and the later ones none (the flow keeps it)", async () => {
    const totals: (number | undefined)[] = [];
    const leg: Leg = (_params, _signal, total) => {
      totals.push(total);
      return Promise.resolve(totals.length === 1 ? { resultType: "input_required", requestState: "s" } : {});
    };
    await runWithInput({}, { ...options, maxTotalTimeout: 5000 }, leg, () => Promise.resolve({}));
    expect(totals).toEqual([5000, undefined]);
  });

  it("fails past maxRounds with the last result as data", async () => {
    const leg: Leg = () => Promise.resolve({ resultType: "input_required", inputRequests: { a: { method: "roots/list" } }, requestState: "again" });
    const error = await runWithInput({}, { ...options, maxRounds: 2 }, leg, () => Promise.resolve({ a: {} })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "protocol", data: { requestState: "again" } });
  });
});
