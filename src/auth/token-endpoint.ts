/**
 * The token endpoint, through oauth4webapi: each request with this client's fetch, a time
 * bound and the URL policy; the client's authentication (`client_secret_basic`,
 * `client_secret_post`, `private_key_jwt`, `none`); a DPoP key where the server supports ES256
 * proofs, and one resend when it asks for its nonce (RFC 9449 §8). Failures are `"auth"`
 * errors naming the step, the server's OAuth error and nothing secret (`tokenError`).
 */
import type * as Oauth from "oauth4webapi";
import { authError, tokenError, type AuthStep } from "./auth-error.js";
import { AUTH_REQUEST_TIMEOUT_MS, type FetchFn } from "./auth-fetch.js";
import type { ServerMetadata } from "./discovery.js";
import { DpopKey } from "./dpop.js";
import { keptDpopKey, keptPair, type KeyPairStore } from "./dpop-keys.js";
import type { AuthGrant } from "./options.js";
import type { UrlPolicy } from "./url-policy.js";
import { fromBase64, toBase64, utf8 } from "../util/bytes.js";
import { lowRuntime } from "../util/runtime.js";

/** A client at one authorization server: its id, and what proves it. */
export interface Registration {
  client_id: string;
  client_secret?: string | undefined;
  token_endpoint_auth_method?: string | undefined;
  /** The redirect URI a dynamic registration was made for. */
  registeredFor?: string | undefined;
}

export type RequestOptions = { signal: AbortSignal; [key: symbol]: unknown };

export class TokenEndpoint {
  private library: Promise<typeof Oauth> | undefined;
  /** This client's DPoP key, made when an authorization server supports DPoP: in memory, or in the store where it keeps key pairs. */
  dpop: DpopKey | undefined;
  private keyLoading: Promise<DpopKey | undefined> | undefined;

  /**
   * @param keys where the DPoP key pair is kept across pages and processes, when the host's store
   *   keeps key pairs (IndexedDB); without it, the key is this process's alone
   */
  constructor(
    private readonly fetchFn: FetchFn,
    private readonly policy: UrlPolicy,
    private readonly keys?: { store: KeyPairStore; key: string },
  ) {}

  /** Whether a DPoP-bound token can outlive this process: its key is in the store. */
  get keepsKey(): boolean {
    return this.keys !== undefined;
  }

  /**
   * The DPoP key: the one held, else the store's (made and kept there when `make` and there is
   * none); undefined when nothing is held and nothing may be made. Read once for concurrent callers.
   */
  async dpopKey(make: boolean): Promise<DpopKey | undefined> {
    if (this.dpop !== undefined) return this.dpop;
    const keys = this.keys;
    if (keys === undefined) return make ? (this.dpop = await DpopKey.create()) : undefined;
    if (this.keyLoading === undefined || make) {
      // Dropped when it fails or finds none: a later flow reads (or makes) it again.
      const loading = (this.keyLoading = (make ? keptDpopKey(keys.store, keys.key) : keptPair(keys.store, keys.key)).then(
        (key) => {
          if (key === undefined) this.keyLoading = undefined;
          else this.dpop ??= key;
          return this.dpop;
        },
        (error: unknown) => {
          this.keyLoading = undefined;
          throw error;
        },
      ));
      return loading;
    }
    return this.keyLoading;
  }

  oauth(): Promise<typeof Oauth> {
    // Loaded with the first flow: importing Conduit stays cheap for hosts without OAuth.
    this.library ??= import("oauth4webapi");
    return this.library;
  }

  /** Options for one oauth4webapi request to `url`: this client's fetch, http allowed where the policy allows it. Made per request: a host's callback may come between. */
  requestOptions(oauth: typeof Oauth, url: string): RequestOptions {
    const checked = this.policy.check(url, "an authorization server endpoint");
    return { [oauth.customFetch]: this.fetchFn, [oauth.allowInsecureRequests]: checked.protocol === "http:", signal: AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS) };
  }

  /**
   * Sends a token request and processes its answer; one the server refused for its DPoP nonce
   * is sent once more (`resend`), the handle now holding the nonce.
   */
  async redeem<T>(step: AuthStep, send: () => Promise<Response>, process: (response: Response) => Promise<T>, resend?: () => Promise<Response>): Promise<T> {
    const oauth = await this.oauth();
    try {
      return await process(await send());
    } catch (error) {
      if (resend === undefined || !oauth.isDPoPNonceError(error)) throw tokenError(step, error);
    }
    try {
      return await process(await resend());
    } catch (error) {
      throw tokenError(step, error);
    }
  }

  /** A DPoP handle for the token requests, where the authorization server supports ES256 proofs. */
  async dpopHandle(oauth: typeof Oauth, server: ServerMetadata, client: Oauth.Client): Promise<Oauth.DPoPHandle | undefined> {
    const algs = server.dpop_signing_alg_values_supported;
    if (!Array.isArray(algs) || !algs.includes("ES256")) return undefined;
    const key = (await this.dpopKey(true))!;
    return oauth.DPoP(client, key.pair);
  }
}

/** How the client proves itself at the token endpoint: a `private_key_jwt` assertion when the grant has a key, else its secret, else nothing. */
export async function clientAuthentication(oauth: typeof Oauth, registration: Registration, grant: AuthGrant | undefined): Promise<Oauth.ClientAuth> {
  if (grant?.type === "client_credentials" && grant.privateKey !== undefined) {
    return oauth.PrivateKeyJwt({ key: await signingKey(grant.privateKey, grant.algorithm ?? "ES256") });
  }
  const secret = registration.client_secret;
  if (secret === undefined || registration.token_endpoint_auth_method === "none") return oauth.None();
  if (registration.token_endpoint_auth_method === "client_secret_post") return oauth.ClientSecretPost(secret);
  const credentials = basicCredentials(registration.client_id, secret);
  return (_as, _client, _body, headers) => {
    headers.set("authorization", credentials);
  };
}

/** The client a host registered beforehand, with the authentication the server supports for it. */
export function hostRegistration(clientId: string, secret: string | undefined, server: ServerMetadata): Registration {
  return { client_id: clientId, client_secret: secret, token_endpoint_auth_method: authMethod(server, secret !== undefined) };
}

/**
 * RFC 6749 §2.3.1: the id and secret URL-encoded, joined, in Base64 (encodeURIComponent leaves
 * "-", "_", "." and "~" as they are, as servers expect).
 */
export function basicCredentials(id: string, secret: string): string {
  return `Basic ${toBase64(utf8(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`))}`;
}

/** The client authentication a pre-registered client uses, among those the server supports. */
function authMethod(server: ServerMetadata, hasSecret: boolean): string {
  if (!hasSecret) return "none";
  const supported = server.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return "client_secret_basic";
}

/** The WebCrypto key of a PKCS #8 PEM, for signing `private_key_jwt` assertions with `algorithm`. */
async function signingKey(pem: string, algorithm: string): Promise<CryptoKey> {
  let der: Uint8Array;
  try {
    // On Node any PEM key it reads; elsewhere PKCS #8 ("BEGIN PRIVATE KEY"), which WebCrypto takes.
    const fromPem = lowRuntime().pkcs8FromPem;
    der = fromPem === undefined ? pkcs8Der(pem) : await fromPem(pem);
  } catch (error) {
    throw authError("token", "the private key is not a PKCS #8 PEM key", error);
  }
  const params =
    algorithm === "ES256" ? { name: "ECDSA", namedCurve: "P-256" }
    : algorithm === "ES384" ? { name: "ECDSA", namedCurve: "P-384" }
    : algorithm === "PS256" ? { name: "RSA-PSS", hash: "SHA-256" }
    : { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  try {
    return await globalThis.crypto.subtle.importKey("pkcs8", der as Uint8Array<ArrayBuffer>, params, false, ["sign"]);
  } catch (error) {
    throw authError("token", `the private key is not a ${algorithm} key WebCrypto can import`, error);
  }
}

const PKCS8 = /-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END PRIVATE KEY-----/;

function pkcs8Der(pem: string): Uint8Array {
  const body = PKCS8.exec(pem)?.[1];
  if (body === undefined) throw new Error("no PKCS #8 block (BEGIN PRIVATE KEY)");
  return fromBase64(body);
}
