/**
 * What the HTTP transport knows of authorization: it asks for the `Authorization` header of a
 * request to the resource, and reports a `401` or `403` so that the authorizer can get a token
 * (or a better one) before the request is sent once more. Nothing else of the transport knows
 * OAuth (`src/auth/` implements it).
 *
 * The header goes only to the resource's own origin: a request elsewhere (a redirect's target,
 * an HTTP+SSE endpoint is already refused there) never carries it.
 */
import type { Exchange, ExchangeRequest, ExchangeResponse } from "./http-exchange.js";
import { withField } from "../util/sanitize.js";

/** What authorizes one request: its `Authorization` value, and a DPoP proof when the token is bound to a key. */
export interface Authorization {
  readonly authorization: string;
  readonly dpop?: string | undefined;
}

export interface Authorizer {
  /** The headers for `method` to `url` now, or undefined when there is no token yet. */
  authorize(method: string, url: URL): Promise<Authorization | undefined>;
  /**
   * The resource answered `status` (`header` reads its headers: `WWW-Authenticate`,
   * `DPoP-Nonce`): resolves true when a new token (or a nonce) is there (send again), false when
   * nothing more can be done (the answer stands); rejects with an `"auth"` ClientError when
   * authorizing failed.
   */
  challenged(status: 401 | 403, header: (name: string) => string | undefined, sent: Authorization | undefined): Promise<boolean>;
  /** A request with this authorization was not refused: the token works. */
  accepted(sent: Authorization): void;
  /** The connection ended: a flow under way (a person who never answers, say) ends with it. */
  close(): void;
  /** Set by the transport: told when a flow starts and stops waiting on the person. */
  onPersonWait?: ((waiting: boolean) => void) | undefined;
}

/** Authorization rounds one request may take before its 401 or 403 stands. */
const MAX_ROUNDS = 4;

/** The exchange that authorizes requests to `origin` through `authorizer`. */
export function authorizingExchange(inner: Exchange, origin: string, authorizer: Authorizer): Exchange {
  return {
    async send(request: ExchangeRequest): Promise<ExchangeResponse> {
      if (request.url.origin !== origin) return inner.send(request);
      // A nonce, a refresh, a new flow, a step-up: a few rounds per request, whatever the server says.
      for (let round = 1; ; round++) {
        const sent = await authorizer.authorize(request.method, request.url);
        const response = await inner.send(sent === undefined ? request : withAuthorization(request, sent));
        if (response.status !== 401 && response.status !== 403) {
          if (sent !== undefined) authorizer.accepted(sent);
          return response;
        }
        const challenge = response.header("www-authenticate");
        if (response.status === 403 && !(challenge ?? "").includes("insufficient_scope")) return response;
        // Read now: authorizing may take a person's minutes, and the answer may still stand.
        const kept = await keep(response);
        if (request.ticket?.cancelled === true || round > MAX_ROUNDS) return kept;
        if (!(await authorizer.challenged(response.status, (name) => response.header(name), sent))) return kept;
        // Given up while authorizing: not sent again.
        if (isCancelled(request)) return kept;
      }
    },
  };
}

function isCancelled(request: ExchangeRequest): boolean {
  return request.ticket?.cancelled === true;
}

function withAuthorization(request: ExchangeRequest, sent: Authorization): ExchangeRequest {
  // Copied by hand, not spread, on every authorized request: see `withField`.
  const extra = withField(request.extra, "authorization", sent.authorization);
  if (sent.dpop !== undefined) extra.dpop = sent.dpop;
  return withField(request, "extra", extra) as unknown as ExchangeRequest;
}

/** The bytes of an error answer this short are enough to report it. */
const KEPT_BYTES = 64 * 1024;

/** The response with its (short) body read and kept, the connection freed. */
async function keep(response: ExchangeResponse): Promise<ExchangeResponse> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  await response
    .consume((chunk) => {
      if (size >= KEPT_BYTES) return response.discard();
      chunks.push(chunk);
      size += chunk.byteLength;
    })
    .catch(() => {});
  return {
    status: response.status,
    header: (name) => response.header(name),
    consume: (onChunk) => {
      for (const chunk of chunks) onChunk(chunk);
      return Promise.resolve();
    },
    discard: () => {},
  };
}

