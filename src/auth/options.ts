/**
 * What a host says about authorizing one remote server (`{ url, auth }`), and where what is
 * learnt is kept. The store is a few async methods on strings, so that a host on several
 * machines can share one (Redis, a database); registrations are kept per authorization server
 * (its issuer), tokens per resource.
 */

/** Where registrations and tokens are kept; values are JSON text. */
export interface AuthStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * How the person's authorization comes back: the URL the browser was sent to (with `code` and
 * `state`). `signal` aborts when the connection ends meanwhile.
 */
export type AuthorizeCallback = (authorizationUrl: URL, context: { signal: AbortSignal }) => Promise<URL | string>;

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
   * attention. Set it whenever `clientSecret`, a `privateKey` or a grant is given.
   */
  issuer?: string | undefined;
  /** Scopes to ask for when the server names none. */
  scope?: string | undefined;
  /** Default: in memory, for this Client. */
  store?: AuthStore | undefined;
}

export const AUTH_OPTION_KEYS: ReadonlySet<string> = new Set(["redirectUri", "authorize", "grant", "clientId", "clientSecret", "clientMetadataUrl", "clientName", "issuer", "scope", "store"]);

/** A store in this process's memory. */
export function memoryStore(): AuthStore {
  const values = new Map<string, string>();
  return {
    get: (key) => Promise.resolve(values.get(key)),
    set: (key, value) => {
      values.set(key, value);
      return Promise.resolve();
    },
    delete: (key) => {
      values.delete(key);
      return Promise.resolve();
    },
  };
}

/**
 * A store in one JSON file, readable and writable by its owner alone (mode 0600, its folder
 * 0700 when made here): for a host on one machine, such as the terminal host. Writes go to a
 * temporary file renamed over the old one, one at a time, so that a crash leaves either.
 */
export function fileStore(path: string): AuthStore {
  let queue: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<Record<string, string>> => {
    const fs = await import("node:fs/promises");
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(path, "utf8"));
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
  };
  const change = (edit: (values: Record<string, string>) => void): Promise<void> => {
    const done = queue.then(async () => {
      const [fs, path_] = await Promise.all([import("node:fs/promises"), import("node:path")]);
      const values = await read();
      edit(values);
      await fs.mkdir(path_.dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.tmp`;
      await fs.writeFile(temporary, JSON.stringify(values), { mode: 0o600 });
      await fs.chmod(temporary, 0o600);
      await fs.rename(temporary, path);
    });
    queue = done.catch(() => {});
    return done;
  };
  return {
    get: async (key) => {
      await queue;
      const values = await read();
      return Object.hasOwn(values, key) ? values[key] : undefined;
    },
    set: (key, value) => change((values) => Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true })),
    delete: (key) =>
      change((values) => {
        delete values[key];
      }),
  };
}
