/**
 * The refresh grant, with the client the token was got with: the host's own, a metadata
 * document, or the registration kept for the redirect URI of the flow that got it (none is
 * registered for a refresh). Whether a failure spends the refresh token is the caller's to
 * read (`refusedGrant`): only the server's refusal does, never a network error, a timeout or a 5xx.
 */
import type * as Oauth from "oauth4webapi";
import { authError, refusal } from "./auth-error.js";
import type { AuthContext } from "./context.js";
import type { Discovered } from "./discovery.js";
import { registrationFor } from "./registration.js";
import { clientAuthentication, hostRegistration, type Registration } from "./token-endpoint.js";
import { tokensOf, type Tokens } from "./tokens.js";

export async function refreshed(ctx: AuthContext, tokens: Tokens, found: Discovered): Promise<Tokens> {
  const refreshToken = tokens.refreshToken;
  if (refreshToken === undefined) throw refusal(authError("refresh", "there is no refresh token"));
  const oauth = await ctx.endpoint.oauth();
  const server = found.server as Oauth.AuthorizationServer;
  if (server.issuer !== tokens.issuer || server.token_endpoint === undefined) throw refusal(authError("refresh", "the token was issued by another authorization server"));
  const registration = await clientOf(ctx, found, tokens);
  if (registration === undefined) throw refusal(authError("refresh", "the registration the token was got with is no longer kept"));
  const client: Oauth.Client = { client_id: registration.client_id, token_endpoint_auth_method: registration.token_endpoint_auth_method };
  const DPoP = tokens.tokenType === "dpop" ? await ctx.endpoint.dpopHandle(oauth, found.server, client) : undefined;
  const clientAuth = await clientAuthentication(oauth, registration, ctx.options.grant);
  const send = (): Promise<Response> =>
    oauth.refreshTokenGrantRequest(server, client, clientAuth, refreshToken, {
      ...ctx.endpoint.requestOptions(oauth, server.token_endpoint!),
      additionalParameters: found.resource === undefined ? {} : { resource: found.resource },
      DPoP,
    });
  const result = await ctx.endpoint.redeem("refresh", send, (response) => oauth.processRefreshTokenResponse(server, client, response), send);
  return tokensOf(result, { issuer: server.issuer, scope: tokens.scope, refreshToken, registeredFor: tokens.registeredFor });
}

function clientOf(ctx: AuthContext, found: Discovered, tokens: Tokens): Promise<Registration | undefined> {
  const options = ctx.options;
  if (options.grant !== undefined) return Promise.resolve(hostRegistration(options.clientId ?? "", options.clientSecret, found.server));
  return registrationFor(ctx, found.server, tokens.registeredFor ?? options.redirectUri ?? "", false);
}
