import { afterEach, describe, expect, it, vi } from "vitest";
import { StderrTail } from "../../src/node/stdio.js";
import { TokenBucket } from "../../src/util/token-bucket.js";
import { ClientError, RpcError } from "../../src/util/errors.js";

describe("StderrTail", () => {
  it("keeps the last bytes, cut at a line start", () => {
    const tail = new StderrTail(20);
    for (let i = 0; i < 50; i++) tail.append(`line ${i}\n`);
    const text = tail.toString();
    expect(text.length).toBeLessThanOrEqual(20);
    expect(text.endsWith("line 49")).toBe(true);
    expect(text.startsWith("line ")).toBe(true);
  });

  it("is empty when nothing was written", () => {
    expect(new StderrTail(10).toString()).toBe("");
  });
});

describe("TokenBucket", () => {
  afterEach(() => vi.useRealTimers());

  it("allows a burst, then refills at the rate", () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket({ perSecond: 10, burst: 20 });
    const taken = Array.from({ length: 21 }, () => bucket.take());
    expect(taken.filter(Boolean)).toHaveLength(20);
    expect(taken[20]).toBe(false);
    vi.advanceTimersByTime(100);
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    expect(bucket.refused).toBe(2);
    vi.advanceTimersByTime(60_000);
    expect(Array.from({ length: 21 }, () => bucket.take()).filter(Boolean)).toHaveLength(20);
  });
});

describe("errors", () => {
  it("brands ClientError and RpcError so instanceof works across copies", () => {
    const foreign = Object.defineProperty(new Error("x"), Symbol.for("conduit-mcp.ClientError"), { value: true });
    expect(foreign instanceof ClientError).toBe(true);
    expect(new Error("y") instanceof ClientError).toBe(false);
    expect(new RpcError(-1, "no") instanceof RpcError).toBe(true);
    expect(new RpcError(-1, "no") instanceof ClientError).toBe(false);
  });

  it("refuses a non-integer RpcError code", () => {
    expect(() => new RpcError(1.5, "x")).toThrow(TypeError);
  });

  it("names the server in a copy, keeping kind, code, data and cause", () => {
    const cause = new Error("root");
    const error = new ClientError("rpc", "m", { code: -5, data: { d: 1 }, cause });
    const copy = error.withServer("s1");
    expect(copy).toMatchObject({ kind: "rpc", code: -5, data: { d: 1 }, serverId: "s1", message: "m" });
    expect(copy.cause).toBe(cause);
  });
});
