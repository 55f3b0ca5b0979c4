// OAuth against a local protected server and authorization server (test/helpers/oauth-server.ts),
// for what the conformance suite does not cover: the store shared by two clients, refresh on a
// 401 and before expiry, a token endpoint that answers garbage or hangs, no secret in errors,
// the loopback listener's state check, and no token to another origin.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect, promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { Client, ClientError, fileStore, loopbackRedirect, memoryStore, type AuthOptions, type AuthStore } from "../../src/node.js";
import { capturingLogger } from "../helpers/logger.js";
import { approve, handshakeDone, startOAuthServers } from "../helpers/oauth-server.js";
import { track } from "../helpers/cleanup.js";
import { needs } from "../helpers/system-tools.js";

const REDIRECT = "http://127.0.0.1:7777/callback";

function client(): Client {
  return track(new Client({ name: "host", version: "1", logger: capturingLogger(), requestTimeout: 5_000 }));
}

function auth(store: AuthStore, authorized: URL[]): AuthOptions {
  return {
    redirectUri: REDIRECT,
    store,
    authorize: (url) => {
      authorized.push(url);
      return approve(url);
    },
  };
}

describe("a protected server", () => {
  it("is reached through discovery, registration and the code flow with PKCE; a second client with the same store reuses the token", async () => {
    const servers = await startOAuthServers();
    const store = memoryStore();
    const authorized: URL[] = [];
    const first = await client().connect("p", { url: servers.resourceUrl, auth: auth(store, authorized) });
    expect((await first.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect(authorized).toHaveLength(1);
    const asked = authorized[0]!.searchParams;
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("resource")).toBe(servers.resourceUrl);
    expect(servers.registrations).toEqual([expect.objectContaining({ redirect_uris: [REDIRECT], application_type: "native" })]);

    const second = await client().connect("p", { url: servers.resourceUrl, auth: auth(store, authorized) });
    expect((await second.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect(authorized).toHaveLength(1);
    expect(servers.registrations).toHaveLength(1);
  });

  it("authorizes the HTTP+SSE transport's stream and its POSTs the same way", async () => {
    const servers = await startOAuthServers();
    const server = await client().connect("old", { url: servers.sseUrl, transport: "sse", auth: auth(memoryStore(), []) });
    expect(server.protocolVersion).toBe("2024-11-05");
    expect((await server.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
  });

  it("puts no token, code, verifier or secret in what it logs", async () => {
    const servers = await startOAuthServers();
    const logger = capturingLogger();
    const host = track(new Client({ name: "host", version: "1", logger }));
    const server = await host.connect("p", { url: servers.resourceUrl, auth: { ...auth(memoryStore(), []), clientId: "pre", clientSecret: "s3cret-value" } });
    await handshakeDone(servers);
    servers.revokeAll();
    await server.callTool("whoami", {});
    const logged = inspect(logger.entries, { depth: 20 });
    expect(servers.secrets.length).toBeGreaterThanOrEqual(2);
    for (const secret of ["tok-1", "tok-2", "ref-1", "s3cret-value", ...servers.secrets]) expect(logged).not.toContain(secret);
  });

  it("puts no token in an error, its causes included, when the token answer is refused", async () => {
    const servers = await startOAuthServers();
    servers.mode = "bad-token-type";
    const error = await client().connect("p", { url: servers.resourceUrl, auth: auth(memoryStore(), []) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "auth" });
    const shown = inspect(error, { depth: 20 });
    expect(shown).not.toContain("SECRET-ACCESS-TOKEN");
    expect(shown).not.toContain("SECRET-REFRESH-TOKEN");
    for (const secret of servers.secrets) expect(shown).not.toContain(secret);
  });

  it("gives up a request the server refuses whatever the token, after a few rounds", async () => {
    const servers = await startOAuthServers();
    servers.mode = "always-401";
    const error = await client().connect("p", { url: servers.resourceUrl, auth: auth(memoryStore(), []) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(servers.refusals).toBeLessThanOrEqual(10);
    expect(servers.grants.length).toBeLessThanOrEqual(8);
  });

  it("sends nothing to an authorization server other than the one its credentials are for", async () => {
    const servers = await startOAuthServers();
    const error = await client()
      .connect("p", { url: servers.resourceUrl, auth: { ...auth(memoryStore(), []), clientId: "pre", clientSecret: "s3cret-value", issuer: "https://as.example.com" } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "auth" });
    expect((error as Error).message).toContain("not the one this client's credentials are for");
    expect(servers.grants).toEqual([]);
    expect(servers.authorizations).toEqual([]);
  });

  it("ends a flow whose person never answers at auth.authorizeTimeout: the connect fails with \"auth\", and authorize's signal aborts", async () => {
    const servers = await startOAuthServers();
    let signal: AbortSignal | undefined;
    const error = await client()
      .connect("p", {
        url: servers.resourceUrl,
        auth: {
          redirectUri: REDIRECT,
          store: memoryStore(),
          authorizeTimeout: 300,
          authorize: (_url, context) => {
            signal = context.signal;
            return new Promise(() => {});
          },
        },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "auth", message: expect.stringContaining("did not finish authorizing within 300 ms") as string });
    expect(signal?.aborted).toBe(true);
  });

  it("gives the person's consent the time it takes: neither connectTimeout nor the handshake's request timeout counts it", async () => {
    const servers = await startOAuthServers();
    const host = track(new Client({ name: "host", version: "1", logger: capturingLogger(), requestTimeout: 1_000 }));
    const server = await host.connect(
      "p",
      {
        url: servers.resourceUrl,
        auth: {
          redirectUri: REDIRECT,
          store: memoryStore(),
          // The person answers after both bounds would have passed: three times the connect's.
          authorize: async (url) => {
            await new Promise((resolve) => setTimeout(resolve, 3_000));
            return approve(url);
          },
        },
      },
      { connectTimeout: 1_000 },
    );
    expect((await server.listTools()).length).toBeGreaterThan(0);
  });

  it("refreshes on a 401 to its token, without asking the person again", async () => {
    const servers = await startOAuthServers();
    const authorized: URL[] = [];
    const server = await client().connect("p", { url: servers.resourceUrl, auth: auth(memoryStore(), authorized) });
    await handshakeDone(servers);
    servers.revokeAll();
    expect((await server.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-2" }]);
    expect(servers.grants).toEqual(["authorization_code", "refresh_token"]);
    expect(authorized).toHaveLength(1);
  });

  it("refreshes a token that is about to expire before using it", async () => {
    const servers = await startOAuthServers();
    // A lifetime of 0 s: due for a refresh at once (half its lifetime is then 0 too).
    servers.expiresIn = 0;
    const server = await client().connect("p", { url: servers.resourceUrl, auth: auth(memoryStore(), []) });
    servers.expiresIn = 3600;
    const before = servers.grants.length;
    await server.callTool("whoami", {});
    expect(servers.grants.length).toBeGreaterThan(before);
    expect(servers.grants.slice(1).every((g) => g === "refresh_token")).toBe(true);
    // Only the first request of all was refused: every refresh came before its request.
    expect(servers.refusals).toBe(1);
  });

  it("fails with kind auth naming the step when the token endpoint answers garbage, with no secret in the message", async () => {
    const servers = await startOAuthServers();
    servers.mode = "garbage";
    const error = await client()
      .connect("p", { url: servers.resourceUrl, auth: { ...auth(memoryStore(), []), clientId: "pre", clientSecret: "s3cret-value" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ kind: "auth" });
    expect((error as Error).message).toContain("at token");
    expect((error as Error).message).not.toContain("s3cret-value");
  });

  it("fails with kind auth at registration when the server refuses to register the client", async () => {
    const servers = await startOAuthServers();
    servers.mode = "no-registration";
    const error = await client().connect("p", { url: servers.resourceUrl, auth: auth(memoryStore(), []) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "auth" });
    expect((error as Error).message).toContain("at registration");
    expect((error as Error).message).toContain("registration is closed");
  });

  // A plain-http server off loopback: refused when it asks for OAuth, reached as it is when it
  // asks for nothing (auth-trust.test.ts, "only a flow needs https").

  it("ends at the connect's timeout when the token endpoint never answers", async () => {
    const servers = await startOAuthServers();
    servers.mode = "hang";
    const error = await client()
      .connect("p", { url: servers.resourceUrl, auth: auth(memoryStore(), []) }, { connectTimeout: 500 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout" });
  });

  it("sends its token to no other origin: a redirect there, once authorized, is not followed", async () => {
    const servers = await startOAuthServers();
    const elsewhere: Array<string | undefined> = [];
    const other = http.createServer((req, res) => {
      elsewhere.push(req.headers.authorization);
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const server = await client().connect("p", { url: servers.resourceUrl, auth: auth(memoryStore(), []) });
      servers.redirectTo = `http://127.0.0.1:${(other.address() as { port: number }).port}/mcp`;
      await expect(server.callTool("whoami", {})).rejects.toMatchObject({ kind: "transport" });
      expect(elsewhere).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe("stores", () => {
  it("the file store keeps registrations and tokens readable by its owner alone, across clients", async () => {
    const servers = await startOAuthServers();
    const dir = await mkdtemp(join(tmpdir(), "conduit-store-"));
    const path = join(dir, "auth", "store.json");
    const authorized: URL[] = [];
    await client().connect("p", { url: servers.resourceUrl, auth: auth(fileStore(path), authorized) });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "auth"))).mode & 0o777).toBe(0o700);
    expect(await readFile(path, "utf8")).toContain("conduit:tokens:");
    const again = await client().connect("p", { url: servers.resourceUrl, auth: auth(fileStore(path), authorized) });
    expect((await again.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect(authorized).toHaveLength(1);
  });

  it("two host processes share one Redis store: the second is not asked to authorize", needs("redis-server"), async () => {
    const servers = await startOAuthServers();
    const port = await freePort();
    const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    // A spawn that fails is this test's failure, not an unhandled error of the run.
    const spawnFailed = new Promise<never>((_, reject) => redis.once("error", reject));
    try {
      await Promise.race([waitForPort(port), spawnFailed]);
      const run = promisify(execFile);
      const host = fileURLToPath(new URL("../fixtures/auth-host.mjs", import.meta.url));
      const first = JSON.parse((await run(process.execPath, [host, servers.resourceUrl, `redis://127.0.0.1:${port}`], { timeout: 20_000 })).stdout) as { text: string; authorized: number };
      const second = JSON.parse((await run(process.execPath, [host, servers.resourceUrl, `redis://127.0.0.1:${port}`], { timeout: 20_000 })).stdout) as { text: string; authorized: number };
      expect(first).toEqual({ text: "tok-1", authorized: 1 });
      expect(second).toEqual({ text: "tok-1", authorized: 0 });
      expect(servers.registrations).toHaveLength(1);
    } finally {
      redis.kill("SIGKILL");
    }
  });

  it("a gateway's people on one Redis store, each under a namespace, are never given each other's token", needs("redis-server"), async () => {
    const servers = await startOAuthServers();
    const port = await freePort();
    const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    const spawnFailed = new Promise<never>((_, reject) => redis.once("error", reject));
    try {
      await Promise.race([waitForPort(port), spawnFailed]);
      const run = promisify(execFile);
      const host = fileURLToPath(new URL("../fixtures/auth-host.mjs", import.meta.url));
      const as = async (person: string): Promise<{ text: string; authorized: number }> =>
        JSON.parse((await run(process.execPath, [host, servers.resourceUrl, `redis://127.0.0.1:${port}`, person], { timeout: 20_000 })).stdout) as { text: string; authorized: number };
      expect(await as("ada")).toEqual({ text: "tok-1", authorized: 1 });
      expect(await as("bob")).toEqual({ text: "tok-2", authorized: 1 });
      expect(await as("ada")).toEqual({ text: "tok-1", authorized: 0 });
    } finally {
      redis.kill("SIGKILL");
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not listen on ${port}`);
}

describe("the loopback redirect listener", () => {
  it("takes only the redirect with the state it waits for", async () => {
    const loopback = await loopbackRedirect();
    try {
      const authorization = new URL("https://as.example/authorize?state=the-state");
      let shown: URL | undefined;
      const back = loopback.authorize((url) => {
        shown = url;
      })(authorization, { signal: new AbortController().signal });
      const wrong = await fetch(`${loopback.redirectUri}?code=x&state=other`);
      expect(wrong.status).toBe(400);
      const right = await fetch(`${loopback.redirectUri}?code=abc&state=the-state`);
      expect(right.status).toBe(200);
      const returned = new URL(await back);
      expect(returned.searchParams.get("code")).toBe("abc");
      expect(shown?.href).toBe(authorization.href);
      expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    } finally {
      await loopback.close();
    }
  });
});

describe("the loopback redirect listener, when the host cannot show the URL", () => {
  it("fails that authorization at once and leaves no timer, no waiting entry and no unhandled rejection", async () => {
    const loopback = await loopbackRedirect();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      vi.useFakeTimers();
      const authorization = new URL("https://as.example/authorize?state=shown-to-no-one");
      const error = await loopback
        .authorize(() => {
          throw new Error("no display");
        })(authorization, { signal: new AbortController().signal })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: "auth" });
      expect((error as Error).message).toContain("at authorization");
      expect((error as Error).message).toContain("no display");
      expect(vi.getTimerCount()).toBe(0);
      // The listener's whole wait passes: nothing was left to fire.
      await vi.advanceTimersByTimeAsync(600_000);
      vi.useRealTimers();
      // A redirect with that state now is no authorization anyone waits for.
      expect((await fetch(`${loopback.redirectUri}?code=x&state=shown-to-no-one`)).status).toBe(400);
      // A rejection left unhandled is reported after a turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await loopback.close();
    }
  });

  it("fails at once when the connection already ended", async () => {
    const loopback = await loopbackRedirect();
    try {
      const ended = new AbortController();
      ended.abort();
      let shown = false;
      const error = await loopback
        .authorize(() => {
          shown = true;
        })(new URL("https://as.example/authorize?state=s"), { signal: ended.signal })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: "auth" });
      expect(shown).toBe(false);
    } finally {
      await loopback.close();
    }
  });
});
