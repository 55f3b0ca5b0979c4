// OAuth's trust decisions, against real servers on loopback (test/helpers/oauth-server.ts):
// which authorization server gets the host's credentials, which URLs a server may send the
// client to, PKCE, which registration goes with which redirect URI, what a refresh that fails
// for a moment keeps, and what a store's failure becomes.
import { generateKeyPairSync } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Client, ClientError, memoryStore, type AuthGrant, type AuthOptions, type AuthStore } from "../../src/node.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";
import { approve, handshakeDone, startOAuthServers, startRecordingServer, type OAuthServers } from "../helpers/oauth-server.js";
import { officialHttp } from "../helpers/official.js";

const REDIRECT = "http://127.0.0.1:7777/callback";
const SECRET = "s3cret-value";

function client(): Client {
  return track(new Client({ name: "host", version: "1", logger: capturingLogger(), requestTimeout: 5_000 }));
}

function codeFlow(store: AuthStore, authorized: URL[] = [], redirectUri = REDIRECT, browser?: OAuthServers["fetch"]): AuthOptions {
  return {
    redirectUri,
    store,
    authorize: (url) => {
      authorized.push(url);
      return approve(url, browser);
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<ClientError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClientError);
  return error as ClientError;
}

const privateKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "pem", type: "pkcs8" }).toString();

/** Each kind of credential of the host's own, and what of it must never reach another server. */
const CREDENTIALS: Array<{ kind: string; auth: (servers: OAuthServers, store: AuthStore) => AuthOptions; secret: string }> = [
  { kind: "a client secret (code flow)", auth: (_, store) => ({ ...codeFlow(store), clientId: "pre", clientSecret: SECRET }), secret: SECRET },
  { kind: "a client secret (client credentials)", auth: (_, store) => ({ store, clientId: "pre", clientSecret: SECRET, grant: { type: "client_credentials" } }), secret: SECRET },
  { kind: "a private key assertion", auth: (_, store) => ({ store, clientId: "pre", grant: { type: "client_credentials", privateKey, algorithm: "ES256" } }), secret: "client_assertion" },
  { kind: "a jwt_bearer assertion", auth: (_, store) => ({ store, clientId: "pre", grant: { type: "jwt_bearer", assertion: () => "WORKLOAD-JWT" } }), secret: "WORKLOAD-JWT" },
  {
    kind: "an enterprise ID token",
    auth: (servers, store) => ({ store, clientId: "pre", grant: { type: "enterprise", idpTokenEndpoint: servers.idpTokenEndpoint, idpClientId: "idp-client", idToken: () => "ADA-ID-TOKEN" } satisfies AuthGrant }),
    secret: "ADA-ID-TOKEN",
  },
];

describe("the host's credentials go only to the authorization server they were first used with", () => {
  for (const { kind, auth, secret } of CREDENTIALS) {
    it(`${kind}: a resource whose metadata later names another authorization server gets nothing, and the connect names both`, async () => {
      const servers = await startOAuthServers();
      const thief = await startRecordingServer();
      const store = memoryStore();
      const host = client();
      const first = await host.connect("p", { url: servers.resourceUrl, auth: auth(servers, store) });
      expect((await first.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
      // The credentials did reach the first server: the test would see them if they went elsewhere.
      expect(servers.credentials.length).toBeGreaterThan(0);
      await host.close();

      // Another host process (the same store), after the resource's metadata changed.
      servers.authorizationServers = [thief.url];
      servers.revokeAll();
      const error = await client()
        .connect("p", { url: servers.resourceUrl, auth: auth(servers, store) })
        .catch((e: unknown) => e);
      expect(thief.received.map((r) => `${r.method} ${r.path}`)).toEqual([]);
      expect(error).toBeInstanceOf(ClientError);
      expect(error).toMatchObject({ kind: "auth" });
      expect((error as Error).message).toContain("at discovery");
      expect((error as Error).message).toContain(thief.url);
      expect((error as Error).message).toContain(servers.issuer);
      expect(inspect(error, { depth: 20 })).not.toContain(secret);
    });
  }

  it("a resource that lists the bound authorization server among others is authorized by it", async () => {
    const servers = await startOAuthServers();
    const thief = await startRecordingServer();
    const store = memoryStore();
    const auth: AuthOptions = { store, clientId: "pre", clientSecret: SECRET, grant: { type: "client_credentials" } };
    const host = client();
    await host.connect("p", { url: servers.resourceUrl, auth });
    await host.close();
    servers.authorizationServers = [thief.url, servers.issuer];
    servers.revokeAll();
    const again = await client().connect("p", { url: servers.resourceUrl, auth });
    expect((await again.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-2" }]);
    expect(thief.received).toEqual([]);
  });

  it("the issuer the host named wins over the store's, and a mismatch names both", async () => {
    const servers = await startOAuthServers();
    const error = await failure(
      client().connect("p", { url: servers.resourceUrl, auth: { store: memoryStore(), clientId: "pre", clientSecret: SECRET, grant: { type: "client_credentials" }, issuer: "https://as.example.com" } }),
    );
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("at discovery");
    expect(error.message).toContain("https://as.example.com");
    expect(error.message).toContain(servers.issuer);
    expect(servers.credentials).toEqual([]);
  });
});

/** Servers known by public names (reached on loopback through the helper's fetch): a resource on the internet. */
async function publicServers(): Promise<OAuthServers> {
  return startOAuthServers({ names: { resource: "https://mcp.example.test", authorizationServer: "https://as.example.test" } });
}

function publicTarget(servers: OAuthServers, auth: AuthOptions, seen: string[] = []): { url: string; fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>; auth: AuthOptions } {
  return {
    url: servers.resourceUrl,
    fetch: (input, init) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return servers.fetch(input, init);
    },
    auth,
  };
}

describe("a resource on the internet cannot send the client to loopback, link-local or private addresses", () => {
  it("is authorized as usual when every server it names is public", async () => {
    const servers = await publicServers();
    const server = await client().connect("p", publicTarget(servers, codeFlow(memoryStore(), [], REDIRECT, servers.fetch)));
    expect((await server.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
  });

  // http where the old rule let it through (loopback); https for the spellings it did not know.
  for (const [scheme, host] of [
    ["http", "127.0.0.1"],
    ["http", "localhost"],
    ["http", "[::1]"],
    ["http", "127.1.2.3"],
    ["https", "[::ffff:127.0.0.1]"],
    ["https", "0.0.0.0"],
  ] as const) {
    it(`refuses an authorization server at ${scheme}://${host}: nothing is sent there`, async () => {
      const servers = await publicServers();
      const thief = await startRecordingServer();
      servers.authorizationServers = [thief.url.replace("http://127.0.0.1", `${scheme}://${host}`)];
      const seen: string[] = [];
      const error = await failure(client().connect("p", publicTarget(servers, { ...codeFlow(memoryStore()), clientId: "pre", clientSecret: SECRET }, seen)));
      expect(thief.received).toEqual([]);
      expect(seen.filter((url) => !url.startsWith("https://mcp.example.test/"))).toEqual([]);
      expect(error.kind).toBe("auth");
      expect(error.message).toContain("at discovery");
      expect(error.message).toContain("is on loopback");
    });
  }

  for (const [address, kind] of [
    ["169.254.169.254", "link-local"],
    ["10.0.0.1", "private"],
    ["192.168.1.20", "private"],
    ["[fd00::1]", "private"],
  ] as const) {
    it(`refuses an authorization server at ${address} (${kind}) without a request to it`, async () => {
      const servers = await publicServers();
      servers.authorizationServers = [`https://${address}/`];
      const seen: string[] = [];
      const error = await failure(client().connect("p", publicTarget(servers, codeFlow(memoryStore()), seen)));
      expect(seen.filter((url) => url.includes(address))).toEqual([]);
      expect(error.message).toContain("at discovery");
      expect(error.message).toContain(kind);
    });
  }

  it("refuses a challenge whose resource_metadata is on loopback", async () => {
    const servers = await publicServers();
    const thief = await startRecordingServer();
    servers.resourceMetadataUrl = `${thief.url}/.well-known/oauth-protected-resource`;
    const error = await failure(client().connect("p", publicTarget(servers, codeFlow(memoryStore()))));
    expect(thief.received).toEqual([]);
    expect(error.message).toContain("at discovery");
  });

  for (const endpoint of ["token_endpoint", "registration_endpoint", "authorization_endpoint"] as const) {
    it(`refuses metadata whose ${endpoint} is on loopback: no request there, and the person is not sent there`, async () => {
      const servers = await publicServers();
      const thief = await startRecordingServer();
      servers.metadata = { [endpoint]: `${thief.url.replace("127.0.0.1", "localhost")}/${endpoint}` };
      const authorized: URL[] = [];
      const error = await failure(client().connect("p", publicTarget(servers, codeFlow(memoryStore(), authorized, REDIRECT, servers.fetch))));
      expect(thief.received).toEqual([]);
      expect(authorized).toEqual([]);
      expect(error.message).toContain("at discovery");
      expect(error.message).toContain(endpoint);
    });
  }

  it("lets a resource on loopback name an authorization server on loopback (the other tests' case)", async () => {
    const servers = await startOAuthServers();
    const thief = await startRecordingServer();
    servers.authorizationServers = [thief.url];
    // The thief's token is refused by the resource: what matters is that it was asked.
    await client()
      .connect("p", { url: servers.resourceUrl, auth: codeFlow(memoryStore()) })
      .catch(() => {});
    expect(thief.received.length).toBeGreaterThan(0);
  });
});

describe("only a flow needs https: a plain-http server off loopback", () => {
  it("that asks for nothing is reached with auth set, as it is", async () => {
    const plain = await officialHttp("legacy");
    try {
      // The server is known by a LAN name; the host's fetch reaches it on loopback.
      const lan = "http://mcp.lan.example:3001";
      const origin = new URL(plain.url).origin;
      const seen: string[] = [];
      const server = await client().connect("p", {
        url: `${lan}/mcp`,
        fetch: (input, init) => {
          const url = input instanceof Request ? input.url : String(input);
          seen.push(url);
          return fetch(url.replace(lan, origin), init);
        },
        auth: codeFlow(memoryStore()),
      });
      expect((await server.callTool("echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((url) => url.startsWith(`${lan}/mcp`))).toBe(true);
    } finally {
      await plain.close();
    }
  });

  it("that asks for OAuth is refused before anything is fetched for it, and nobody is asked", async () => {
    const servers = await startOAuthServers({ names: { resource: "http://mcp.lan.example", authorizationServer: "https://as.example.test" } });
    const authorized: URL[] = [];
    const seen: string[] = [];
    const error = await failure(client().connect("p", publicTarget(servers, codeFlow(memoryStore(), authorized, REDIRECT, servers.fetch), seen)));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("an MCP server that asks for OAuth must be an https URL (or on loopback)");
    expect(seen.filter((url) => !url.startsWith("http://mcp.lan.example/mcp"))).toEqual([]);
    expect(authorized).toEqual([]);
    expect(servers.authorizations).toHaveLength(0);
  });
});

describe("PKCE is verified in the authorization server's metadata", () => {
  for (const [said, methods] of [
    ["lists no code_challenge_methods_supported", undefined],
    ["lists only plain", ["plain"]],
    ["lists none", []],
  ] as const) {
    it(`refuses a server that ${said}, before registering or sending the person anywhere`, async () => {
      const servers = await startOAuthServers();
      servers.metadata = { code_challenge_methods_supported: methods };
      const authorized: URL[] = [];
      const error = await failure(client().connect("p", { url: servers.resourceUrl, auth: codeFlow(memoryStore(), authorized) }));
      expect(error.kind).toBe("auth");
      expect(error.message).toContain("at discovery");
      expect(error.message).toContain("code_challenge_methods_supported");
      expect(servers.registrations).toEqual([]);
      expect(authorized).toEqual([]);
    });
  }

  it("takes a 2025-03-26 server without any metadata, at its default endpoints", async () => {
    const servers = await startOAuthServers({ legacy: true });
    const authorized: URL[] = [];
    const server = await client().connect("p", { url: servers.resourceUrl, auth: codeFlow(memoryStore(), authorized) });
    expect((await server.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect(authorized[0]?.searchParams.get("code_challenge_method")).toBe("S256");
  });
});

describe("a registration belongs to its redirect URI", () => {
  it("a host whose loopback port changed registers again for the new redirect URI", async () => {
    const servers = await startOAuthServers();
    const store = memoryStore();
    const host = client();
    await host.connect("p", { url: servers.resourceUrl, auth: codeFlow(store) });
    await host.close();
    // Nothing of the first token is of use any more: the person is asked again, sent back to the new port.
    servers.revokeAll();
    servers.revokeRefreshTokens();
    const moved = "http://127.0.0.1:7778/callback";
    const again = await client().connect("p", { url: servers.resourceUrl, auth: codeFlow(store, [], moved) });
    expect((await again.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-2" }]);
    expect(servers.registrations.map((r) => r.redirect_uris)).toEqual([[REDIRECT], [moved]]);
    expect(servers.authorizations.map((a) => [a.get("client_id"), a.get("redirect_uri")])).toEqual([
      ["client-1", REDIRECT],
      ["client-2", moved],
    ]);
  });

  it("a refresh after the port changed uses the client the token was got with, and registers nothing", async () => {
    const servers = await startOAuthServers();
    const store = memoryStore();
    const authorized: URL[] = [];
    const host = client();
    await host.connect("p", { url: servers.resourceUrl, auth: codeFlow(store, authorized) });
    await host.close();
    servers.revokeAll();
    const again = await client().connect("p", { url: servers.resourceUrl, auth: codeFlow(store, authorized, "http://127.0.0.1:7778/callback") });
    expect((await again.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-2" }]);
    expect(servers.grants).toEqual(["authorization_code", "refresh_token"]);
    expect(servers.registrations).toHaveLength(1);
    expect(authorized).toHaveLength(1);
  });
});

describe("a refresh that fails for a moment keeps the refresh token", () => {
  for (const mode of ["refresh-503", "refresh-reset"] as const) {
    it(`${mode === "refresh-503" ? "a 503" : "a cut connection"}: the request fails with the reason, the person is not asked, and the next request refreshes`, async () => {
      const servers = await startOAuthServers();
      const authorized: URL[] = [];
      const server = await client().connect("p", { url: servers.resourceUrl, auth: codeFlow(memoryStore(), authorized) });
      await handshakeDone(servers);
      servers.revokeAll();
      servers.mode = mode;
      const error = await failure(server.callTool("whoami", {}));
      expect(error.kind).toBe("auth");
      expect(error.message).toContain("at refresh");
      if (mode === "refresh-503") expect(error.message).toContain("503");
      expect(authorized).toHaveLength(1);

      servers.mode = "normal";
      // The kept refresh token still works (the server takes only live ones): no new code, no person.
      const [content] = (await server.callTool("whoami", {})).content as Array<{ text: string }>;
      expect(content?.text).toMatch(/^tok-[2-9]$/);
      expect(servers.grants.filter((grant) => grant === "authorization_code")).toHaveLength(1);
      expect(servers.grants.filter((grant) => grant === "refresh_token").length).toBeGreaterThanOrEqual(2);
      expect(authorized).toHaveLength(1);
      for (const secret of ["ref-1", "tok-1", ...servers.secrets]) expect(inspect(error, { depth: 20 })).not.toContain(secret);
    });
  }

  it("a refresh refused with invalid_grant forgets the refresh token and asks the person again", async () => {
    const servers = await startOAuthServers();
    const authorized: URL[] = [];
    const server = await client().connect("p", { url: servers.resourceUrl, auth: codeFlow(memoryStore(), authorized) });
    await handshakeDone(servers);
    servers.revokeAll();
    servers.revokeRefreshTokens();
    expect((await server.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-2" }]);
    expect(servers.grants).toEqual(["authorization_code", "refresh_token", "authorization_code"]);
    expect(authorized).toHaveLength(2);
  });
});

/** A store that fails, with a message that quotes what it was given, for the keys that match `failing`. */
function failingStore(failing: (key: string, doing: "get" | "set") => boolean): AuthStore {
  const inner = memoryStore();
  return {
    get: (key) => (failing(key, "get") ? Promise.reject(new Error(`STORE-RAW-TEXT get ${key}`)) : inner.get(key)),
    set: (key, value) => (failing(key, "set") ? Promise.reject(new Error(`STORE-RAW-TEXT set ${key}=${value}`)) : inner.set(key, value)),
    delete: (key) => inner.delete(key),
  };
}

describe("a store's failure is an auth error naming the step", () => {
  for (const [step, failing] of [
    ["registration", (key: string) => key.includes("registration")],
    ["token", (key: string, doing: "get" | "set") => key.includes("tokens") && doing === "set"],
    ["token", (key: string, doing: "get" | "set") => key.includes("tokens") && doing === "get"],
  ] as const) {
    it(`at ${step} (${failing.toString().includes('"set"') ? "writing" : "reading"}), without the store's text`, async () => {
      const servers = await startOAuthServers();
      const error = await failure(client().connect("p", { url: servers.resourceUrl, auth: codeFlow(failingStore(failing)) }));
      expect(error.kind).toBe("auth");
      expect(error.message).toContain(`at ${step}`);
      const shown = inspect(error, { depth: 20 });
      expect(shown).not.toContain("STORE-RAW-TEXT");
      expect(shown).not.toContain("tok-1");
    });
  }
});

describe("a namespace keeps one person's authorization from another's in a shared store", () => {
  it("two people on one store each authorize, each get their own token, and their keys are apart", async () => {
    const servers = await startOAuthServers();
    const shared = memoryStore();
    const keys: Record<string, string[]> = { ada: [], bob: [] };
    const recording = (who: string): AuthStore => ({
      get: (key) => shared.get(key),
      set: (key, value) => {
        keys[who]!.push(key);
        return shared.set(key, value);
      },
      delete: (key) => shared.delete(key),
    });
    const authorized: URL[] = [];
    const ada = await client().connect("p", { url: servers.resourceUrl, auth: { ...codeFlow(recording("ada"), authorized), namespace: "ada" } });
    const bob = await client().connect("p", { url: servers.resourceUrl, auth: { ...codeFlow(recording("bob"), authorized), namespace: "bob" } });
    expect((await ada.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect((await bob.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-2" }]);
    expect(authorized).toHaveLength(2);
    expect(keys.ada!.length).toBeGreaterThan(0);
    expect(keys.bob!.filter((key) => keys.ada!.includes(key))).toEqual([]);

    // Ada again, in another process: her own token, without asking her.
    const adaAgain = await client().connect("p", { url: servers.resourceUrl, auth: { ...codeFlow(shared, authorized), namespace: "ada" } });
    expect((await adaAgain.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect(authorized).toHaveLength(2);
  });

  it("refuses a namespace that is not a non-empty string", async () => {
    for (const namespace of ["", 7]) {
      await expect(client().connect("p", { url: "http://127.0.0.1:1/mcp", auth: { ...codeFlow(memoryStore()), namespace: namespace as string } })).rejects.toThrow(TypeError);
    }
  });
});
