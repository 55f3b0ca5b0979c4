/**
 * The client's identity at an authorization server, for the code flow and its refreshes: the
 * one the host registered beforehand, a Client ID Metadata Document where the server supports
 * them, else a Dynamic Client Registration (RFC 7591). A registration is kept per issuer and
 * redirect URI: it is valid for the redirect URIs it lists, so a host whose loopback port
 * changed registers again, and a resource that moves to another authorization server gets a
 * registration of its own there.
 */
import { isObject } from "../util/json.js";
import { localityOf } from "./url-policy.js";
import { authError, describeBody } from "./auth-error.js";
import { post } from "./auth-fetch.js";
import type { AuthContext } from "./context.js";
import type { ServerMetadata } from "./discovery.js";
import { hostRegistration, type Registration } from "./token-endpoint.js";

/**
 * The registration to use with `server` and `redirectUri`: given, a metadata document, kept,
 * or (`mayRegister`) registered now. Undefined when none is kept and none may be made.
 */
export async function registrationFor(ctx: AuthContext, server: ServerMetadata, redirectUri: string, mayRegister: boolean): Promise<Registration | undefined> {
  const options = ctx.options;
  if (options.clientId !== undefined) return hostRegistration(options.clientId, options.clientSecret, server);
  if (options.clientMetadataUrl !== undefined && server.client_id_metadata_document_supported === true) {
    return { client_id: options.clientMetadataUrl, token_endpoint_auth_method: "none" };
  }
  const key = ctx.records.registrationKey(server.issuer, redirectUri);
  const kept = await ctx.records.read("registration", key);
  if (kept !== undefined && typeof kept.client_id === "string") return { ...registrationOf(kept), registeredFor: redirectUri };
  if (!mayRegister) return undefined;
  if (server.registration_endpoint === undefined) {
    throw authError("registration", "the authorization server offers no registration, and no client id was given");
  }
  const registration = await register(ctx, server.registration_endpoint, redirectUri);
  await ctx.records.write("registration", key, registration);
  return { ...registration, registeredFor: redirectUri };
}

/**
 * A public client with its redirect URI and an `application_type` (native for a loopback
 * redirect); the answer needs only a `client_id` (a secret if the server gives one).
 */
async function register(ctx: AuthContext, endpoint: string, redirectUri: string): Promise<Registration> {
  const url = ctx.policy.check(endpoint, "the registration endpoint");
  const metadata = {
    client_name: ctx.options.clientName ?? ctx.clientName,
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: isLoopbackRedirect(redirectUri) ? "native" : "web",
  };
  const headers = { "content-type": "application/json", accept: "application/json" };
  const { status, body } = await post(ctx.fetchFn, url, headers, JSON.stringify(metadata), "registration", "the registration endpoint");
  if (status !== 201 && status !== 200) {
    throw authError("registration", `the server refused the registration (HTTP ${status}${describeBody(body)})`);
  }
  if (!isObject(body) || typeof body.client_id !== "string") throw authError("registration", "the registration answer has no client_id");
  return registrationOf(body);
}

function registrationOf(body: Record<string, unknown>): Registration {
  return {
    client_id: body.client_id as string,
    client_secret: typeof body.client_secret === "string" ? body.client_secret : undefined,
    token_endpoint_auth_method: typeof body.token_endpoint_auth_method === "string" ? body.token_endpoint_auth_method : "none",
  };
}

function isLoopbackRedirect(uri: string): boolean {
  try {
    return localityOf(new URL(uri).hostname) === "loopback";
  } catch {
    return false;
  }
}
