// A protected MCP server and its authorization server, on real sockets, for the OAuth tests:
// the resource answers 401 with a Bearer challenge until a request carries a token the
// authorization server issued; the authorization server has RFC 8414 metadata, Dynamic Client
// Registration, an authorization endpoint that approves at once (redirecting with `code`,
// `state` and `iss`), and a token endpoint for the code (PKCE S256 checked) and refresh grants.
// `mode` scripts the token endpoint's faults.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import { track } from "./cleanup.js";

export interface OAuthServers {
  readonly resourceUrl: string;
  /** The same resource's HTTP+SSE stream (2024-11-05), behind the same authorization. */
  readonly sseUrl: string;
  readonly issuer: string;
  /** Every token request's grant type, in order. */
  readonly grants: string[];
  /** Every authorization request's query. */
  readonly authorizations: URLSearchParams[];
  readonly registrations: unknown[];
  /** The Authorization headers the resource saw. */
  readonly seenTokens: Array<string | undefined>;
  /** How many requests the resource refused with 401. */
  refusals: number;
  /** When set, the resource answers every authorized request with a 307 to this URL. */
  redirectTo: string | undefined;
  /** Issued tokens stop working (as after a revocation or a restart). */
  revokeAll(): void;
  /** Token lifetime in seconds given from now on. */
  expiresIn: number;
  mode: "normal" | "garbage" | "hang" | "no-registration" | "bad-token-type" | "always-401";
  /** Every code issued and every PKCE verifier received: what must never be shown. */
  readonly secrets: string[];
  close(): Promise<void>;
}

interface Listening {
  url: string;
  close(): Promise<void>;
}

async function listen(handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>): Promise<Listening> {
  const server = http.createServer((req, res) => void handler(req, res));
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

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
  });
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

export async function startOAuthServers(): Promise<OAuthServers> {
  const codes = new Map<string, { challenge: string; clientId: string; resource: string | null }>();
  const valid = new Set<string>();
  const refreshes = new Set<string>();
  let next = 0;
  const issue = (): { access_token: string; refresh_token: string; token_type: string; expires_in: number } => {
    const access = `tok-${++next}`;
    const refresh = `ref-${next}`;
    valid.add(access);
    refreshes.add(refresh);
    return { access_token: access, refresh_token: refresh, token_type: "Bearer", expires_in: state.expiresIn };
  };
  const state: OAuthServers = {
    resourceUrl: "",
    sseUrl: "",
    issuer: "",
    grants: [],
    authorizations: [],
    registrations: [],
    seenTokens: [],
    refusals: 0,
    secrets: [],
    redirectTo: undefined,
    expiresIn: 3600,
    mode: "normal",
    revokeAll: () => valid.clear(),
    close: async () => {},
  };

  const as = await listen(async (req, res) => {
    const url = new URL(req.url ?? "/", as.url);
    const body = await readBody(req);
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer: as.url,
        authorization_endpoint: `${as.url}/authorize`,
        token_endpoint: `${as.url}/token`,
        registration_endpoint: `${as.url}/register`,
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === "/register" && state.mode === "no-registration") return json(res, 400, { error: "invalid_client_metadata", error_description: "registration is closed" });
    if (url.pathname === "/register") {
      const metadata = JSON.parse(body) as { redirect_uris: string[] };
      state.registrations.push(metadata);
      return json(res, 201, { client_id: `client-${state.registrations.length}`, redirect_uris: metadata.redirect_uris, token_endpoint_auth_method: "none" });
    }
    if (url.pathname === "/authorize") {
      state.authorizations.push(url.searchParams);
      const code = randomBytes(8).toString("hex");
      state.secrets.push(code);
      codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", clientId: url.searchParams.get("client_id") ?? "", resource: url.searchParams.get("resource") });
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      back.searchParams.set("iss", as.url);
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === "/token") {
      const form = new URLSearchParams(body);
      state.grants.push(form.get("grant_type") ?? "");
      if (state.mode === "hang") return undefined; // never answered
      if (state.mode === "garbage") return res.writeHead(200, { "content-type": "application/json" }).end("{not json");
      if (state.mode === "bad-token-type") return json(res, 200, { access_token: "SECRET-ACCESS-TOKEN", refresh_token: "SECRET-REFRESH-TOKEN", token_type: "mac" });
      if (form.get("code_verifier") !== null) state.secrets.push(form.get("code_verifier")!);
      if (form.get("grant_type") === "authorization_code") {
        const entry = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (entry === undefined || entry.challenge !== challenge) return json(res, 400, { error: "invalid_grant" });
        return json(res, 200, issue());
      }
      if (form.get("grant_type") === "refresh_token" && refreshes.delete(form.get("refresh_token") ?? "")) return json(res, 200, issue());
      return json(res, 400, { error: "invalid_grant" });
    }
    return res.writeHead(404).end();
  });

  // The HTTP+SSE transport (2024-11-05) behind the same authorization: the stream and every POST.
  let stream: http.ServerResponse | undefined;
  const oldTransport = (path: string, header: string | undefined, body: string, req: http.IncomingMessage, res: http.ServerResponse): unknown => {
    state.seenTokens.push(header);
    const token = header?.startsWith("Bearer ") === true ? header.slice(7) : undefined;
    if (token === undefined || !valid.has(token) || state.mode === "always-401") {
      state.refusals++;
      return res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${rs.url}/.well-known/oauth-protected-resource/sse"` }).end();
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

  const rs = await listen(async (req, res) => {
    const url = new URL(req.url ?? "/", rs.url);
    const body = await readBody(req);
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp" || url.pathname === "/.well-known/oauth-protected-resource/sse") {
      return json(res, 200, { resource: `${rs.url}${url.pathname.slice("/.well-known/oauth-protected-resource".length)}`, authorization_servers: [as.url] });
    }
    const header = req.headers.authorization;
    if (url.pathname === "/sse" || url.pathname === "/messages") return oldTransport(url.pathname, header, body, req, res);
    if (url.pathname !== "/mcp") return res.writeHead(404).end();
    state.seenTokens.push(header);
    const token = header?.startsWith("Bearer ") === true ? header.slice(7) : undefined;
    if (token === undefined || !valid.has(token) || state.mode === "always-401") {
      state.refusals++;
      return res
        .writeHead(401, { "www-authenticate": `Bearer resource_metadata="${rs.url}/.well-known/oauth-protected-resource/mcp"`, "content-type": "application/json" })
        .end(JSON.stringify({ error: "invalid_token" }));
    }
    if (state.redirectTo !== undefined) return res.writeHead(307, { location: state.redirectTo }).end();
    if (req.method !== "POST") return res.writeHead(405).end();
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
  });

  Object.assign(state, { resourceUrl: `${rs.url}/mcp`, sseUrl: `${rs.url}/sse`, issuer: as.url, close: async () => Promise.all([as.close(), rs.close()]).then(() => undefined) });
  return track(state);
}

/** Authorizes the way a person's browser would: follows the authorization URL's redirect. */
export async function approve(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  return response.headers.get("location") ?? "";
}
