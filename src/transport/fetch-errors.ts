/**
 * What a failed `fetch` means in a browser, where the answer to a cross-origin request the
 * server did not allow (CORS) is withheld from the page and fetch rejects with a bare
 * `TypeError` ("Failed to fetch"), the same one a network failure gives. Told apart without
 * side effects by a probe the browser does not check: a `no-cors` HEAD with no credentials and
 * no headers of ours, which resolves (opaque) when the server is reachable and rejects when
 * nothing answers (or the page's Content-Security-Policy forbids the URL).
 *
 * The error names what this request needed the server to allow (its method, the names of the
 * request headers the browser asks a preflight about) and what the page must be able to read
 * (`Mcp-Session-Id`), never a header's value: `Authorization` carries a token.
 *
 * Only a page or a worker of one has an origin that CORS protects; Node, Deno, Bun and Workers
 * never refuse for CORS, and their failures are left as they are.
 */
import { ClientError } from "../util/errors.js";
import { redactUrl } from "../util/text.js";
import { delay } from "../util/time.js";

/** How long the probe may take before the message says "CORS or the network". */
export const PROBE_TIMEOUT_MS = 5000;

/** What the probe found: the server answered, nothing answered, or the probe could not tell. */
export type Reachability = "reachable" | "unreachable" | "unknown";

export type CorsReason = "cors" | "unreachable" | "cors-or-network";

/** The part of a request the explanation reads: its method, URL and the headers it sent. */
export interface FailedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The origin of the page (or the page's worker) this code runs in, when it is one CORS
 * protects; undefined on a server runtime (no document and no worker scope) or an opaque origin.
 */
export function pageOrigin(): string | undefined {
  const scope = globalThis as { document?: unknown; WorkerGlobalScope?: unknown; location?: { origin?: unknown } };
  if (scope.document === undefined && typeof scope.WorkerGlobalScope !== "function") return undefined;
  const origin = scope.location?.origin;
  return typeof origin === "string" && origin !== "null" ? origin : undefined;
}

/** Whether `error` (a fetch's rejection) may be a CORS refusal of `url` from `origin`. */
export function mayBeCors(error: unknown, url: URL, origin: string | undefined): origin is string {
  // A browser's refusal is a TypeError and nothing more; an abort is a DOMException, and a
  // server runtime's TypeError carries the socket's error as its cause.
  return origin !== undefined && url.origin !== origin && error instanceof TypeError && error.cause === undefined;
}

/** Asks whether `url` answers at all, with a request no CORS check can refuse (see the top). */
export async function probe(fetchImpl: (input: URL, init: RequestInit) => Promise<Response>, url: URL, signal?: AbortSignal): Promise<Reachability> {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const answered = fetchImpl(url, { method: "HEAD", mode: "no-cors", credentials: "omit", signal: controller.signal }).then(
      (response): Reachability => {
        response.body?.cancel().catch(() => {});
        return "reachable";
      },
      (): Reachability => (controller.signal.aborted ? "unknown" : "unreachable"),
    );
    const late = delay(PROBE_TIMEOUT_MS, controller.signal).then(
      (): Reachability => "unknown",
      (): Reachability => "unknown",
    );
    return await Promise.race([answered, late]);
  } finally {
    signal?.removeEventListener("abort", stop);
    controller.abort();
  }
}

/** The CORS-safelisted request headers (Fetch, "CORS-safelisted request-header"), by name and value. */
function safelisted(name: string, value: string): boolean {
  if (name === "accept" || name === "accept-language" || name === "content-language") return true;
  if (name !== "content-type") return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "text/plain" || type === "application/x-www-form-urlencoded" || type === "multipart/form-data";
}

/** Header names as the MCP specification spells them (names are case-insensitive on the wire). */
const SPELLED: ReadonlyMap<string, string> = new Map([
  ["mcp-protocol-version", "MCP-Protocol-Version"],
  ["mcp-session-id", "Mcp-Session-Id"],
  ["last-event-id", "Last-Event-ID"],
  ["dpop", "DPoP"],
]);

function spelled(name: string): string {
  return SPELLED.get(name) ?? name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** The request headers a preflight asks the server to allow for `request`, in the order sent. */
export function preflightHeaders(request: FailedRequest): string[] {
  const names: string[] = [];
  for (const name in request.headers) {
    const lower = name.toLowerCase();
    if (!safelisted(lower, request.headers[name]!) && !names.includes(spelled(lower))) names.push(spelled(lower));
  }
  return names;
}

/** Whether a method needs `Access-Control-Allow-Methods` (GET, HEAD and POST never do). */
function simpleMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "POST";
}

/**
 * The error for a request the browser refused, by what the probe found. `expose` names the
 * response headers the page must read (the session's, when sessions are possible).
 */
export function corsError(request: FailedRequest, origin: string, found: Reachability, expose: readonly string[], cause: unknown): ClientError {
  const shown = redactUrl(request.url);
  const headers = preflightHeaders(request);
  const reason: CorsReason = found === "reachable" ? "cors" : found === "unreachable" ? "unreachable" : "cors-or-network";
  const data = { reason, origin, method: request.method, headers, expose: [...expose] };
  if (reason === "unreachable") {
    return new ClientError("transport", `${request.method} ${shown} failed: the server could not be reached from this page (the network failed, or the page's Content-Security-Policy does not allow the URL)`, { cause, data });
  }
  const needs = [`Access-Control-Allow-Origin for ${origin}`];
  if (!simpleMethod(request.method)) needs.push(`the method ${request.method} (Access-Control-Allow-Methods)`);
  if (headers.length > 0) needs.push(`the request header${headers.length > 1 ? "s" : ""} ${headers.join(", ")} (Access-Control-Allow-Headers)`);
  if (expose.length > 0) needs.push(`to expose ${expose.join(", ")} (Access-Control-Expose-Headers)`);
  const what = `it needs ${needs.slice(0, -1).join(", ")}${needs.length > 1 ? " and " : ""}${needs.at(-1)!}, and a 2xx answer to its preflight (OPTIONS, which carries no credentials)`;
  const lead =
    reason === "cors"
      ? `${request.method} ${shown} was refused by the browser: the server did not allow this page's origin (${origin}) to send this request (CORS)`
      : `${request.method} ${shown} failed: either the server did not allow this page's origin (${origin}) to send this request (CORS), or it could not be reached (the browser does not say which)`;
  return new ClientError("transport", `${lead}; ${what}`, { cause, data });
}

/** Whether `error` is a browser's refusal for CORS (or one the browser would not tell from a network failure). */
export function isCorsRefusal(error: unknown): error is ClientError {
  if (!(error instanceof ClientError) || error.kind !== "transport") return false;
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  return reason === "cors" || reason === "cors-or-network";
}

/**
 * A 400 to a request that carried no session, on a connection that keeps sessions, from a page
 * on another origin than the server's: the likeliest reason is a session id the server sent and
 * did not expose (a page reads only the response headers a server lists in
 * Access-Control-Expose-Headers, and every other one reads as absent). The error stays what it
 * was (kind, code, data); its message says so. Elsewhere `failure` is returned as it is.
 */
export function unexposedSession(failure: ClientError, url: URL, origin = pageOrigin()): ClientError {
  if (origin === undefined || url.origin === origin) return failure;
  return new ClientError(
    failure.kind,
    `${failure.message}; no Mcp-Session-Id could be read from the answer to initialize: if the server sent one, it must expose it to this page (Access-Control-Expose-Headers: Mcp-Session-Id)`,
    { cause: failure, code: failure.code, data: failure.data },
  );
}
