/**
 * The authorization code flow with PKCE (basic/authorization, "Authorization Code Protection"):
 * the authorization server must list S256 in `code_challenge_methods_supported` (the spec's
 * rule since 2025-11-25: no list, no PKCE, no flow); only the 2025-03-26 default endpoints, for
 * which there is no metadata to read, go without. Then the client's registration, the URL the
 * person is shown (with `resource`, RFC 8707), `state` and, per RFC 9207, `iss` checked before
 * the code is redeemed.
 */
import type * as Oauth from "oauth4webapi";
import { ClientError, messageOf } from "../util/errors.js";
import { excerpt } from "../util/text.js";
import { untilAborted } from "../util/time.js";
import { authError, describe } from "./auth-error.js";
import type { AuthContext } from "./context.js";
import type { Discovered } from "./discovery.js";
import { registrationFor } from "./registration.js";
import { chooseScope } from "./scopes.js";
import { clientAuthentication } from "./token-endpoint.js";
import { tokensOf, type Tokens } from "./tokens.js";

/** The flow, once `requirePkce(found)` has passed (before the issuer is bound). */
export async function codeFlow(ctx: AuthContext, found: Discovered, scopeAsked: string | undefined): Promise<Tokens> {
  const oauth = await ctx.endpoint.oauth();
  const server = found.server as Oauth.AuthorizationServer;
  if (server.authorization_endpoint === undefined) throw authError("discovery", "the authorization server names no authorization endpoint");
  const redirectUri = ctx.options.redirectUri!;
  const registration = (await registrationFor(ctx, found.server, redirectUri, true))!;
  const client: Oauth.Client = { client_id: registration.client_id, token_endpoint_auth_method: registration.token_endpoint_auth_method };
  const scope = chooseScope(scopeAsked, found, ctx.options.scope);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = ctx.policy.check(server.authorization_endpoint, "the authorization endpoint");
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  if (scope !== undefined) url.searchParams.set("scope", scope);
  if (found.resource !== undefined) url.searchParams.set("resource", found.resource);
  const params = checkedResponse(oauth, server, client, await askThePerson(ctx, url, redirectUri), state);
  const DPoP = await ctx.endpoint.dpopHandle(oauth, found.server, client);
  const clientAuth = await clientAuthentication(oauth, registration, undefined);
  const send = (): Promise<Response> =>
    oauth.authorizationCodeGrantRequest(server, client, clientAuth, params, redirectUri, verifier, {
      ...ctx.endpoint.requestOptions(oauth, server.token_endpoint!),
      additionalParameters: found.resource === undefined ? {} : { resource: found.resource },
      DPoP,
    });
  const result = await ctx.endpoint.redeem("token", send, (response) => oauth.processAuthorizationCodeResponse(server, client, response), send);
  return tokensOf(result, { issuer: server.issuer, scope, registeredFor: registration.registeredFor });
}

export function requirePkce(found: Discovered): void {
  if (found.defaulted) return;
  const methods = found.server.code_challenge_methods_supported;
  if (Array.isArray(methods) && methods.includes("S256")) return;
  const said = methods === undefined ? "lists no code_challenge_methods_supported" : "does not list S256 in code_challenge_methods_supported";
  throw authError("discovery", `the authorization server's metadata ${said}: PKCE cannot be verified, so it is not used`);
}

/** The host shows the URL; resolves with where the authorization server redirected the browser. */
async function askThePerson(ctx: AuthContext, url: URL, redirectUri: string): Promise<URL> {
  const life = ctx.life;
  try {
    const answer = await untilAborted(ctx.options.authorize!(url, { signal: life }), life);
    return answer instanceof URL ? answer : new URL(answer, redirectUri);
  } catch (error) {
    if (error instanceof ClientError) throw error;
    throw authError("authorization", `the host's authorize callback failed: ${excerpt(messageOf(error), 200)}`, error);
  }
}

/** `state`, and `iss` (RFC 9207) where the server says it sends one, checked; the parameters to redeem. */
function checkedResponse(oauth: typeof Oauth, server: Oauth.AuthorizationServer, client: Oauth.Client, returned: URL, state: string): URLSearchParams {
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(server, client, returned.searchParams, state);
  } catch (error) {
    throw authError("authorization", describe(error));
  }
  const issued = params.get("iss");
  if (issued !== null && issued !== server.issuer) throw authError("authorization", "the authorization response came from another issuer");
  return params;
}
