/**
 * Finding who authorizes a resource (basic/authorization, "Authorization Server Discovery"):
 *
 * 1. The Protected Resource Metadata (RFC 9728): at the `resource_metadata` URL of the
 *    challenge, else at `/.well-known/oauth-protected-resource` with the resource's path
 *    inserted, else at the root. Its `resource` must be the server's URL (or a path prefix of
 *    it, on its origin): otherwise discovery stops before any token is asked for.
 * 2. The authorization server's metadata: RFC 8414 and OpenID Connect discovery, path-inserted
 *    variants first; its `issuer` must be the one the well-known URL was built from.
 * 3. 2025-03-26 servers have no resource metadata: the authorization server is the server's
 *    origin, its metadata at the root, and without it the default endpoints `/authorize`,
 *    `/token` and `/register`.
 *
 * Every URL fetched must be `https`, except on loopback.
 */
import { ClientError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import { excerpt, redactUrl } from "../util/text.js";

export type FetchFn = (url: string, init?: RequestInit) => Promise<Response>;

/** What the Bearer challenge of a `401`/`403` said. */
export interface Challenge {
  resourceMetadata?: string | undefined;
  scope?: string | undefined;
  error?: string | undefined;
}

export interface ResourceMetadata {
  resource: string;
  authorizationServers: string[];
  scopesSupported: string[] | undefined;
}

/** The authorization server as oauth4webapi takes it (its metadata, issuer checked). */
export interface ServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  code_challenge_methods_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  client_id_metadata_document_supported?: boolean;
  [key: string]: unknown;
}

export interface Discovered {
  /** The resource indicator to send (RFC 8707), when the resource said which it is. */
  resource: string | undefined;
  scopesSupported: string[] | undefined;
  server: ServerMetadata;
}

const METADATA_BYTES = 256 * 1024;
/** How long one request to an authorization server or for metadata may take. */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;

/** Parses the Bearer challenge's parameters (RFC 6750 §3, RFC 9728 §5.1). */
export function parseChallenge(header: string | undefined): Challenge {
  if (header === undefined) return {};
  const params: Record<string, string> = {};
  const bearer = /bearer\b/i.exec(header);
  const text = bearer === null ? header : header.slice(bearer.index + bearer[0].length);
  for (const match of text.matchAll(/([a-z_][a-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/gi)) {
    const name = match[1]!.toLowerCase();
    params[name] ??= match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : match[3]!;
  }
  return { resourceMetadata: params.resource_metadata, scope: params.scope, error: params.error };
}

export function requireSecureUrl(url: URL, what: string): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return;
  throw authError("discovery", `${what} must be an https URL (or on loopback): ${redactUrl(url)}`);
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function authError(step: string, message: string, cause?: unknown): ClientError {
  return new ClientError("auth", `authorization failed at ${step}: ${message}`, { cause });
}

/** Finds the authorization server of `resourceUrl`, from the challenge of a 401 when there was one. */
export async function discover(resourceUrl: URL, challenge: Challenge, fetchFn: FetchFn): Promise<Discovered> {
  const metadata = await resourceMetadata(resourceUrl, challenge, fetchFn);
  if (metadata === undefined) {
    // 2025-03-26: the server's origin is its own authorization server.
    const issuer = new URL(resourceUrl.origin);
    const server = (await serverMetadata(issuer, fetchFn, true)) ?? defaultEndpoints(issuer);
    return { resource: undefined, scopesSupported: server.scopes_supported, server };
  }
  const issuerText = metadata.authorizationServers[0];
  if (issuerText === undefined) throw authError("discovery", "the resource metadata names no authorization server");
  let issuer: URL;
  try {
    issuer = new URL(issuerText);
  } catch {
    throw authError("discovery", `the authorization server ${excerpt(issuerText, 100)} is not a URL`);
  }
  requireSecureUrl(issuer, "the authorization server");
  const server = await serverMetadata(issuer, fetchFn, false);
  if (server === undefined) throw authError("discovery", `no metadata found for the authorization server ${redactUrl(issuer)}`);
  return { resource: metadata.resource, scopesSupported: metadata.scopesSupported, server };
}

async function resourceMetadata(resourceUrl: URL, challenge: Challenge, fetchFn: FetchFn): Promise<ResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (challenge.resourceMetadata !== undefined) {
    try {
      candidates.push(new URL(challenge.resourceMetadata, resourceUrl));
    } catch {
      throw authError("discovery", `the challenge's resource_metadata is not a URL: ${excerpt(challenge.resourceMetadata, 100)}`);
    }
  } else {
    const path = resourceUrl.pathname.replace(/\/$/, "");
    if (path !== "") candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, resourceUrl.origin));
    candidates.push(new URL("/.well-known/oauth-protected-resource", resourceUrl.origin));
  }
  for (const url of candidates) {
    requireSecureUrl(url, "the resource metadata");
    const body = await getJson(url, fetchFn, "discovery");
    if (body === undefined) continue;
    return checkResourceMetadata(body, resourceUrl);
  }
  return undefined;
}

function checkResourceMetadata(body: Record<string, unknown>, resourceUrl: URL): ResourceMetadata {
  const resource = body.resource;
  if (typeof resource !== "string") throw authError("discovery", 'the resource metadata has no "resource"');
  if (!covers(resource, resourceUrl)) {
    throw authError("discovery", `the resource metadata is for ${excerpt(resource, 200)}, not for ${redactUrl(resourceUrl)}; no token is asked for`);
  }
  const servers = Array.isArray(body.authorization_servers) ? body.authorization_servers.filter((s): s is string => typeof s === "string") : [];
  const scopes = Array.isArray(body.scopes_supported) ? body.scopes_supported.filter((s): s is string => typeof s === "string") : undefined;
  return { resource, authorizationServers: servers, scopesSupported: scopes };
}

/** Whether the metadata's `resource` is the server's URL, or a path prefix of it on its origin. */
function covers(resource: string, resourceUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== resourceUrl.origin) return false;
  const prefix = url.pathname.replace(/\/$/, "");
  const path = resourceUrl.pathname.replace(/\/$/, "");
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The well-known URLs of an issuer's metadata, in the order the spec gives. */
function metadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, "");
  if (path === "") {
    return [new URL("/.well-known/oauth-authorization-server", issuer.origin), new URL("/.well-known/openid-configuration", issuer.origin)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

async function serverMetadata(issuer: URL, fetchFn: FetchFn, rootOnly: boolean): Promise<ServerMetadata | undefined> {
  const urls = rootOnly ? [new URL("/.well-known/oauth-authorization-server", issuer.origin)] : metadataUrls(issuer);
  const expected = rootOnly ? issuer.origin : issuer.href;
  for (const url of urls) {
    const body = await getJson(url, fetchFn, "discovery");
    if (body === undefined) continue;
    const found = body.issuer;
    if (typeof found !== "string" || !sameIssuer(found, expected)) {
      throw authError("discovery", `the authorization server's metadata names the issuer ${excerpt(found, 200)}, not ${excerpt(expected, 200)}; not used`);
    }
    return body as ServerMetadata;
  }
  return undefined;
}

/** Identical, but for the one trailing slash a URL without a path gets when parsed. */
function sameIssuer(found: string, expected: string): boolean {
  return found === expected || found.replace(/\/$/, "") === expected.replace(/\/$/, "");
}

function defaultEndpoints(issuer: URL): ServerMetadata {
  const at = (path: string): string => new URL(path, issuer.origin).href;
  return { issuer: issuer.origin, authorization_endpoint: at("/authorize"), token_endpoint: at("/token"), registration_endpoint: at("/register") };
}

/** GETs JSON metadata: undefined on a 4xx (not there), an `"auth"` error otherwise. */
async function getJson(url: URL, fetchFn: FetchFn, step: string): Promise<Record<string, unknown> | undefined> {
  let response: Response;
  try {
    response = await fetchFn(url.href, { headers: { accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw authError(step, `${redactUrl(url)} could not be fetched`, error);
  }
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => {});
    throw authError(step, `${redactUrl(url)} answered HTTP ${response.status}`);
  }
  const text = await readCapped(response, METADATA_BYTES);
  if (text === undefined) throw authError(step, `${redactUrl(url)} answered more than ${METADATA_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw authError(step, `${redactUrl(url)} answered no JSON`);
  }
  if (!isObject(body)) throw authError(step, `${redactUrl(url)} answered no JSON object`);
  return body;
}

/** The body as text, read as it comes; undefined (and the rest dropped) past `max` bytes. */
export async function readCapped(response: Response, max: number): Promise<string | undefined> {
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value: Uint8Array };
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
