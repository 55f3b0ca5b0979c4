/**
 * Finding who authorizes a resource (basic/authorization, "Authorization Server Discovery"):
 *
 * 1. The Protected Resource Metadata (RFC 9728): at the `resource_metadata` URL of the
 *    challenge, else at `/.well-known/oauth-protected-resource` with the resource's path
 *    inserted, else at the root. Its `resource` must be the server's URL (or a path prefix of
 *    it, on its origin): otherwise discovery stops before any token is asked for.
 * 2. The authorization server, among those the metadata names: the one the host's credentials
 *    are for when it is named (`pick`), and its metadata: RFC 8414 and OpenID Connect
 *    discovery, path-inserted variants first; its `issuer` must be the one the well-known URL
 *    was built from, and each endpoint it names must pass the URL policy.
 * 3. 2025-03-26 servers have no resource metadata: the authorization server is the server's
 *    origin, its metadata at the root, and without it the default endpoints `/authorize`,
 *    `/token` and `/register`.
 *
 * Every URL is checked by the `UrlPolicy` before it is fetched.
 */
import { excerpt, redactUrl } from "../util/text.js";
import { authError } from "./auth-error.js";
import { getJson, type FetchFn } from "./auth-fetch.js";
import type { UrlPolicy } from "./url-policy.js";

/** What the Bearer challenge of a `401`/`403` said. */
export interface Challenge {
  resourceMetadata?: string | undefined;
  scope?: string | undefined;
  error?: string | undefined;
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
  /** No metadata at all: the 2025-03-26 default endpoints, which say nothing of PKCE. */
  defaulted: boolean;
}

/** Chooses among the authorization servers a resource names (each an issuer's text). */
export type PickIssuer = (named: readonly string[]) => Promise<string>;

interface ResourceMetadata {
  resource: string;
  authorizationServers: string[];
  scopesSupported: string[] | undefined;
}

const ENDPOINTS = ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const;

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

/** Finds the authorization server of `resourceUrl`, from the challenge of a 401 when there was one. */
export async function discover(resourceUrl: URL, challenge: Challenge, fetchFn: FetchFn, policy: UrlPolicy, pick: PickIssuer): Promise<Discovered> {
  const metadata = await resourceMetadata(resourceUrl, challenge, fetchFn, policy);
  if (metadata === undefined) {
    // 2025-03-26: the server's origin is its own authorization server.
    const issuer = new URL(await pick([resourceUrl.origin]));
    const found = await serverMetadata(issuer, fetchFn, policy, true);
    const server = found ?? defaultEndpoints(issuer);
    return { resource: undefined, scopesSupported: server.scopes_supported, server, defaulted: found === undefined };
  }
  if (metadata.authorizationServers.length === 0) throw authError("discovery", "the resource metadata names no authorization server");
  const chosen = await pick(metadata.authorizationServers);
  const issuer = policy.check(chosen, `the authorization server ${excerpt(chosen, 100)}`);
  const server = await serverMetadata(issuer, fetchFn, policy, false);
  if (server === undefined) throw authError("discovery", `no metadata found for the authorization server ${redactUrl(issuer)}`);
  return { resource: metadata.resource, scopesSupported: metadata.scopesSupported, server, defaulted: false };
}

async function resourceMetadata(resourceUrl: URL, challenge: Challenge, fetchFn: FetchFn, policy: UrlPolicy): Promise<ResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (challenge.resourceMetadata !== undefined) {
    candidates.push(policy.check(challenge.resourceMetadata, `the challenge's resource_metadata ${excerpt(challenge.resourceMetadata, 100)}`, resourceUrl));
  } else {
    const path = resourceUrl.pathname.replace(/\/$/, "");
    if (path !== "") candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, resourceUrl.origin));
    candidates.push(new URL("/.well-known/oauth-protected-resource", resourceUrl.origin));
  }
  for (const url of candidates) {
    policy.check(url, "the resource metadata");
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

async function serverMetadata(issuer: URL, fetchFn: FetchFn, policy: UrlPolicy, rootOnly: boolean): Promise<ServerMetadata | undefined> {
  const urls = rootOnly ? [new URL("/.well-known/oauth-authorization-server", issuer.origin)] : metadataUrls(issuer);
  const expected = rootOnly ? issuer.origin : issuer.href;
  for (const url of urls) {
    const body = await getJson(url, fetchFn, "discovery");
    if (body === undefined) continue;
    const found = body.issuer;
    if (typeof found !== "string" || !sameIssuer(found, expected)) {
      throw authError("discovery", `the authorization server's metadata names the issuer ${excerpt(found, 200)}, not ${excerpt(expected, 200)}; not used`);
    }
    for (const name of ENDPOINTS) {
      const value = body[name];
      if (value === undefined) continue;
      if (typeof value !== "string") throw authError("discovery", `the authorization server's ${name} is not a URL`);
      policy.check(value, `the authorization server's ${name}`);
    }
    return body as ServerMetadata;
  }
  return undefined;
}

/** Identical, but for the one trailing slash a URL without a path gets when parsed. */
export function sameIssuer(found: string, expected: string): boolean {
  return found === expected || found.replace(/\/$/, "") === expected.replace(/\/$/, "");
}

function defaultEndpoints(issuer: URL): ServerMetadata {
  const at = (path: string): string => new URL(path, issuer.origin).href;
  return { issuer: issuer.origin, authorization_endpoint: at("/authorize"), token_endpoint: at("/token"), registration_endpoint: at("/register") };
}
