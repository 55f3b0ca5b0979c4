/**
 * OAuth for one remote server (basic/authorization), on oauth4webapi: what the transport's
 * `Authorizer` asks is answered from the store, by a refresh, or by the authorization code flow
 * with PKCE (S256):
 *
 * - discovery (`discovery.ts`), then the client's identity: the one registered beforehand, a
 *   Client ID Metadata Document where the server supports them, else Dynamic Client
 *   Registration; registrations are kept per issuer, so a resource that moves to another
 *   authorization server gets a new one;
 * - the scope: the challenge's, else the resource's `scopes_supported`, else the host's, else
 *   none; `offline_access` added only when the authorization server lists it;
 * - `resource` (RFC 8707) on the authorization and token requests; `state` and, per RFC 9207,
 *   `iss` checked before the code is redeemed;
 * - the token endpoint's client authentication the server supports (`client_secret_basic`,
 *   `client_secret_post`, `none`);
 * - a refresh before expiry and on a `401` to the current token; a step-up on `403
 *   insufficient_scope`, a bounded number of times.
 *
 * One flow at a time per server: requests that meet a `401` meanwhile wait for it. Tokens,
 * codes, verifiers and secrets are never in a message, a log line or an error.
 */
import type { webcrypto } from "node:crypto";
import type * as Oauth from "oauth4webapi";
import { ClientError } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import { excerpt } from "../util/text.js";
import { untilAborted } from "../util/time.js";
import type { Authorization, Authorizer } from "../transport/http-authorizer.js";
import { DpopKey } from "./dpop.js";
import { AUTH_REQUEST_TIMEOUT_MS, authError, discover, parseChallenge, readCapped, requireSecureUrl, type Discovered, type FetchFn } from "./discovery.js";
import { memoryStore, type AuthOptions, type AuthStore } from "./options.js";

/** The most of a registration or token exchange answer that is read. */
const ANSWER_BYTES = 256 * 1024;
/** Step-ups in a row before a `403 insufficient_scope` stands: with the first, three authorizations at most. */
const MAX_STEP_UPS = 2;
/** A token this close to its expiry is refreshed first. */
const EXPIRY_MARGIN_MS = 30_000;

interface Tokens {
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch ms, or undefined when the server gave no lifetime. */
  expiresAt: number | undefined;
  /** When to refresh first: the margin before expiry, at most half the lifetime. */
  refreshAt?: number | undefined;
  issuer: string;
  scope: string | undefined;
  /** "dpop" for a token bound to this client's DPoP key (held in memory alone). */
  tokenType?: string | undefined;
}

interface Registration {
  client_id: string;
  client_secret?: string | undefined;
  token_endpoint_auth_method?: string | undefined;
}

export class OAuthAuthorizer implements Authorizer {
  private readonly store: AuthStore;
  private tokens: Tokens | undefined;
  private loading: Promise<void> | undefined;
  private discovered: Discovered | undefined;
  private running: Promise<void> | undefined;
  private stepUps = 0;
  private library: Promise<typeof Oauth> | undefined;

  constructor(
    private readonly resourceUrl: URL,
    private readonly options: AuthOptions,
    private readonly clientName: string,
    private readonly fetchFn: FetchFn,
    private readonly logger: Logger,
  ) {
    this.store = options.store ?? memoryStore();
  }

  async authorize(method: string, url: URL): Promise<Authorization | undefined> {
    if (this.running !== undefined) await this.running.catch(() => {});
    const tokens = await this.current();
    if (tokens === undefined) return undefined;
    if (tokens.expiresAt !== undefined && tokens.refreshAt !== undefined && tokens.refreshAt <= Date.now() && tokens.refreshToken !== undefined) {
      await this.once(() => this.refresh(tokens)).catch((error: unknown) => this.logger.debug("a refresh before expiry failed", { error: messageOf(error) }));
      return this.tokens === undefined ? undefined : this.present(this.tokens, method, url);
    }
    return this.present(tokens, method, url);
  }

  /** The headers that present the token: Bearer, or DPoP with a fresh proof. */
  private async present(tokens: Tokens, method: string, url: URL): Promise<Authorization | undefined> {
    if (tokens.tokenType !== "dpop") return { authorization: bearer(tokens) };
    // Bound to a key this process does not hold (a token from the store): not usable.
    if (this.dpop === undefined) return undefined;
    return { authorization: bearer(tokens), dpop: await this.dpop.proof(method, url, tokens.accessToken, this.resourceNonce) };
  }

  async challenged(status: 401 | 403, headerOf: (name: string) => string | undefined, given: Authorization | undefined): Promise<boolean> {
    const header = headerOf("www-authenticate");
    const challenge = parseChallenge(header);
    const sent = given?.authorization;
    // The resource wants its nonce in the proof (RFC 9449 §9): once per new nonce.
    const nonce = headerOf("dpop-nonce");
    if (status === 401 && given?.dpop !== undefined && nonce !== undefined && (header ?? "").includes("use_dpop_nonce")) {
      if (nonce === this.resourceNonce) return false;
      this.resourceNonce = nonce;
      return true;
    }
    // Another request got a new token meanwhile: send again with it.
    const now = this.tokens === undefined ? undefined : bearer(this.tokens);
    if (now !== undefined && now !== sent) return true;
    if (status === 403) {
      if (challenge.error !== "insufficient_scope" || ++this.stepUps > MAX_STEP_UPS) return false;
      // What was granted stays asked for: the new scope is added to it (SEP-2350).
      const scope = union(this.tokens?.scope, challenge.scope);
      await this.once(() => this.runFlow(scope, challenge.resourceMetadata));
      return true;
    }
    // Another process sharing the store may have refreshed meanwhile: its token first.
    if (sent !== undefined && (await this.adoptStored(sent))) return true;
    const tokens = this.tokens;
    if (tokens?.refreshToken !== undefined && sent !== undefined) {
      try {
        await this.once(() => this.refresh(tokens));
        return true;
      } catch (error) {
        this.logger.debug("the refresh on a 401 failed; authorizing afresh", { error: messageOf(error) });
      }
    }
    // A token the full flow just gave, refused at once: nothing more to try.
    if (sent !== undefined && this.freshFromFlow === sent) return false;
    await this.once(() => this.runFlow(challenge.scope, challenge.resourceMetadata));
    return true;
  }

  /** The header of the last token the full flow gave, until a request with it succeeds. */
  private freshFromFlow: string | undefined;
  /** This client's DPoP key, made when an authorization server supports DPoP. */
  private dpop: DpopKey | undefined;
  /** The nonce the resource asked DPoP proofs to carry. */
  private resourceNonce: string | undefined;

  accepted(given: Authorization): void {
    if (given.authorization !== this.freshFromFlow) return;
    // The new token works: the tries it took start again from zero.
    this.freshFromFlow = undefined;
    this.stepUps = 0;
  }

  /** Aborts when the connection ends. */
  private life = new AbortController();

  /**
   * The connection ended: flows under way end with it. A restarted server's next connection
   * keeps this authorizer (its tokens, its store, its DPoP key); its flows get a new life.
   */
  close(): void {
    this.life.abort(new ClientError("closed", "the connection ended while it was being authorized"));
    this.life = new AbortController();
  }

  /** The authorization server the host named, or any when it named none. */
  private checkIssuer(found: Discovered): Discovered {
    const expected = this.options.issuer;
    if (expected !== undefined && found.server.issuer.replace(/\/$/, "") !== expected.replace(/\/$/, "")) {
      throw authError("discovery", `the server names the authorization server ${excerpt(found.server.issuer, 200)}, not the one this client's credentials are for`);
    }
    return found;
  }

  private once(work: () => Promise<void>): Promise<void> {
    this.running ??= work().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Takes the store's token when it is not the one just refused (a shared store, refreshed elsewhere). */
  private async adoptStored(sent: string): Promise<boolean> {
    const kept = await this.store.get(tokenKey(this.resourceUrl)).catch(() => undefined);
    if (kept === undefined) return false;
    try {
      const parsed = JSON.parse(kept) as Partial<Tokens>;
      if (typeof parsed.accessToken !== "string" || typeof parsed.issuer !== "string" || parsed.tokenType === "dpop") return false;
      if (bearer(parsed as Tokens) === sent || (this.tokens !== undefined && parsed.accessToken === this.tokens.accessToken)) return false;
      this.tokens = parsed as Tokens;
      return true;
    } catch {
      return false;
    }
  }

  /** The token now: the one held, else the store's, read once for all the requests that ask meanwhile. */
  private async current(): Promise<Tokens | undefined> {
    this.loading ??= this.load();
    await this.loading;
    return this.tokens;
  }

  private async load(): Promise<void> {
    let kept: string | undefined;
    try {
      kept = await this.store.get(tokenKey(this.resourceUrl));
    } catch (error) {
      throw authError("token", `the store could not be read: ${excerpt(messageOf(error), 200)}`);
    }
    if (kept === undefined || this.tokens !== undefined) return;
    try {
      const parsed = JSON.parse(kept) as Partial<Tokens>;
      // A DPoP-bound token is of no use without its key, which is in memory only.
      if (typeof parsed.accessToken === "string" && typeof parsed.issuer === "string" && parsed.tokenType !== "dpop") this.tokens = parsed as Tokens;
    } catch {
      await this.store.delete(tokenKey(this.resourceUrl)).catch(() => {});
    }
  }

  private oauth(): Promise<typeof Oauth> {
    // Loaded with the first flow: importing Conduit stays cheap for hosts without OAuth.
    this.library ??= import("oauth4webapi");
    return this.library;
  }

  /** Options every oauth4webapi request gets: this client's fetch, http on loopback allowed. */
  private requestOptions(oauth: typeof Oauth, url: string): { signal: AbortSignal; [key: symbol]: unknown } {
    requireSecureUrl(new URL(url), "an authorization server endpoint");
    return { [oauth.customFetch]: this.fetchFn, [oauth.allowInsecureRequests]: new URL(url).protocol === "http:", signal: AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS) };
  }

  /** The authorization code flow, from discovery to the stored token. */
  private async runFlow(scopeAsked: string | undefined, resourceMetadata: string | undefined): Promise<void> {
    const oauth = await this.oauth();
    const found = this.checkIssuer(await discover(this.resourceUrl, { resourceMetadata, scope: scopeAsked }, this.fetchFn));
    this.discovered = found;
    const server = found.server as Oauth.AuthorizationServer;
    if (server.token_endpoint === undefined) throw authError("discovery", "the authorization server names no token endpoint");
    const grant = this.options.grant;
    if (grant !== undefined) {
      await this.unattended(oauth, grant, found, server, chooseScope(scopeAsked, found, this.options.scope));
      this.freshFromFlow = bearer(this.tokens!);
      return;
    }
    const redirectUri = this.options.redirectUri!;
    const authorizeCallback = this.options.authorize!;
    if (server.authorization_endpoint === undefined) throw authError("discovery", "the authorization server names no authorization endpoint");
    const methods = server.code_challenge_methods_supported;
    if (methods !== undefined && !methods.includes("S256")) throw authError("authorization", "the authorization server does not support PKCE with S256");
    const registration = await this.registration(found);
    const client: Oauth.Client = { client_id: registration.client_id, token_endpoint_auth_method: registration.token_endpoint_auth_method };
    const scope = chooseScope(scopeAsked, found, this.options.scope);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(server.authorization_endpoint);
    requireSecureUrl(url, "the authorization endpoint");
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.client_id);
    url.searchParams.set("redirect_uri", redirectUri);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    if (scope !== undefined) url.searchParams.set("scope", scope);
    if (found.resource !== undefined) url.searchParams.set("resource", found.resource);
    let returned: URL;
    try {
      const answer = await untilAborted(authorizeCallback(url, { signal: this.life.signal }), this.life.signal);
      returned = answer instanceof URL ? answer : new URL(answer, redirectUri);
    } catch (error) {
      if (error instanceof ClientError) throw error;
      throw authError("authorization", `the host's authorize callback failed: ${excerpt(messageOf(error), 200)}`, error);
    }
    let params: URLSearchParams;
    try {
      // state, and iss (RFC 9207) where the server says it sends one.
      params = oauth.validateAuthResponse(server, client, returned.searchParams, state);
    } catch (error) {
      throw authError("authorization", describe(error));
    }
    const issued = params.get("iss");
    if (issued !== null && issued !== server.issuer) throw authError("authorization", "the authorization response came from another issuer");
    const DPoP = await this.dpopHandle(oauth, server, client);
    const send = (): Promise<Response> =>
      oauth.authorizationCodeGrantRequest(server, client, this.clientAuth(oauth, registration, server), params, redirectUri, verifier, {
        ...this.requestOptions(oauth, server.token_endpoint!),
        additionalParameters: found.resource === undefined ? {} : { resource: found.resource },
        DPoP,
      });
    const result = await this.tokenResult((response) => oauth.processAuthorizationCodeResponse(server, client, response), await this.tokenRequest(send), send);
    await this.keep(result, server.issuer, scope);
    this.freshFromFlow = bearer(this.tokens!);
  }

  /** A token without a person: client credentials, a workload's JWT, or an enterprise's ID-JAG. */
  private async unattended(oauth: typeof Oauth, grant: NonNullable<AuthOptions["grant"]>, found: Discovered, server: Oauth.AuthorizationServer, scope: string | undefined): Promise<void> {
    const params: Record<string, string> = {};
    if (scope !== undefined) params.scope = scope;
    if (found.resource !== undefined) params.resource = found.resource;
    const clientId = this.options.clientId ?? "";
    const client: Oauth.Client = { client_id: clientId };
    let clientAuth: Oauth.ClientAuth;
    if (grant.type === "client_credentials" && grant.privateKey !== undefined) {
      clientAuth = oauth.PrivateKeyJwt({ key: await signingKey(grant.privateKey, grant.algorithm ?? "ES256") });
    } else {
      const secret = this.options.clientSecret;
      clientAuth = this.clientAuth(oauth, { client_id: clientId, client_secret: secret, token_endpoint_auth_method: authMethod(server, secret !== undefined) }, server);
    }
    let result: Oauth.TokenEndpointResponse;
    // Made per request: the host's callbacks below may take a while before it is sent.
    const options = (): ReturnType<typeof this.requestOptions> => this.requestOptions(oauth, server.token_endpoint!);
    if (grant.type === "client_credentials") {
      const send = (): Promise<Response> => oauth.clientCredentialsGrantRequest(server, client, clientAuth, params, options());
      result = await this.tokenResult((response) => oauth.processClientCredentialsResponse(server, client, response), await this.tokenRequest(send));
    } else {
      const assertion = grant.type === "jwt_bearer" ? await grant.assertion() : await this.identityAssertion(grant, server, found, scope);
      const send = (): Promise<Response> => oauth.genericTokenEndpointRequest(server, client, clientAuth, JWT_BEARER, { ...params, assertion }, options());
      result = await this.tokenResult((response) => oauth.processGenericTokenEndpointResponse(server, client, response), await this.tokenRequest(send));
    }
    await this.keep(result, server.issuer, scope);
  }

  /**
   * Enterprise-managed authorization: the person's ID token, exchanged at the enterprise's
   * identity provider (RFC 8693) for an Identity Assertion JWT Authorization Grant meant for
   * this authorization server and resource.
   */
  private async identityAssertion(grant: Extract<NonNullable<AuthOptions["grant"]>, { type: "enterprise" }>, server: Oauth.AuthorizationServer, found: Discovered, scope: string | undefined): Promise<string> {
    const endpoint = new URL(grant.idpTokenEndpoint);
    requireSecureUrl(endpoint, "the identity provider's token endpoint");
    const form = new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: server.issuer,
      resource: found.resource ?? this.resourceUrl.href,
      subject_token: await grant.idToken(),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    });
    if (scope !== undefined) form.set("scope", scope);
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    if (grant.idpClientSecret === undefined) form.set("client_id", grant.idpClientId);
    else headers.authorization = basicCredentials(grant.idpClientId, grant.idpClientSecret);
    const { status, body } = await this.post(endpoint, headers, form.toString(), "token exchange", "the identity provider");
    const token = typeof body === "object" && body !== null ? (body as { access_token?: unknown }).access_token : undefined;
    if (status !== 200 || typeof token !== "string") {
      throw authError("token exchange", `the identity provider refused the exchange (HTTP ${status}${describeBody(body)})`);
    }
    return token;
  }

  private async refresh(tokens: Tokens): Promise<void> {
    if (tokens.refreshToken === undefined) throw authError("refresh", "there is no refresh token");
    const oauth = await this.oauth();
    const found = this.discovered ?? this.checkIssuer(await discover(this.resourceUrl, {}, this.fetchFn));
    this.discovered = found;
    const server = found.server as Oauth.AuthorizationServer;
    if (server.issuer !== tokens.issuer || server.token_endpoint === undefined) throw authError("refresh", "the token was issued by another authorization server");
    const registration = await this.registration(found);
    const client: Oauth.Client = { client_id: registration.client_id, token_endpoint_auth_method: registration.token_endpoint_auth_method };
    try {
      const DPoP = tokens.tokenType === "dpop" ? await this.dpopHandle(oauth, server, client) : undefined;
      const send = (): Promise<Response> =>
        oauth.refreshTokenGrantRequest(server, client, this.clientAuth(oauth, registration, server), tokens.refreshToken!, {
          ...this.requestOptions(oauth, server.token_endpoint!),
          additionalParameters: found.resource === undefined ? {} : { resource: found.resource },
          DPoP,
        });
      const result = await this.tokenResult((response) => oauth.processRefreshTokenResponse(server, client, response), await this.tokenRequest(send), send);
      await this.keep(result, server.issuer, tokens.scope, tokens.refreshToken);
    } catch (error) {
      // A refresh token refused is spent: forget it, so that the next 401 authorizes afresh.
      this.tokens = { ...tokens, refreshToken: undefined };
      throw error instanceof ClientError && error.kind === "auth" ? new ClientError("auth", error.message.replace("at token", "at refresh")) : error;
    }
  }

  private async keep(result: Oauth.TokenEndpointResponse, issuer: string, scope: string | undefined, previousRefresh?: string): Promise<void> {
    this.tokens = {
      accessToken: result.access_token,
      refreshToken: result.refresh_token ?? previousRefresh,
      expiresAt: typeof result.expires_in === "number" ? Date.now() + result.expires_in * 1000 : undefined,
      refreshAt: typeof result.expires_in === "number" ? Date.now() + Math.max(result.expires_in * 500, result.expires_in * 1000 - EXPIRY_MARGIN_MS) : undefined,
      issuer,
      scope: result.scope ?? scope,
      tokenType: result.token_type.toLowerCase() === "dpop" ? "dpop" : "bearer",
    };
    // Bound to a key in this process's memory, a DPoP token is not one for another process.
    if (this.tokens.tokenType === "dpop") return;
    try {
      await this.store.set(tokenKey(this.resourceUrl), JSON.stringify(this.tokens));
    } catch (error) {
      throw authError("token", `the store could not be written: ${excerpt(messageOf(error), 200)}`);
    }
  }

  /** The client's identity at this authorization server: given, kept, a metadata document, or registered now. */
  private async registration(found: Discovered): Promise<Registration> {
    const server = found.server;
    if (this.options.clientId !== undefined) {
      return { client_id: this.options.clientId, client_secret: this.options.clientSecret, token_endpoint_auth_method: authMethod(server, this.options.clientSecret !== undefined) };
    }
    if (this.options.clientMetadataUrl !== undefined && server.client_id_metadata_document_supported === true) {
      return { client_id: this.options.clientMetadataUrl, token_endpoint_auth_method: "none" };
    }
    const key = `conduit:registration:${server.issuer}`;
    const kept = await this.store.get(key);
    if (kept !== undefined) {
      try {
        return JSON.parse(kept) as Registration;
      } catch {
        await this.store.delete(key);
      }
    }
    if (server.registration_endpoint === undefined) {
      throw authError("registration", "the authorization server offers no registration, and no client id was given");
    }
    const registration = await this.register(server.registration_endpoint);
    await this.store.set(key, JSON.stringify(registration));
    return registration;
  }

  /**
   * Dynamic Client Registration (RFC 7591): a public client with its redirect URI and an
   * `application_type`; the answer needs only a `client_id` (a secret if the server gives one).
   */
  private async register(endpoint: string): Promise<Registration> {
    const url = new URL(endpoint);
    requireSecureUrl(url, "the registration endpoint");
    const metadata = {
      client_name: this.options.clientName ?? this.clientName,
      redirect_uris: this.options.redirectUri === undefined ? [] : [this.options.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: isLoopbackRedirect(this.options.redirectUri ?? "") ? "native" : "web",
    };
    const headers = { "content-type": "application/json", accept: "application/json" };
    const { status, body } = await this.post(url, headers, JSON.stringify(metadata), "registration", "the registration endpoint");
    if (status !== 201 && status !== 200) {
      throw authError("registration", `the server refused the registration (HTTP ${status}${describeBody(body)})`);
    }
    if (typeof body !== "object" || body === null || typeof (body as { client_id?: unknown }).client_id !== "string") {
      throw authError("registration", "the registration answer has no client_id");
    }
    const registered = body as { client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown };
    return {
      client_id: registered.client_id,
      client_secret: typeof registered.client_secret === "string" ? registered.client_secret : undefined,
      token_endpoint_auth_method: typeof registered.token_endpoint_auth_method === "string" ? registered.token_endpoint_auth_method : "none",
    };
  }

  /** POSTs to an endpoint of our own making (not oauth4webapi's): its status and JSON body, read with a cap. */
  private async post(url: URL, headers: Record<string, string>, body: string, step: string, what: string): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await this.fetchFn(url.href, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS) });
    } catch (error) {
      throw authError(step, `${what} could not be reached`, error);
    }
    const text = (await readCapped(response, ANSWER_BYTES).catch(() => "")) ?? "";
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      return { status: response.status, body: undefined };
    }
  }

  private clientAuth(oauth: typeof Oauth, registration: Registration, _server: unknown): Oauth.ClientAuth {
    const secret = registration.client_secret;
    if (secret === undefined || registration.token_endpoint_auth_method === "none") return oauth.None();
    if (registration.token_endpoint_auth_method === "client_secret_post") return oauth.ClientSecretPost(secret);
    // RFC 6749 §2.3.1: the id and secret URL-encoded, joined, in Base64 (encodeURIComponent
    // leaves "-", "_", "." and "~" as they are, as servers expect).
    const credentials = basicCredentials(registration.client_id, secret);
    return (_as, _client, _body, headers) => {
      headers.set("authorization", credentials);
    };
  }

  private async tokenRequest(send: () => Promise<Response>): Promise<Response> {
    try {
      return await send();
    } catch (error) {
      throw authError("token", describe(error));
    }
  }

  /**
   * Processes a token response; one the server refused for its DPoP nonce is sent once more
   * (`resend`), the handle now holding the nonce (RFC 9449 §8).
   */
  private async tokenResult<T>(process: (response: Response) => Promise<T>, response: Response, resend?: () => Promise<Response>): Promise<T> {
    const oauth = await this.oauth();
    try {
      return await process(response);
    } catch (error) {
      if (resend !== undefined && oauth.isDPoPNonceError(error)) {
        const again = await this.tokenRequest(resend);
        try {
          return await process(again);
        } catch (failure) {
          throw authError("token", describe(failure));
        }
      }
      throw authError("token", describe(error));
    }
  }

  /** A DPoP handle for the token requests, where the authorization server supports ES256 proofs. */
  private async dpopHandle(oauth: typeof Oauth, server: Discovered["server"], client: Oauth.Client): Promise<Oauth.DPoPHandle | undefined> {
    const algs = server.dpop_signing_alg_values_supported;
    if (!Array.isArray(algs) || !algs.includes("ES256")) return undefined;
    this.dpop ??= await DpopKey.create();
    return oauth.DPoP(client, this.dpop.pair);
  }
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** The WebCrypto key of a PKCS #8 PEM, for signing `private_key_jwt` assertions with `algorithm`. */
async function signingKey(pem: string, algorithm: string): Promise<webcrypto.CryptoKey> {
  const crypto = await import("node:crypto");
  let der: Buffer;
  try {
    der = crypto.createPrivateKey(pem).export({ format: "der", type: "pkcs8" });
  } catch (error) {
    throw authError("token", "the private key is not a PKCS #8 PEM key", error);
  }
  const params =
    algorithm === "ES256" ? { name: "ECDSA", namedCurve: "P-256" }
    : algorithm === "ES384" ? { name: "ECDSA", namedCurve: "P-384" }
    : algorithm === "PS256" ? { name: "RSA-PSS", hash: "SHA-256" }
    : { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  return crypto.webcrypto.subtle.importKey("pkcs8", der, params, false, ["sign"]);
}

/** RFC 6749 §2.3.1: the id and secret URL-encoded, joined, in Base64. */
function basicCredentials(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

/** The scopes of both, each once. */
function union(granted: string | undefined, asked: string | undefined): string | undefined {
  const scopes = new Set([...(granted ?? "").split(" "), ...(asked ?? "").split(" ")].filter(Boolean));
  return scopes.size === 0 ? undefined : [...scopes].join(" ");
}

function bearer(tokens: Tokens): string {
  return `${tokens.tokenType === "dpop" ? "DPoP" : "Bearer"} ${tokens.accessToken}`;
}

function tokenKey(resource: URL): string {
  return `conduit:tokens:${resource.origin}${resource.pathname}`;
}

/** The challenge's scope, else the resource's, else the host's; `offline_access` when the server lists it. */
function chooseScope(asked: string | undefined, found: Discovered, fallback: string | undefined): string | undefined {
  const base = asked ?? (found.scopesSupported !== undefined && found.scopesSupported.length > 0 ? found.scopesSupported.join(" ") : fallback);
  const offline = found.server.scopes_supported?.includes("offline_access") === true;
  if (!offline) return base;
  const scopes = new Set((base ?? "").split(" ").filter(Boolean));
  scopes.add("offline_access");
  return [...scopes].join(" ");
}

/** The client authentication a pre-registered client uses, among those the server supports. */
function authMethod(server: Discovered["server"], hasSecret: boolean): string {
  if (!hasSecret) return "none";
  const supported = server.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return "client_secret_basic";
}

function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  } catch {
    return false;
  }
}

/** The OAuth error of an answer's body, for a message (no secret is in one). */
function describeBody(body: unknown): string {
  if (typeof body !== "object" || body === null) return "";
  const { error, error_description: text } = body as { error?: unknown; error_description?: unknown };
  if (typeof error !== "string") return "";
  return typeof text === "string" ? `: ${excerpt(error, 60)}: ${excerpt(text, 200)}` : `: ${excerpt(error, 60)}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What an oauth4webapi failure says, without anything secret: the server's error code and text. */
function describe(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { error: code, error_description: text } = error as { error?: unknown; error_description?: unknown };
    if (typeof code === "string") return typeof text === "string" ? `${excerpt(code, 60)}: ${excerpt(text, 200)}` : excerpt(code, 60);
  }
  return excerpt(messageOf(error), 200);
}
