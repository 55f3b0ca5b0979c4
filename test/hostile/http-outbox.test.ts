// The HTTP outbox alone: 64 messages on their way, the rest in order, the streams paused while
// any wait, a bound on what waits, and a close that lets every waiter go.
import { describe, expect, it } from "vitest";
import { HttpOutbox, MAX_PENDING_MESSAGES, MAX_WAITING_BYTES } from "../../src/transport/http-outbox.js";

describe("HttpOutbox", () => {
  it("lets 64 go at once, the rest in order as slots free, and is paused while any wait", async () => {
    expect(MAX_PENDING_MESSAGES).toBe(64);
    const outbox = new HttpOutbox();
    for (let i = 0; i < 64; i++) expect(outbox.enter(10)).toBeUndefined();
    expect(outbox.paused).toBeUndefined();
    const went: number[] = [];
    const turns = [0, 1, 2].map((n) => {
      const turn = outbox.enter(10);
      expect(turn).toBeInstanceOf(Promise);
      return (turn as Promise<void>).then(() => went.push(n));
    });
    const paused = outbox.paused!;
    expect(paused).toBeInstanceOf(Promise);
    let resumed = false;
    void paused.then(() => (resumed = true));
    outbox.leave();
    outbox.leave();
    await turns[1];
    expect(went).toEqual([0, 1]);
    expect(resumed).toBe(false);
    outbox.leave();
    await Promise.all(turns);
    await paused;
    expect(went).toEqual([0, 1, 2]);
    expect(outbox.paused).toBeUndefined();
    // Still 64 on their way: the next one waits again.
    expect(outbox.enter(10)).toBeInstanceOf(Promise);
  });

  it(`refuses a message past ${MAX_WAITING_BYTES} bytes waiting`, () => {
    const outbox = new HttpOutbox();
    for (let i = 0; i < 64; i++) expect(outbox.enter(1)).toBeUndefined();
    expect(outbox.enter(MAX_WAITING_BYTES)).toBeInstanceOf(Promise);
    expect(outbox.enter(1)).toBe(false);
  });

  it("lets every waiter go on close, and pauses nothing after", async () => {
    const outbox = new HttpOutbox();
    for (let i = 0; i < 64; i++) expect(outbox.enter(1)).toBeUndefined();
    const waiting = [outbox.enter(1), outbox.enter(1)] as Array<Promise<void>>;
    const paused = outbox.paused!;
    outbox.close();
    await Promise.all([...waiting, paused]);
    expect(outbox.paused).toBeUndefined();
    expect(outbox.enter(1)).toBeUndefined();
  });
});
