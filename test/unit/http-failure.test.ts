// What a socket error says about an HTTP connection: only an error no request can get past (no
// server listening, no such host, no route) says the server is gone; a reset, a broken pipe or a
// socket timeout broke the one exchange that met it. The codes come as node:http gives them
// (on the error itself) and as fetch gives them (down the cause chain), and the reason is named
// in words for the error's message. EPIPE and the timeouts cannot be made to happen on demand
// on a loopback socket, so their reading is checked here; the reset is also met on a real socket
// in test/integration/http-keepalive-race.test.ts.
import { describe, expect, it } from "vitest";
import { socketFailure, unreachable } from "../../src/transport/http-failure.js";
import { ClientError } from "../../src/util/errors.js";

/** An error as node:http gives it: the code on the error itself. */
function nodeError(code: string, message: string, syscall?: string): Error {
  return Object.assign(new Error(message), { code, ...(syscall === undefined ? {} : { syscall }) });
}

/** An error as fetch (undici) gives it: a TypeError whose cause has the code. */
function fetchError(code: string, message: string): TypeError {
  return new TypeError("fetch failed", { cause: Object.assign(new Error(message), { code }) });
}

describe("socketFailure", () => {
  const gone: Array<[string, string]> = [
    ["ECONNREFUSED", "the connection was refused"],
    ["ENOTFOUND", "the host name is not known"],
    ["EHOSTUNREACH", "no route to the host"],
    ["ENETUNREACH", "the network is unreachable"],
  ];
  for (const [code, reason] of gone) {
    it(`reads ${code} as a server that is gone, from node:http and from fetch`, () => {
      expect(socketFailure(nodeError(code, `connect ${code} 10.0.0.1:80`, "connect"))).toEqual({ code, reason, detail: `connect ${code} 10.0.0.1:80`, gone: true });
      expect(socketFailure(fetchError(code, `connect ${code}`))).toMatchObject({ code, reason, gone: true });
      expect(unreachable(nodeError(code, "x"))).toBe(true);
      expect(unreachable(fetchError(code, "x"))).toBe(true);
    });
  }

  const broken: Array<[string, RegExp]> = [
    ["ECONNRESET", /reset/],
    ["EPIPE", /broken pipe/],
    ["ETIMEDOUT", /socket timeout/],
    ["ESOCKETTIMEDOUT", /socket timeout/],
    ["UND_ERR_CONNECT_TIMEOUT", /socket timeout/],
    ["UND_ERR_HEADERS_TIMEOUT", /socket timeout/],
    ["UND_ERR_BODY_TIMEOUT", /socket timeout/],
    ["UND_ERR_SOCKET", /closed the connection/],
    ["ECONNABORTED", /aborted/],
    ["EAI_AGAIN", /could not be resolved for now/],
  ];
  for (const [code, reason] of broken) {
    it(`reads ${code} as one broken exchange, not a server that is gone`, () => {
      expect(socketFailure(nodeError(code, "socket hang up"))).toEqual({ code, reason: expect.stringMatching(reason), detail: "socket hang up", gone: false });
      expect(socketFailure(fetchError(code, "other side closed"))).toMatchObject({ code, detail: "other side closed", gone: false });
      expect(unreachable(nodeError(code, "x"))).toBe(false);
      expect(unreachable(fetchError(code, "x"))).toBe(false);
    });
  }

  it("finds the code under the transport's own wrapping, and takes the outermost", () => {
    const reset = nodeError("ECONNRESET", "read ECONNRESET", "read");
    const wrapped = new ClientError("transport", "the server's event stream ended before it answered", { cause: reset });
    expect(socketFailure(wrapped)).toMatchObject({ code: "ECONNRESET", gone: false });
    // A reset met while resuming after the server went away: the outer code is the one read.
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", cause: reset });
    expect(socketFailure(refused)).toMatchObject({ code: "ECONNREFUSED", gone: true });
  });

  it("reads nothing into an error without a known code, a numeric code or a chain that loops", () => {
    expect(socketFailure(new Error("boom"))).toBeUndefined();
    expect(socketFailure(nodeError("ERR_SOMETHING_ELSE", "x"))).toBeUndefined();
    expect(socketFailure(new ClientError("rpc", "HTTP 500", { code: -32000 }))).toBeUndefined();
    expect(socketFailure("ECONNRESET")).toBeUndefined();
    expect(socketFailure(undefined)).toBeUndefined();
    const looped: { code?: string; cause?: unknown } = {};
    looped.cause = looped;
    expect(socketFailure(looped)).toBeUndefined();
  });

  it("bounds the detail it quotes", () => {
    const failure = socketFailure(nodeError("ECONNRESET", "x".repeat(10_000)));
    expect(failure!.detail.length).toBeLessThanOrEqual(201);
  });
});
