/**
 * What a host says about authorizing one remote server (`{ url, auth }`), and where what is
 * learnt is kept (`src/stores/`): registrations per authorization server and redirect URI,
 * tokens per resource, under the host's `namespace` when it gives one.
 */
import type { AuthStore } from "../stores/auth-store.js";
import type { PendingFlowStore } from "./pending-flow.js";

export type { AuthStore } from "../stores/auth-store.js";
export { memoryStore } from "../stores/memory-store.js";

/**
 * How the person's authorization comes back: the URL the browser was sent to (with `code` and
 * `state`). `signal` aborts when the connection ends meanwhile; `serverUrl` is the MCP server's
 * URL (a browser helper opens an http authorization URL only for a server on loopback).
 */
export type AuthorizeCallback = (authorizationUrl: URL, context: { signal: AbortSignal; serverUrl?: URL | undefined }) => Promise<URL | string>;

/**
 * How a token is got when no person takes part (the extensions of the authorization spec):
 * - `client_credentials`: the client's own credentials, `clientId` with `clientSecret`, or a
 *   `privateKey` (PKCS #8 PEM) signing a `private_key_jwt` assertion;
 * - `jwt_bearer`: workload identity federation (RFC 7523): a JWT the platform issued the workload;
 * - `enterprise`: enterprise-managed authorization: the person's ID token from the enterprise's
 *   identity provider is exchanged there for an ID-JAG (RFC 8693), which the authorization
 *   server takes as a JWT bearer grant.
 */
export type AuthGrant =
  | { type: "client_credentials"; privateKey?: string | undefined; algorithm?: "ES256" | "ES384" | "RS256" | "PS256" | undefined }
  | { type: "jwt_bearer"; assertion: () => string | Promise<string> }
  | {
      type: "enterprise";
      idpTokenEndpoint: string;
      idpClientId: string;
      idpClientSecret?: string | undefined;
      idToken: () => string | Promise<string>;
    };

export interface AuthOptions {
  /** Where the client is sent back; registered with the authorization server (the code flow). */
  redirectUri?: string | undefined;
  /**
   * Shows `authorizationUrl` to the person (Conduit never opens a browser) and resolves with the
   * URL the authorization server redirected to. `loopbackRedirect()` gives one for a local host.
   */
  authorize?: AuthorizeCallback | undefined;
  /**
   * How long the person is given to answer `authorize` (ms, default 600 000: a first consent
   * takes minutes). The connect's `connectTimeout` and a call's `timeout` do not count this wait;
   * past it the flow fails (`"auth"`, step `authorization`) and `authorize`'s signal aborts.
   */
  authorizeTimeout?: number | undefined;
  /** A grant without a person; by default the authorization code flow (`redirectUri`, `authorize`). */
  grant?: AuthGrant | undefined;
  /** A client registered beforehand; without one, a Client ID Metadata Document or Dynamic Client Registration. */
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** The `https` URL of this client's Client ID Metadata Document, used where the server supports them. */
  clientMetadataUrl?: string | undefined;
  /** The name registered for this client (default: the Client's `name`). */
  clientName?: string | undefined;
  /**
   * The authorization server this client's credentials are for. Given, discovery must land on
   * exactly it: a server naming another one gets no credential, no grant and no person's
   * attention. Without it, credentials of the host's own (`clientSecret`, a `privateKey`, a
   * grant) go only to the authorization server they were first used with for this resource,
   * remembered in the store.
   */
  issuer?: string | undefined;
  /**
   * Where a code flow that leaves the page is kept until the page comes back with its redirect
   * (a full-page redirect in a browser: `browserRedirect().pendingFlow`, the tab's sessionStorage).
   */
  pendingFlow?: PendingFlowStore | undefined;
  /** Scopes to ask for when the server names none. */
  scope?: string | undefined;
  /** Default: in memory, for this Client. */
  store?: AuthStore | undefined;
  /**
   * Puts every key this server's authorization keeps under a name of the host's (a user's id,
   * a tenant's): a host that serves many people from one store gives each their own, so that
   * one person's tokens are never another's.
   */
  namespace?: string | undefined;
}

/** Long enough for a first consent (an account to sign in to, a second factor, a long scope list). */
export const DEFAULT_AUTHORIZE_TIMEOUT_MS = 600_000;

export const AUTH_OPTION_KEYS: ReadonlySet<string> = new Set(["redirectUri", "authorize", "grant", "clientId", "clientSecret", "clientMetadataUrl", "clientName", "issuer", "scope", "store", "namespace", "pendingFlow", "authorizeTimeout"]);

