// OAuth's tokens in a real Redis that stops mid-run (issue 24): a host that authorized keeps its
// registration and token in `redisStore`; with Redis killed, a fresh worker's connect fails
// within the store's bound with kind "auth" naming the step and that the store could not be
// read (never the URL or password of Redis); after Redis restarts, a third worker connects with
// the token written before, without asking the person again or registering again.
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ClientError, type AuthOptions, type Store } from "../../src/node.js";
import { redisStore } from "../../src/stores/redis.js";
import { capturingLogger } from "../helpers/logger.js";
import { approve, startOAuthServers } from "../helpers/oauth-server.js";
import { track } from "../helpers/cleanup.js";
import { startRedis, type RedisServer } from "../helpers/redis-server.js";
import { needs } from "../helpers/system-tools.js";

const REDIRECT = "http://127.0.0.1:7777/callback";

describe("OAuth with its store in Redis, and Redis stopped", needs("redis-server"), () => {
  let redis: RedisServer;
  let node: ReturnType<typeof createClient>;
  let store: Store;

  beforeAll(async () => {
    redis = await startRedis();
    node = createClient({ url: redis.url, socket: { reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 300) } });
    node.on("error", () => {});
    await node.connect();
    store = redisStore(node, { prefix: `conduit-auth:${crypto.randomUUID()}:`, timeoutMs: 1_000 });
  });
  afterAll(async () => {
    node?.destroy();
    await redis?.dispose();
  });

  it("fails the connect with \"auth\" naming the step while Redis is down, and keeps the token for after", async () => {
    const servers = await startOAuthServers();
    const authorized: URL[] = [];
    const auth: AuthOptions = { redirectUri: REDIRECT, store, authorize: (url) => (authorized.push(url), approve(url)) };
    const worker = (): Client => track(new Client({ name: "worker", version: "1", logger: capturingLogger(), requestTimeout: 5_000 }));

    const first = await worker().connect("p", { url: servers.resourceUrl, auth });
    expect((await first.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect(authorized).toHaveLength(1);

    await redis.stop();
    const failed = await worker().connect("p", { url: servers.resourceUrl, auth }, { connectTimeout: 10_000 }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ClientError);
    expect((failed as ClientError).kind).toBe("auth");
    expect((failed as ClientError).message).toMatch(/authorization failed at [a-z ]+: the store could not be read/);
    expect((failed as ClientError).message).not.toContain(redis.password);
    expect((failed as ClientError).message).not.toContain(String(redis.port));
    // Nothing was asked of the person, nothing registered again.
    expect(authorized).toHaveLength(1);

    await redis.start();
    const third = await worker().connect("p", { url: servers.resourceUrl, auth });
    expect((await third.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect(authorized).toHaveLength(1);
    expect(servers.registrations).toHaveLength(1);
  });
});
