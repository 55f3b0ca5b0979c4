// The fetch backend's browser semantics, in Node with an injected fetch: a bare TypeError from a
// page's fetch to another origin becomes a CORS error (or "unreachable") by what a no-cors probe
// finds, naming header names and never their values; an opaque redirect is refused; the
// credentials mode reaches fetch and is checked with the target. Chromium proves the same on
// the real thing (test/browser/web-entry.test.ts).
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkTarget } from "../../src/targets.js";
import { ClientError, InvalidArgumentError } from "../../src/index.js";
import { PROBE_TIMEOUT_MS, corsError, mayBeCors, pageOrigin, preflightHeaders, probe } from "../../src/transport/fetch-errors.js";
import { fetchExchange, type FetchLike } from "../../src/transport/http-exchange.js";

const PAGE = "http://127.0.0.1:4000";
const SERVER = new URL("http://127.0.0.1:5000/mcp");

/** Runs `fn` as if in a page of PAGE: a document and a location, as a browser has. */
async function inPage<T>(fn: () => Promise<T>): Promise<T> {
  const scope = globalThis as { document?: unknown; location?: unknown };
  scope.document = {};
  scope.location = { origin: PAGE };
  try {
    return await fn();
  } finally {
    delete scope.document;
    delete scope.location;
  }
}

/** A fetch that refuses the request as a browser refuses for CORS, and answers the probe as told. */
function browserFetch(probeAnswer: "resolve" | "reject" | "hang"): { fetch: FetchLike; inits: RequestInit[] } {
  const inits: RequestInit[] = [];
  const fetch: FetchLike = (_input, init = {}) => {
    inits.push(init);
    if (init.mode !== "no-cors") return Promise.reject(new TypeError("Failed to fetch"));
    if (probeAnswer === "resolve") return Promise.resolve(new Response(null, { status: 200 }));
    if (probeAnswer === "reject") return Promise.reject(new TypeError("Failed to fetch"));
    return new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
  };
  return { fetch, inits };
}

const legacyPost = { method: "POST" as const, url: SERVER, headers: { accept: "application/json, text/event-stream", "content-type": "application/json", authorization: "Bearer secret-token-1", "mcp-session-id": "session-secret-2", "mcp-protocol-version": "2025-11-25" }, body: "{}" };

afterEach(() => vi.useRealTimers());

describe("fetch in a page", () => {
  it("is not a page in Node: nothing is explained, the TypeError stays as fetch gave it", async () => {
    expect(pageOrigin()).toBeUndefined();
    const { fetch, inits } = browserFetch("resolve");
    const error = await fetchExchange(fetch).send(legacyPost).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(inits).toHaveLength(1);
  });

  it("a CORS refusal of a reachable server names the method, the header names and the session to expose, and no value", async () => {
    const { fetch, inits } = browserFetch("resolve");
    const error = await inPage(() => fetchExchange(fetch).send(legacyPost).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ kind: "transport", data: { reason: "cors", origin: PAGE, method: "POST", headers: ["Content-Type", "Authorization", "Mcp-Session-Id", "MCP-Protocol-Version"], expose: ["Mcp-Session-Id"] } });
    const message = (error as ClientError).message;
    expect(message).toBe(
      `POST ${SERVER.href} was refused by the browser: the server did not allow this page's origin (${PAGE}) to send this request (CORS); it needs Access-Control-Allow-Origin for ${PAGE}, the request headers Content-Type, Authorization, Mcp-Session-Id, MCP-Protocol-Version (Access-Control-Allow-Headers) and to expose Mcp-Session-Id (Access-Control-Expose-Headers), and a 2xx answer to its preflight (OPTIONS, which carries no credentials)`,
    );
    expect(message).not.toContain("secret");
    expect((error as ClientError).cause).toBeInstanceOf(TypeError);
    // The probe: HEAD, no-cors, no credentials, none of the request's headers.
    expect(inits[1]).toMatchObject({ method: "HEAD", mode: "no-cors", credentials: "omit" });
    expect(inits[1]!.headers).toBeUndefined();
  });

  it("a modern request asks no session to be exposed, and a DELETE names its method", async () => {
    const { fetch } = browserFetch("resolve");
    const modern = await inPage(() => fetchExchange(fetch).send({ ...legacyPost, headers: { "content-type": "application/json", "mcp-method": "tools/call", "mcp-name": "echo" } }).catch((e: unknown) => e));
    expect(modern).toMatchObject({ data: { headers: ["Content-Type", "Mcp-Method", "Mcp-Name"], expose: [] } });
    expect((modern as Error).message).not.toContain("Expose");
    const remove = await inPage(() => fetchExchange(fetch).send({ method: "DELETE", url: SERVER, headers: { "mcp-session-id": "s" } }).catch((e: unknown) => e));
    expect((remove as Error).message).toContain("the method DELETE (Access-Control-Allow-Methods)");
  });

  it("a server the probe cannot reach either is unreachable, not CORS", async () => {
    const { fetch } = browserFetch("reject");
    const error = await inPage(() => fetchExchange(fetch).send(legacyPost).catch((e: unknown) => e));
    expect(error).toMatchObject({ kind: "transport", data: { reason: "unreachable" } });
    expect((error as Error).message).toBe(`POST ${SERVER.href} failed: the server could not be reached from this page (the network failed, or the page's Content-Security-Policy does not allow the URL)`);
  });

  it(`a probe that has no answer within ${PROBE_TIMEOUT_MS} ms says both: CORS or the network`, async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const { fetch } = browserFetch("hang");
    const failing = inPage(() => fetchExchange(fetch).send(legacyPost).catch((e: unknown) => e));
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS - 1);
    let settled = false;
    void failing.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await failing;
    expect(error).toMatchObject({ data: { reason: "cors-or-network" } });
    expect((error as Error).message).toContain("either the server did not allow this page's origin");
    expect((error as Error).message).toContain("or it could not be reached (the browser does not say which)");
  });

  it("a request given up is not probed: its cancellation stays what it was", async () => {
    const { fetch, inits } = browserFetch("resolve");
    const { Ticket } = await import("../../src/transport/http-exchange.js");
    const ticket = new Ticket();
    const exchange = fetchExchange((input, init) => {
      ticket.cancel();
      return fetch(input, init);
    });
    const error = await inPage(() => exchange.send({ ...legacyPost, ticket }).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(TypeError);
    expect(inits).toHaveLength(1);
  });

  it("a server runtime's TypeError (with a cause) or a same-origin one is no CORS refusal", () => {
    expect(mayBeCors(new TypeError("fetch failed", { cause: new Error("ECONNREFUSED") }), SERVER, PAGE)).toBe(false);
    expect(mayBeCors(new TypeError("Failed to fetch"), new URL(`${PAGE}/mcp`), PAGE)).toBe(false);
    expect(mayBeCors(new TypeError("Failed to fetch"), SERVER, undefined)).toBe(false);
    expect(mayBeCors(new DOMException("aborted", "AbortError"), SERVER, PAGE)).toBe(false);
    expect(mayBeCors(new TypeError("Failed to fetch"), SERVER, PAGE)).toBe(true);
  });

  it("only the headers a preflight asks about are named (the safelisted ones are not)", () => {
    expect(preflightHeaders({ method: "POST", url: SERVER, headers: { accept: "*/*", "accept-language": "en", "content-type": "text/plain;charset=UTF-8", "last-event-id": "7", "x-api-key": "k", dpop: "p" } })).toEqual(["Last-Event-ID", "X-Api-Key", "DPoP"]);
    expect(corsError({ method: "GET", url: SERVER, headers: { accept: "text/event-stream" } }, PAGE, "reachable", [], undefined).message).toBe(
      `GET ${SERVER.href} was refused by the browser: the server did not allow this page's origin (${PAGE}) to send this request (CORS); it needs Access-Control-Allow-Origin for ${PAGE}, and a 2xx answer to its preflight (OPTIONS, which carries no credentials)`,
    );
  });

  it("the probe settles on its own when nothing answers it, and frees its wait when it does", async () => {
    const answered = await probe(() => Promise.resolve(new Response("x")), SERVER);
    expect(answered).toBe("reachable");
    const controller = new AbortController();
    const waiting = probe((_input, init) => new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))), SERVER, controller.signal);
    controller.abort();
    expect(await waiting).toBe("unknown");
  });
});

describe("a redirect the browser hides", () => {
  it("is refused with a transport error that says it was not followed", async () => {
    const opaque = { type: "opaqueredirect", status: 0, headers: new Headers(), body: null } as unknown as Response;
    const error = await fetchExchange(() => Promise.resolve(opaque))
      .send(legacyPost)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", data: { reason: "redirect" } });
    expect((error as Error).message).toBe(`POST ${SERVER.href} answered with a redirect, which was not followed: the browser hides where it leads, and a request goes to no origin but the one the host named`);
  });
});

describe("credentials", () => {
  it('are "same-origin" by default and as the target says otherwise, passed to fetch', async () => {
    const modes: unknown[] = [];
    const fetch: FetchLike = (_input, init) => {
      modes.push(init?.credentials);
      return Promise.resolve(new Response("{}", { headers: { "content-type": "application/json" } }));
    };
    for (const credentials of [undefined, "omit", "include"] as const) (await fetchExchange(fetch, credentials).send(legacyPost)).discard();
    expect(modes).toEqual(["same-origin", "omit", "include"]);
  });

  it("are checked with the target: anything but the three modes is refused before a connect", () => {
    for (const credentials of ["omit", "same-origin", "include", undefined]) expect(() => checkTarget({ url: "http://127.0.0.1/mcp", credentials })).not.toThrow();
    for (const credentials of ["Include", "", true, 1, null]) {
      expect(() => checkTarget({ url: "http://127.0.0.1/mcp", credentials })).toThrow(InvalidArgumentError);
      expect(() => checkTarget({ url: "http://127.0.0.1/mcp", credentials })).toThrow('an HTTP target\'s `credentials` is "omit", "same-origin" or "include"');
    }
  });
});
