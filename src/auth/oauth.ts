/**
 * OAuth for one remote server (basic/authorization), on oauth4webapi: what the transport's
 * `Authorizer` asks is answered from the store, by a refresh, or by a flow:
 *
 * - discovery (`discovery.ts`), every URL a server gives checked against where the MCP server
 *   is (`url-policy.ts`), and the authorization server bound to the host's credentials
 *   (`issuer-binding.ts`);
 * - the authorization code flow with PKCE (`code-flow.ts`, its client from `registration.ts`),
 *   or a grant without a person (`unattended.ts`);
 * - a refresh before expiry and on a `401` to the current token (`refresh.ts`): a refresh
 *   that fails for a moment keeps its refresh token and fails the request with its reason;
 *   only the server's refusal (`invalid_grant`, `invalid_client`) sends the person back;
 * - a step-up on `403 insufficient_scope`, a bounded number of times.
 *
 * One flow at a time per server: requests that meet a `401` meanwhile wait for it. Tokens,
 * codes, verifiers and secrets are never in a message, a log line or an error.
 */
import { ClientError, InvalidArgumentError, messageOf } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import type { Authorization, Authorizer } from "../transport/http-authorizer.js";
import { memoryStore } from "../stores/memory-store.js";
import { authError, kindOf, refusedGrant } from "./auth-error.js";
import type { FetchFn } from "./auth-fetch.js";
import { AuthRecords } from "./auth-records.js";
import { codeFlow, requirePkce } from "./code-flow.js";
import type { AuthContext } from "./context.js";
import { discover, parseChallenge, type Challenge, type Discovered } from "./discovery.js";
import { IssuerBinding } from "./issuer-binding.js";
import type { AuthOptions } from "./options.js";
import { isPendingFlowStore } from "./pending-flow.js";
import { keepsKeyPairs } from "./dpop-keys.js";
import { refreshed } from "./refresh.js";
import { chooseScope, union } from "./scopes.js";
import { TokenEndpoint } from "./token-endpoint.js";
import { bearer, dueForRefresh, usableKept, type Tokens } from "./tokens.js";
import { unattendedToken } from "./unattended.js";
import { UrlPolicy, isSecure, requireSecureUrl } from "./url-policy.js";

/**
 * Runs one step of the authorizer (discovery, a flow, a refresh) under the host's tracing: the
 * Client makes it of its `tracing` option, so that auth/ needs nothing of the tracing seam.
 */
export type AuthTracing = <T>(name: string, attributes: Readonly<Record<string, string>>, run: () => Promise<T>) => Promise<T>;

/** Step-ups in a row before a `403 insufficient_scope` stands: with the first, three authorizations at most. */
const MAX_STEP_UPS = 2;

export class OAuthAuthorizer implements Authorizer {
  private readonly ctx: AuthContext;
  private readonly binding: IssuerBinding;
  private readonly tokensKey: string;
  private tokens: Tokens | undefined;
  private loading: Promise<void> | undefined;
  private discovered: Discovered | undefined;
  private running: Promise<void> | undefined;
  private stepUps = 0;
  /** The header of the last token the full flow gave, until a request with it succeeds. */
  private freshFromFlow: string | undefined;
  /** The nonce the resource asked DPoP proofs to carry. */
  private resourceNonce: string | undefined;
  /** Aborts when the connection ends. */
  private life = new AbortController();

  constructor(
    private readonly resourceUrl: URL,
    private readonly options: AuthOptions,
    clientName: string,
    fetchFn: FetchFn,
    private readonly logger: Logger,
    private readonly traced?: AuthTracing,
  ) {
    const namespace = options.namespace;
    if (namespace !== undefined && (typeof namespace !== "string" || namespace === "")) throw new InvalidArgumentError("`auth.namespace` must be a non-empty string");
    if (options.pendingFlow !== undefined && !isPendingFlowStore(options.pendingFlow)) throw new InvalidArgumentError("`auth.pendingFlow` must be a store of pending flows (save and take)");
    const store = options.store ?? memoryStore();
    const records = new AuthRecords(store, namespace);
    const policy = new UrlPolicy(resourceUrl, urlOf(options.issuer));
    // A store that keeps key pairs (IndexedDB) keeps the DPoP key too, and so the tokens bound to it.
    const keys = keepsKeyPairs(store) ? { store, key: records.dpopKeyKey(resourceUrl) } : undefined;
    const endpoint = new TokenEndpoint(fetchFn, policy, keys);
    const lifeOf = (): AbortSignal => this.life.signal;
    this.ctx = {
      resourceUrl,
      options,
      clientName,
      fetchFn,
      policy,
      records,
      endpoint,
      get life() {
        return lifeOf();
      },
      person: {},
    };
    this.binding = new IssuerBinding(records, resourceUrl, options);
    this.tokensKey = records.tokensKey(resourceUrl);
  }

  set onPersonWait(listener: ((waiting: boolean) => void) | undefined) {
    this.ctx.person.onWait = listener;
  }

  get onPersonWait(): ((waiting: boolean) => void) | undefined {
    return this.ctx.person.onWait;
  }

  async authorize(method: string, url: URL): Promise<Authorization | undefined> {
    // A token never travels in the clear, whatever the store holds for this resource.
    if (!isSecure(this.resourceUrl)) return undefined;
    if (this.running !== undefined) await this.running.catch(() => {});
    const tokens = await this.current();
    if (tokens === undefined) return undefined;
    if (dueForRefresh(tokens)) {
      // The token may still be good: a refresh that fails is tried again by the next request.
      await this.once(() => this.refresh(tokens)).catch((error: unknown) => this.logger.debug("a refresh before expiry failed", { error: messageOf(error) }));
      return this.tokens === undefined ? undefined : this.present(this.tokens, method, url);
    }
    return this.present(tokens, method, url);
  }

  /** The headers that present the token: Bearer, or DPoP with a fresh proof. */
  private async present(tokens: Tokens, method: string, url: URL): Promise<Authorization | undefined> {
    if (tokens.tokenType !== "dpop") return { authorization: bearer(tokens) };
    // Bound to a key this process does not hold (a token from the store): not usable.
    const dpop = this.ctx.endpoint.dpop;
    if (dpop === undefined) return undefined;
    return { authorization: bearer(tokens), dpop: await dpop.proof(method, url, tokens.accessToken, this.resourceNonce) };
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
        // Down for a moment: this request fails with the reason, the refresh token stays.
        if (!refusedGrant(error)) throw error;
        this.logger.debug("the refresh token was refused; authorizing afresh", { error: messageOf(error) });
      }
    }
    // A token the full flow just gave, refused at once: nothing more to try.
    if (sent !== undefined && this.freshFromFlow === sent) return false;
    await this.once(() => this.runFlow(challenge.scope, challenge.resourceMetadata));
    return true;
  }

  accepted(given: Authorization): void {
    if (given.authorization !== this.freshFromFlow) return;
    // The new token works: the tries it took start again from zero.
    this.freshFromFlow = undefined;
    this.stepUps = 0;
  }

  /**
   * The connection ended: flows under way end with it. A restarted server's next connection
   * keeps this authorizer (its tokens, its store, its DPoP key); its flows get a new life.
   */
  close(): void {
    this.life.abort(new ClientError("closed", "the connection ended while it was being authorized"));
    this.life = new AbortController();
  }

  /** One flow at a time; whatever it throws reaches the transport as an `"auth"` error (or the connection's end). */
  private once(work: () => Promise<void>): Promise<void> {
    this.running ??= work()
      .catch((error: unknown) => {
        // Not quoted, nor kept as the cause: what failed unforeseen may hold what it was handling.
        throw error instanceof ClientError ? error : authError("authorization", `an unexpected failure (${kindOf(error)})`);
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Takes the store's token when it is not the one just refused (a shared store, refreshed elsewhere). */
  private async adoptStored(sent: string): Promise<boolean> {
    const stored = await this.ctx.records.read("token", this.tokensKey).catch(() => undefined);
    const kept = usableKept(stored, await this.heldKey(stored).catch(() => undefined));
    if (kept === undefined || bearer(kept) === sent || (this.tokens !== undefined && kept.accessToken === this.tokens.accessToken)) return false;
    this.tokens = kept;
    return true;
  }

  /** The token now: the one held, else the store's, read once for all the requests that ask meanwhile. */
  private async current(): Promise<Tokens | undefined> {
    // Dropped when it fails: a store down for a moment is read again by the next request.
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    await this.loading;
    return this.tokens;
  }

  private async load(): Promise<void> {
    const stored = await this.ctx.records.read("token", this.tokensKey);
    const kept = usableKept(stored, await this.heldKey(stored));
    if (this.tokens === undefined) this.tokens = kept;
  }

  /** For a kept DPoP-bound token: the thumbprint of the key this authorizer holds (read from the store), if any. */
  private async heldKey(stored: Record<string, unknown> | undefined): Promise<string | undefined> {
    if (stored?.tokenType !== "dpop" || !this.ctx.endpoint.keepsKey) return undefined;
    return (await this.ctx.endpoint.dpopKey(false))?.thumbprint();
  }

  /**
   * `run` under a span named `name` when the host traces, a child of the request that met the
   * challenge (the span carries no URL of the host's, nor anything of a token).
   */
  private step<T>(name: string, attributes: Readonly<Record<string, string>>, run: () => Promise<T>): Promise<T> {
    const traced = this.traced;
    return traced === undefined ? run() : traced(name, attributes, run);
  }

  private async discover(challenge: Challenge): Promise<Discovered> {
    // Only a flow needs https: a plain-http server off loopback that asks for none is reached as
    // it is, and one that asks is refused here, before anything is fetched.
    requireSecureUrl(this.resourceUrl, "an MCP server that asks for OAuth");
    const found = await this.step("oauth.discovery", {}, () => discover(this.resourceUrl, challenge, this.ctx.fetchFn, this.ctx.policy, (named) => this.binding.pick(named)));
    this.discovered = found;
    return found;
  }

  /** A flow, from discovery to the kept token: the code flow, or the host's grant. */
  private async runFlow(scopeAsked: string | undefined, resourceMetadata: string | undefined): Promise<void> {
    const found = await this.discover({ resourceMetadata, scope: scopeAsked });
    if (found.server.token_endpoint === undefined) throw authError("discovery", "the authorization server names no token endpoint");
    const grant = this.options.grant;
    if (grant === undefined) requirePkce(found);
    // From here on, the host's credentials go to this authorization server: it is remembered first.
    await this.binding.use(found.server.issuer);
    const attributes = { "conduit.oauth.grant": grant === undefined ? "authorization_code" : grant.type };
    const tokens = await this.step("oauth.authorization", attributes, () =>
      grant === undefined ? codeFlow(this.ctx, found, scopeAsked) : unattendedToken(this.ctx, grant, found, chooseScope(scopeAsked, found, this.options.scope)),
    );
    await this.keep(tokens);
    this.freshFromFlow = bearer(tokens);
  }

  private async refresh(tokens: Tokens): Promise<void> {
    const found = this.discovered ?? (await this.discover({}));
    let renewed: Tokens;
    try {
      renewed = await this.step("oauth.refresh", {}, () => refreshed(this.ctx, tokens, found));
    } catch (error) {
      // Refused for good: forget it, so that the next 401 authorizes afresh. Any other failure keeps it for the next try.
      if (refusedGrant(error) && this.tokens?.refreshToken === tokens.refreshToken) this.tokens = { ...tokens, refreshToken: undefined };
      throw error;
    }
    await this.keep(renewed);
  }

  private async keep(tokens: Tokens): Promise<void> {
    this.tokens = tokens;
    if (tokens.tokenType !== "dpop") return this.ctx.records.write("token", this.tokensKey, tokens);
    // Bound to a key in this process's memory, a DPoP token is not one for another process; with
    // the key in the store, it is kept with the key's thumbprint, for whoever holds that key.
    const key = this.ctx.endpoint.keepsKey ? this.ctx.endpoint.dpop : undefined;
    if (key === undefined) return;
    await this.ctx.records.write("token", this.tokensKey, { ...tokens, jkt: await key.thumbprint() });
  }
}

function urlOf(text: string | undefined): URL | undefined {
  if (text === undefined) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
