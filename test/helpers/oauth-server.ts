// A protected MCP server and its authorization server, on real sockets, for the OAuth tests:
// the resource answers 401 with a Bearer challenge until a request carries a token the
// authorization server issued; the authorization server has RFC 8414 metadata, Dynamic Client
// Registration, an authorization endpoint that approves at once (redirecting with `code`,
// `state` and `iss`) when the redirect URI is one the client registered, a token endpoint for
// the code (PKCE S256 checked), refresh, client credentials and JWT bearer grants, and an
// identity provider's token exchange (`/idp/token`) for enterprise-managed authorization.
// `mode` scripts the token endpoint's faults; `names` lets the two servers be known by public
// names, reached through `servers.fetch` (a host file, in effect: the sockets stay real).
import { createHash, randomBytes, webcrypto } from "node:crypto";
import http from "node:http";
import { expect, vi } from "vitest";
import { track } from "./cleanup.js";

export type TokenMode =
  | "normal"
  | "garbage"
  | "hang"
  | "no-registration"
  | "bad-token-type"
  | "always-401"
  /** The refresh grant answers 503 (the other grants work). */
  | "refresh-503"
  /** The refresh grant's connection is cut before any answer. */
  | "refresh-reset";

/** What the authorization server received that proves the client (never shown in a message). */
export interface ReceivedCredentials {
  readonly path: string;
  readonly grant: string | undefined;
  /** The Authorization header, client_secret, client_assertion, assertion and subject_token, when sent. */
  readonly values: string[];
}

export interface OAuthServers {
  readonly resourceUrl: string;
  /** The same resource's HTTP+SSE stream (2024-11-05), behind the same authorization. */
  readonly sseUrl: string;
  readonly issuer: string;
  /** The identity provider's token exchange endpoint (enterprise-managed authorization). */
  readonly idpTokenEndpoint: string;
  /** Every token request's grant type, in order. */
  readonly grants: string[];
  /** Every authorization request's query. */
  readonly authorizations: URLSearchParams[];
  readonly registrations: Array<{ redirect_uris: string[]; [key: string]: unknown }>;
  /** The Authorization headers the resource saw. */
  readonly seenTokens: Array<string | undefined>;
  /** Each request to the authorization server that carried something proving the client. */
  readonly credentials: ReceivedCredentials[];
  /** How many requests the resource refused with 401. */
  refusals: number;
  /** How many authorized GETs (the standalone stream, which this resource does not offer) it answered 405. */
  streamsRefused: number;
  /** When set, the resource answers every authorized request with a 307 to this URL. */
  redirectTo: string | undefined;
  /** When set, the resource metadata names these authorization servers instead of its own. */
  authorizationServers: string[] | undefined;
  /** When set, the resource's challenge names this resource_metadata URL. */
  resourceMetadataUrl: string | undefined;
  /** Fields that replace (or, undefined, remove) those of the authorization server's metadata. */
  metadata: Record<string, unknown>;
  /** Issued tokens stop working (as after a revocation or a restart). */
  revokeAll(): void;
  /** Refresh tokens stop working too (the next refresh is refused with invalid_grant). */
  revokeRefreshTokens(): void;
  /** Token lifetime in seconds given from now on. */
  expiresIn: number;
  mode: TokenMode;
  /** Every code issued and every PKCE verifier received: what must never be shown. */
  readonly secrets: string[];
  /** A fetch that reaches the servers by their public names (see `names`), and anything else as it is. */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  close(): Promise<void>;
}

export interface OAuthServerOptions {
  /**
   * The origins the client knows the servers by (`https://mcp.example.test`), reached through
   * `servers.fetch`: for the rules that depend on where a server is.
   */
  names?: { resource?: string; authorizationServer?: string };
  /**
   * A 2025-03-26 server: no resource metadata and no authorization server metadata; the
   * authorization, token and registration endpoints at the default paths of its own origin.
   */
  legacy?: boolean;
  /**
   * Both servers answer as a browser needs to reach them from a page on another origin: any
   * origin allowed, preflights answered, `WWW-Authenticate` and `Mcp-Session-Id` exposed.
   */
  cors?: boolean;
}

interface Listening {
  url: string;
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => unknown;

export async function listen(handler: Handler): Promise<Listening> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => void handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): unknown =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

/** The thumbprint (RFC 7638) of a DPoP proof's key, when the proof is signed by it (ES256); undefined for anything else. */
async function proofKey(proof: string | string[] | undefined): Promise<string | undefined> {
  if (typeof proof !== "string") return undefined;
  const [head = "", payload = "", signature = ""] = proof.split(".");
  try {
    const jwk = (JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { jwk: { kty: string; crv: string; x: string; y: string } }).jwk;
    const key = await webcrypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    const signed = await webcrypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, Buffer.from(signature, "base64url"), Buffer.from(`${head}.${payload}`));
    return signed ? createHash("sha256").update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest("base64url") : undefined;
  } catch {
    return undefined;
  }
}

/** The CORS answers a page on another origin needs: its preflights, and the headers it must read. */
function withCors(handler: Handler): Handler {
  return (req, res, body) => {
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("access-control-expose-headers", "www-authenticate, mcp-session-id, dpop-nonce");
    if (req.method !== "OPTIONS") return handler(req, res, body);
    return res
      .writeHead(204, {
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers": "authorization, dpop, content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id",
        "access-control-max-age": "0",
      })
      .end();
  };
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

export async function startOAuthServers(options: OAuthServerOptions = {}): Promise<OAuthServers> {
  const codes = new Map<string, { challenge: string; clientId: string; resource: string | null }>();
  const valid = new Set<string>();
  const refreshes = new Set<string>();
  let next = 0;
  // DPoP-bound tokens, each to the thumbprint of the key whose proof came with its token request.
  const boundTo = new Map<string, string>();
  let dpopKey: string | undefined;
  const issue = (): { access_token: string; refresh_token: string; token_type: string; expires_in: number } => {
    const access = `tok-${++next}`;
    const refresh = `ref-${next}`;
    valid.add(access);
    refreshes.add(refresh);
    if (dpopKey !== undefined) boundTo.set(access, dpopKey);
    return { access_token: access, refresh_token: refresh, token_type: dpopKey === undefined ? "Bearer" : "DPoP", expires_in: state.expiresIn };
  };
  const state: OAuthServers = {
    resourceUrl: "",
    sseUrl: "",
    issuer: "",
    idpTokenEndpoint: "",
    grants: [],
    authorizations: [],
    registrations: [],
    seenTokens: [],
    credentials: [],
    refusals: 0,
    streamsRefused: 0,
    secrets: [],
    redirectTo: undefined,
    authorizationServers: undefined,
    resourceMetadataUrl: undefined,
    metadata: {},
    expiresIn: 3600,
    mode: "normal",
    revokeAll: () => valid.clear(),
    revokeRefreshTokens: () => refreshes.clear(),
    fetch: (input, init) => fetch(input, init),
    close: async () => {},
  };
  // The origin each server is known by: its public name when it has one.
  const asOrigin = (): string => options.names?.authorizationServer ?? (options.legacy === true ? rsOrigin() : as.url);
  const rsOrigin = (): string => options.names?.resource ?? rs.url;

  const recordCredentials = (req: http.IncomingMessage, path: string, form: URLSearchParams): void => {
    const values = [req.headers.authorization, ...["client_secret", "client_assertion", "assertion", "subject_token"].map((name) => form.get(name) ?? undefined)];
    const sent = values.filter((value): value is string => value !== undefined && value !== "");
    if (sent.length > 0) state.credentials.push({ path, grant: form.get("grant_type") ?? undefined, values: sent });
  };

  const authorizationServer: Handler = (req, res, body) => {
    const url = new URL(req.url ?? "/", as.url);
    if (url.pathname === "/.well-known/oauth-authorization-server" && options.legacy !== true) {
      const origin = asOrigin();
      const metadata: Record<string, unknown> = {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "private_key_jwt"],
        grant_types_supported: ["authorization_code", "refresh_token", "client_credentials", JWT_BEARER],
        authorization_response_iss_parameter_supported: true,
      };
      for (const [name, value] of Object.entries(state.metadata)) {
        if (value === undefined) delete metadata[name];
        else metadata[name] = value;
      }
      return json(res, 200, metadata);
    }
    if (url.pathname === "/register" && state.mode === "no-registration") return json(res, 400, { error: "invalid_client_metadata", error_description: "registration is closed" });
    if (url.pathname === "/register") {
      const metadata = JSON.parse(body) as { redirect_uris: string[] };
      state.registrations.push(metadata);
      return json(res, 201, { client_id: `client-${state.registrations.length}`, redirect_uris: metadata.redirect_uris, token_endpoint_auth_method: "none" });
    }
    if (url.pathname === "/authorize") {
      state.authorizations.push(url.searchParams);
      const clientId = url.searchParams.get("client_id") ?? "";
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      // As a real server does: a dynamically registered client is sent back only to a redirect URI it registered.
      const registered = /^client-(\d+)$/.exec(clientId);
      if (registered !== null && state.registrations[Number(registered[1]) - 1]?.redirect_uris.includes(redirectUri) !== true) {
        return res.writeHead(400, { "content-type": "text/plain" }).end("redirect_uri is not registered for this client");
      }
      const code = randomBytes(8).toString("hex");
      state.secrets.push(code);
      codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", clientId, resource: url.searchParams.get("resource") });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      if (options.legacy !== true) back.searchParams.set("iss", asOrigin());
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === "/idp/token") {
      const form = new URLSearchParams(body);
      recordCredentials(req, url.pathname, form);
      if (form.get("grant_type") !== TOKEN_EXCHANGE) return json(res, 400, { error: "unsupported_grant_type" });
      return json(res, 200, { access_token: `id-jag-${state.credentials.length}`, issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A" });
    }
    if (url.pathname === "/token") return tokenEndpoint(req, res, body);
    return res.writeHead(404).end();
  };

  const tokenEndpoint: Handler = async (req, res, body) => {
    // A token request with a DPoP proof gets a token bound to the proof's key.
    dpopKey = await proofKey(req.headers.dpop);
    const form = new URLSearchParams(body);
    const grant = form.get("grant_type") ?? "";
    state.grants.push(grant);
    recordCredentials(req, "/token", form);
    if (state.mode === "hang") return undefined; // never answered
    if (state.mode === "garbage") return res.writeHead(200, { "content-type": "application/json" }).end("{not json");
    if (state.mode === "bad-token-type") return json(res, 200, { access_token: "SECRET-ACCESS-TOKEN", refresh_token: "SECRET-REFRESH-TOKEN", token_type: "mac" });
    if (grant === "refresh_token" && state.mode === "refresh-503") return json(res, 503, { error: "temporarily_unavailable" });
    if (grant === "refresh_token" && state.mode === "refresh-reset") return req.socket.destroy();
    if (form.get("code_verifier") !== null) state.secrets.push(form.get("code_verifier")!);
    if (grant === "authorization_code") {
      const entry = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (entry === undefined || entry.challenge !== challenge) return json(res, 400, { error: "invalid_grant" });
      return json(res, 200, issue());
    }
    if (grant === "refresh_token" && refreshes.delete(form.get("refresh_token") ?? "")) return json(res, 200, issue());
    if (grant === "client_credentials" || (grant === JWT_BEARER && form.get("assertion") !== null)) {
      const { refresh_token: _, ...tokens } = issue();
      return json(res, 200, tokens);
    }
    return json(res, 400, { error: "invalid_grant" });
  };

  // The HTTP+SSE transport (2024-11-05) behind the same authorization: the stream and every POST.
  let stream: http.ServerResponse | undefined;
  const oldTransport = (path: string, header: string | undefined, body: string, req: http.IncomingMessage, res: http.ServerResponse): unknown => {
    state.seenTokens.push(header);
    const token = header?.startsWith("Bearer ") === true ? header.slice(7) : undefined;
    if (token === undefined || !valid.has(token) || state.mode === "always-401") {
      state.refusals++;
      return res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${rsOrigin()}/.well-known/oauth-protected-resource/sse"` }).end();
    }
    if (path === "/sse" && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: endpoint\ndata: /messages?sessionId=1\n\n");
      stream = res;
      return undefined;
    }
    res.writeHead(202).end();
    const message = JSON.parse(body) as { id?: number; method: string };
    if (message.id === undefined) return undefined;
    const result = message.method === "initialize" ? { protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: "old", version: "1" } } : { content: [{ type: "text", text: token }] };
    stream?.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n\n`);
    return undefined;
  };

  const resource: Handler = async (req, res, body) => {
    const url = new URL(req.url ?? "/", rs.url);
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp" || url.pathname === "/.well-known/oauth-protected-resource/sse") {
      if (options.legacy === true) return res.writeHead(404).end();
      const servers = state.authorizationServers ?? [asOrigin()];
      return json(res, 200, { resource: `${rsOrigin()}${url.pathname.slice("/.well-known/oauth-protected-resource".length)}`, authorization_servers: servers });
    }
    const header = req.headers.authorization;
    if (url.pathname === "/sse" || url.pathname === "/messages") return oldTransport(url.pathname, header, body, req, res);
    if (url.pathname !== "/mcp") return options.legacy === true ? authorizationServer(req, res, body) : res.writeHead(404).end();
    state.seenTokens.push(header);
    // A DPoP-bound token counts only with a proof signed by the key it is bound to.
    const dpop = header?.startsWith("DPoP ") === true ? header.slice(5) : undefined;
    const proven = dpop !== undefined && boundTo.get(dpop) === (await proofKey(req.headers.dpop)) ? dpop : undefined;
    const token = header?.startsWith("Bearer ") === true && !boundTo.has(header.slice(7)) ? header.slice(7) : proven;
    if (token === undefined || !valid.has(token) || state.mode === "always-401") {
      state.refusals++;
      const metadataUrl = state.resourceMetadataUrl ?? `${rsOrigin()}/.well-known/oauth-protected-resource/mcp`;
      const challenge = options.legacy === true ? "Bearer" : `Bearer resource_metadata="${metadataUrl}"`;
      return res.writeHead(401, { "www-authenticate": challenge, "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_token" }));
    }
    if (state.redirectTo !== undefined) return res.writeHead(307, { location: state.redirectTo }).end();
    if (req.method !== "POST") {
      state.streamsRefused++;
      return res.writeHead(405).end();
    }
    const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) return res.writeHead(202).end();
    const result =
      message.method === "initialize"
        ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "protected", version: "1" } }
        : message.method === "tools/list"
          ? { tools: [{ name: "whoami", inputSchema: { type: "object" } }] }
          : message.method === "tools/call"
            ? { content: [{ type: "text", text: token }] }
            : undefined;
    if (result === undefined) return json(res, 200, { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
    return json(res, 200, { jsonrpc: "2.0", id: message.id, result });
  };

  const as = await listen(options.cors === true ? withCors(authorizationServer) : authorizationServer);
  const rs = await listen(options.cors === true ? withCors(resource) : resource);

  // The public names, mapped onto the loopback servers (the rest goes out as it is).
  const routes = new Map<string, string>();
  if (options.names?.resource !== undefined) routes.set(new URL(options.names.resource).origin, rs.url);
  if (options.names?.authorizationServer !== undefined) routes.set(new URL(options.names.authorizationServer).origin, as.url);
  const routed = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const target = routes.get(url.origin);
    if (target === undefined) return fetch(input, init);
    return fetch(`${target}${url.pathname}${url.search}`, input instanceof Request ? new Request(input, init) : init);
  };

  Object.assign(state, {
    resourceUrl: `${rsOrigin()}/mcp`,
    sseUrl: `${rsOrigin()}/sse`,
    issuer: asOrigin(),
    idpTokenEndpoint: `${asOrigin()}/idp/token`,
    fetch: routed,
    close: async () => Promise.all([as.close(), rs.close()]).then(() => undefined),
  });
  return track(state);
}

/**
 * Waits until the client's standalone GET stream, opened after the handshake, was answered
 * (405): a test that revokes tokens next knows that no request of the handshake's is still
 * on its way with the old token.
 */
export async function handshakeDone(servers: OAuthServers): Promise<void> {
  await vi.waitFor(() => expect(servers.streamsRefused).toBeGreaterThan(0), { timeout: 10_000 });
}

/** One request a server received. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * An authorization server a hostile resource points the client to: it records every request
 * and answers as a willing server would (metadata naming itself, a token for anything), so that
 * a client with no guard would go on and hand it what it has.
 */
export async function startRecordingServer(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = await listen((req, res, body) => {
    const url = new URL(req.url ?? "/", recorder.url);
    received.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, body });
    if (url.pathname.startsWith("/.well-known/")) {
      return json(res, 200, {
        issuer: recorder.url,
        authorization_endpoint: `${recorder.url}/authorize`,
        token_endpoint: `${recorder.url}/token`,
        registration_endpoint: `${recorder.url}/register`,
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "private_key_jwt"],
      });
    }
    if (url.pathname === "/register") return json(res, 201, { client_id: "stolen", token_endpoint_auth_method: "none" });
    if (url.pathname === "/token") return json(res, 200, { access_token: "from-the-thief", token_type: "Bearer", expires_in: 3600 });
    return res.writeHead(404).end();
  });
  const recorder = { url: server.url, received, close: () => server.close() };
  return track(recorder);
}

/** Authorizes the way a person's browser would: follows the authorization URL's redirect (through `fetchFn`, for servers known by name). */
export async function approve(url: URL, fetchFn: (input: string | URL, init?: RequestInit) => Promise<Response> = fetch): Promise<string> {
  const response = await fetchFn(url, { redirect: "manual" });
  await response.body?.cancel();
  return response.headers.get("location") ?? "";
}
