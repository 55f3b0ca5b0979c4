/**
 * The authorization code flow with PKCE (basic/authorization, "Authorization Code Protection"):
 * the authorization server must list S256 in `code_challenge_methods_supported` (the spec's
 * rule since 2025-11-25: no list, no PKCE, no flow); only the 2025-03-26 default endpoints, for
 * which there is no metadata to read, go without. Then the client's registration, the URL the
 * person is shown (with `resource`, RFC 8707), `state` and, per RFC 9207, `iss` checked before
 * the code is redeemed. With a `pendingFlow` store (a full-page redirect), what the flow needs is
 * kept before the person is asked, and the next flow for the server finishes it
 * (`pending-flow.ts`).
 */
import type * as Oauth from "oauth4webapi";
import { ClientError, messageOf } from "../util/errors.js";
import { excerpt } from "../util/text.js";
import { SpanBound, untilAborted } from "../util/time.js";
import { authError, describe, kindOf } from "./auth-error.js";
import type { AuthContext } from "./context.js";
import { sameIssuer, type Discovered } from "./discovery.js";
import { DEFAULT_AUTHORIZE_TIMEOUT_MS } from "./options.js";
import { pendingFlowOf, type PendingFlow, type PendingFlowStore } from "./pending-flow.js";
import { registrationFor } from "./registration.js";
import { chooseScope } from "./scopes.js";
import { clientAuthentication, type Registration } from "./token-endpoint.js";
import { tokensOf, type Tokens } from "./tokens.js";

/** The flow, once `requirePkce(found)` has passed (before the issuer is bound). */
export async function codeFlow(ctx: AuthContext, found: Discovered, scopeAsked: string | undefined): Promise<Tokens> {
  const oauth = await ctx.endpoint.oauth();
  const server = found.server as Oauth.AuthorizationServer;
  if (server.authorization_endpoint === undefined) throw authError("discovery", "the authorization server names no authorization endpoint");
  const kept = ctx.options.pendingFlow;
  const flowKey = ctx.records.flowKey(ctx.resourceUrl);
  // A flow that left the page (a full-page redirect) and came back: it is finished, not begun again.
  const resumed = kept === undefined ? undefined : await takeFlow(kept, flowKey);
  if (resumed !== undefined) return redeem(ctx, oauth, found, resumed.flow, resumed.returned, true);
  const redirectUri = ctx.options.redirectUri!;
  const registration = (await registrationFor(ctx, found.server, redirectUri, true))!;
  const scope = chooseScope(scopeAsked, found, ctx.options.scope);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = ctx.policy.check(server.authorization_endpoint, "the authorization endpoint");
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", registration.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  if (scope !== undefined) url.searchParams.set("scope", scope);
  if (found.resource !== undefined) url.searchParams.set("resource", found.resource);
  const flow: PendingFlow = {
    state,
    verifier,
    issuer: server.issuer,
    redirectUri,
    clientId: registration.client_id,
    clientSecret: registration.client_secret,
    authMethod: registration.token_endpoint_auth_method,
    registeredFor: registration.registeredFor,
    resource: found.resource,
    scope,
  };
  if (kept !== undefined) await keepFlow(kept, flowKey, flow);
  return redeem(ctx, oauth, found, flow, await askThePerson(ctx, url, redirectUri), false);
}

/**
 * Checks the redirect against the flow (`state`, `iss`) and redeems its code, with the client,
 * verifier, redirect URI and resource the flow began with, at the authorization server it began
 * with: discovery naming another one now gets no code.
 */
async function redeem(ctx: AuthContext, oauth: typeof Oauth, found: Discovered, flow: PendingFlow, returned: URL, resumed: boolean): Promise<Tokens> {
  const server = found.server as Oauth.AuthorizationServer;
  if (!sameIssuer(server.issuer, flow.issuer)) {
    throw authError("authorization", `the flow began with the authorization server ${excerpt(flow.issuer, 200)}, and the server now names ${excerpt(server.issuer, 200)}: its code is not redeemed there`);
  }
  const registration: Registration = { client_id: flow.clientId, client_secret: flow.clientSecret, token_endpoint_auth_method: flow.authMethod, registeredFor: flow.registeredFor };
  const client: Oauth.Client = { client_id: registration.client_id, token_endpoint_auth_method: registration.token_endpoint_auth_method };
  const params = checkedResponse(oauth, server, client, returned, flow.state);
  // The page that came back may not hold the registration the flow began with (a memory store): its refreshes need it.
  if (resumed && flow.registeredFor !== undefined) await keepRegistration(ctx, server.issuer, registration, flow.registeredFor);
  const DPoP = await ctx.endpoint.dpopHandle(oauth, found.server, client);
  const clientAuth = await clientAuthentication(oauth, registration, undefined);
  const send = (): Promise<Response> =>
    oauth.authorizationCodeGrantRequest(server, client, clientAuth, params, flow.redirectUri, flow.verifier, {
      ...ctx.endpoint.requestOptions(oauth, server.token_endpoint!),
      additionalParameters: flow.resource === undefined ? {} : { resource: flow.resource },
      DPoP,
    });
  const result = await ctx.endpoint.redeem("token", send, (response) => oauth.processAuthorizationCodeResponse(server, client, response), send);
  return tokensOf(result, { issuer: server.issuer, scope: flow.scope, registeredFor: flow.registeredFor });
}

/** The kept flow and the redirect that came back for it; undefined (a fresh flow) when either is missing or unreadable. */
async function takeFlow(kept: PendingFlowStore, key: string): Promise<{ flow: PendingFlow; returned: URL } | undefined> {
  let taken: Awaited<ReturnType<PendingFlowStore["take"]>>;
  try {
    taken = await kept.take(key);
  } catch (error) {
    throw authError("authorization", `the flow kept across the redirect could not be read (${kindOf(error)})`);
  }
  const flow = pendingFlowOf(taken?.flow);
  if (flow === undefined || typeof taken?.returned !== "string") return undefined;
  try {
    return { flow, returned: new URL(taken.returned, flow.redirectUri) };
  } catch {
    return undefined;
  }
}

async function keepFlow(kept: PendingFlowStore, key: string, flow: PendingFlow): Promise<void> {
  try {
    await kept.save(key, flow);
  } catch (error) {
    throw authError("authorization", `the flow could not be kept for the redirect (${kindOf(error)})`);
  }
}

async function keepRegistration(ctx: AuthContext, issuer: string, registration: Registration, redirectUri: string): Promise<void> {
  const key = ctx.records.registrationKey(issuer, redirectUri);
  if ((await ctx.records.read("registration", key)) !== undefined) return;
  const { client_id, client_secret, token_endpoint_auth_method } = registration;
  await ctx.records.write("registration", key, { client_id, client_secret, token_endpoint_auth_method });
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
  // A person takes the time they take: no bound of the connect or of the call counts it. Their
  // own bound (`authorizeTimeout`) and the connection's end still end the wait.
  const limit = ctx.options.authorizeTimeout ?? DEFAULT_AUTHORIZE_TIMEOUT_MS;
  const bound = new SpanBound([ctx.life], limit, () => authError("authorization", `the person did not finish authorizing within ${limit} ms (auth.authorizeTimeout)`));
  const waiting = ctx.person.onWait;
  callQuietly(waiting, true);
  try {
    const answer = await untilAborted(ctx.options.authorize!(url, { signal: bound.signal, serverUrl: new URL(ctx.resourceUrl) }), bound.signal);
    return answer instanceof URL ? answer : new URL(answer, redirectUri);
  } catch (error) {
    if (bound.timedOut) throw bound.signal.reason as ClientError;
    if (error instanceof ClientError) throw error;
    throw authError("authorization", `the host's authorize callback failed: ${excerpt(messageOf(error), 200)}`, error);
  } finally {
    bound.dispose();
    callQuietly(waiting, false);
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

function callQuietly(listener: ((waiting: boolean) => void) | undefined, waiting: boolean): void {
  try {
    listener?.(waiting);
  } catch {
    // The transport's listener only moves timers; nothing of the flow depends on it.
  }
}
