/**
 * A token without a person (the extensions of the authorization spec): the client's own
 * credentials (`client_credentials`, with a secret or a `private_key_jwt` assertion), a
 * workload's JWT (`jwt_bearer`, RFC 7523), or enterprise-managed authorization: the person's ID
 * token exchanged at the enterprise's identity provider (RFC 8693) for an ID-JAG, which the
 * authorization server takes as a JWT bearer grant. The issuer binding has let the
 * authorization server through before anything here runs.
 */
import type * as Oauth from "oauth4webapi";
import { messageOf } from "../util/errors.js";
import { excerpt } from "../util/text.js";
import { authError, describeBody, type AuthStep } from "./auth-error.js";
import { post } from "./auth-fetch.js";
import type { AuthContext } from "./context.js";
import type { Discovered } from "./discovery.js";
import type { AuthGrant } from "./options.js";
import { requireSecureUrl } from "./url-policy.js";
import { basicCredentials, clientAuthentication, hostRegistration } from "./token-endpoint.js";
import { tokensOf, type Tokens } from "./tokens.js";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

type EnterpriseGrant = Extract<AuthGrant, { type: "enterprise" }>;

export async function unattendedToken(ctx: AuthContext, grant: AuthGrant, found: Discovered, scope: string | undefined): Promise<Tokens> {
  const oauth = await ctx.endpoint.oauth();
  const server = found.server as Oauth.AuthorizationServer;
  const params: Record<string, string> = {};
  if (scope !== undefined) params.scope = scope;
  if (found.resource !== undefined) params.resource = found.resource;
  const registration = hostRegistration(ctx.options.clientId ?? "", ctx.options.clientSecret, found.server);
  const client: Oauth.Client = { client_id: registration.client_id };
  const clientAuth = await clientAuthentication(oauth, registration, grant);
  const options = (): ReturnType<typeof ctx.endpoint.requestOptions> => ctx.endpoint.requestOptions(oauth, server.token_endpoint!);
  let result: Oauth.TokenEndpointResponse;
  if (grant.type === "client_credentials") {
    const send = (): Promise<Response> => oauth.clientCredentialsGrantRequest(server, client, clientAuth, params, options());
    result = await ctx.endpoint.redeem("token", send, (response) => oauth.processClientCredentialsResponse(server, client, response));
  } else {
    const assertion = grant.type === "jwt_bearer" ? await fromHost(grant.assertion, "token", "assertion") : await identityAssertion(ctx, grant, server, found, scope);
    const send = (): Promise<Response> => oauth.genericTokenEndpointRequest(server, client, clientAuth, JWT_BEARER, { ...params, assertion }, options());
    result = await ctx.endpoint.redeem("token", send, (response) => oauth.processGenericTokenEndpointResponse(server, client, response));
  }
  return tokensOf(result, { issuer: server.issuer, scope });
}

/**
 * Enterprise-managed authorization: the person's ID token, exchanged at the enterprise's
 * identity provider (a URL the host gave) for an Identity Assertion JWT Authorization Grant
 * meant for this authorization server and resource.
 */
async function identityAssertion(ctx: AuthContext, grant: EnterpriseGrant, server: Oauth.AuthorizationServer, found: Discovered, scope: string | undefined): Promise<string> {
  let endpoint: URL;
  try {
    endpoint = new URL(grant.idpTokenEndpoint);
  } catch {
    throw authError("token exchange", "the identity provider's token endpoint is not a URL");
  }
  requireSecureUrl(endpoint, "the identity provider's token endpoint");
  const form = new URLSearchParams({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: server.issuer,
    resource: found.resource ?? ctx.resourceUrl.href,
    subject_token: await fromHost(grant.idToken, "token exchange", "idToken"),
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
  });
  if (scope !== undefined) form.set("scope", scope);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (grant.idpClientSecret === undefined) form.set("client_id", grant.idpClientId);
  else headers.authorization = basicCredentials(grant.idpClientId, grant.idpClientSecret);
  const { status, body } = await post(ctx.fetchFn, endpoint, headers, form.toString(), "token exchange", "the identity provider");
  const token = typeof body === "object" && body !== null ? (body as { access_token?: unknown }).access_token : undefined;
  if (status !== 200 || typeof token !== "string") {
    throw authError("token exchange", `the identity provider refused the exchange (HTTP ${status}${describeBody(body)})`);
  }
  return token;
}

/** A credential the host's callback gives; its failure is this step's, not the transport's. */
async function fromHost(callback: () => string | Promise<string>, step: AuthStep, name: string): Promise<string> {
  let value: unknown;
  try {
    value = await callback();
  } catch (error) {
    throw authError(step, `the host's ${name} callback failed: ${excerpt(messageOf(error), 200)}`);
  }
  if (typeof value !== "string" || value === "") throw authError(step, `the host's ${name} callback gave no string`);
  return value;
}
