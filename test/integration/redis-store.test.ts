// The Redis store on a real redis-server (loopback, a password, an append-only file), through
// both client libraries a host may have: the Store contract on each (two clients of one Redis
// per store), a race between a node-redis and an ioredis client, keys under the prefix only,
// and a Redis killed mid-run: every step fails with a "store" error naming it, quoting no
// password, value or prefix, and nothing hangs (the per-test timeout is the guard); after a
// restart, what was written before is there.
import { inspect } from "node:util";
import { Redis } from "ioredis";
import { createClient, createCluster } from "redis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { redisStore, type RedisClientLike } from "../../src/stores/redis.js";
import type { Store } from "../../src/stores/store.js";
import { ClientError, InvalidArgumentError } from "../../src/util/errors.js";
import { startRedis, type RedisServer } from "../helpers/redis-server.js";
import { storeConformance } from "../helpers/store-conformance.js";
import { needs } from "../helpers/system-tools.js";

type Library = "node-redis" | "ioredis";

interface Connected {
  client: RedisClientLike;
  /** A raw GET, past the store. */
  rawGet(key: string): Promise<string | null>;
  close(): Promise<void>;
}

// Reconnecting quickly keeps the restart short; the store's bound must hold whatever the client does.
async function connect(library: Library, url: string): Promise<Connected> {
  if (library === "node-redis") {
    const client = createClient({ url, socket: { reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 300) } });
    // A client without an error listener would take the test process down when Redis stops.
    client.on("error", () => {});
    await client.connect();
    return { client, rawGet: (key) => client.get(key), close: () => Promise.resolve(client.destroy()) };
  }
  const client = new Redis(url, { retryStrategy: (times: number) => Math.min(50 * times, 300) });
  client.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    client.once("ready", resolve);
    client.once("end", () => reject(new Error("ioredis ended before it was ready")));
  });
  return { client, rawGet: (key) => client.get(key), close: () => Promise.resolve(client.disconnect()) };
}

const LIBRARIES: Library[] = ["node-redis", "ioredis"];
let prefixes = 0;
const freshPrefix = (): string => `conduit-test:${++prefixes}:${crypto.randomUUID()}:`;

describe("redisStore on a real Redis", needs("redis-server"), () => {
  let redis: RedisServer;
  const clients = new Map<Library, Connected[]>();

  beforeAll(async () => {
    redis = await startRedis();
    for (const library of LIBRARIES) clients.set(library, await Promise.all([connect(library, redis.url), connect(library, redis.url)]));
  });

  afterAll(async () => {
    for (const list of clients.values()) for (const connected of list) await connected.close();
    await redis?.dispose();
  });

  for (const library of LIBRARIES) {
    storeConformance(`redisStore on ${library}`, {
      make: () => {
        const [one, two] = clients.get(library)!;
        const prefix = freshPrefix();
        return Promise.resolve({ store: redisStore(one!.client, { prefix }), twin: redisStore(two!.client, { prefix }) });
      },
      elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      shortTtlMs: 50,
    });
  }

  it("a node-redis and an ioredis client racing setIfAbsent on one key: exactly one wins", async () => {
    const prefix = freshPrefix();
    const stores = LIBRARIES.map((library) => redisStore(clients.get(library)![0]!.client, { prefix }));
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 2]!.setIfAbsent("claim", `caller-${i}`, { ttlMs: 60_000 })));
    const winners = results.flatMap((won, i) => (won ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(await stores[(winners[0]! + 1) % 2]!.get("claim")).toBe(`caller-${winners[0]}`);
  });

  it("writes every key under its prefix, and one prefix never reads another's", async () => {
    const [ada, bob] = [freshPrefix(), freshPrefix()];
    const connected = clients.get("node-redis")![0]!;
    await redisStore(connected.client, { prefix: ada }).set("conduit:tokens:x", "ada's");
    expect(await connected.rawGet(`${ada}conduit:tokens:x`)).toBe("ada's");
    expect(await connected.rawGet("conduit:tokens:x")).toBeNull();
    expect(await redisStore(clients.get("ioredis")![0]!.client, { prefix: bob }).get("conduit:tokens:x")).toBeUndefined();
  });

  it("refuses a missing or empty prefix, a bad timeout, unknown options, and what is no client", () => {
    const { client } = clients.get("ioredis")![0]!;
    expect(() => redisStore(client, { prefix: "" })).toThrow(InvalidArgumentError);
    expect(() => redisStore(client, {} as { prefix: string })).toThrow(/prefix/);
    for (const timeoutMs of [0, -5, 1.5, Number.NaN, 2 ** 31]) expect(() => redisStore(client, { prefix: "p:", timeoutMs })).toThrow(/timeoutMs/);
    expect(() => redisStore(client, { prefix: "p:", ttl: 5 } as { prefix: string })).toThrow(InvalidArgumentError);
    expect(() => redisStore({} as RedisClientLike, { prefix: "p:" })).toThrow(/node-redis .*ioredis/);
    // A node-redis cluster has another sendCommand: refused by name rather than misused.
    const cluster = createCluster({ rootNodes: [{ url: redis.url }] });
    expect(() => redisStore(cluster as unknown as RedisClientLike, { prefix: "p:" })).toThrow(/cluster/);
  });
});

describe("redisStore when Redis stops mid-run", needs("redis-server"), () => {
  it("fails every step of both clients with a store error naming it, quoting no secret; after a restart, what was written is there", { timeout: 60_000 }, async () => {
    const redis = await startRedis();
    const connected = await Promise.all(LIBRARIES.map((library) => connect(library, redis.url)));
    try {
      const prefix = freshPrefix();
      const TOKEN = `secret-token-${crypto.randomUUID()}`;
      const stores = connected.map(({ client }) => redisStore(client, { prefix, timeoutMs: 500 }));
      await stores[0]!.set("kept-untimed", TOKEN);
      await stores[1]!.set("kept-timed", TOKEN, { ttlMs: 3_600_000 });
      expect(await stores[1]!.setIfAbsent("kept-claim", TOKEN)).toBe(true);

      await redis.stop();
      const steps: [string, (store: Store) => Promise<unknown>][] = [
        ["get", (store) => store.get("kept-untimed")],
        ["set", (store) => store.set("during-set", TOKEN, { ttlMs: 60_000 })],
        ["delete", (store) => store.delete("during-delete")],
        ["setIfAbsent", (store) => store.setIfAbsent("during-claim", TOKEN, { ttlMs: 60_000 })],
      ];
      const outcomes = await Promise.all(stores.flatMap((store, s) => steps.map(async ([step, run]) => ({ library: LIBRARIES[s], step, failure: await run(store).then(() => undefined, (error: unknown) => error) }))));
      for (const { library, step, failure } of outcomes) {
        const what = `${library} ${step}`;
        expect(failure, what).toBeInstanceOf(ClientError);
        expect((failure as ClientError).kind, what).toBe("store");
        expect((failure as ClientError).message, what).toContain(`: ${step} failed: `);
        const printed = inspect(failure, { depth: 20 });
        for (const secret of [redis.password, TOKEN, prefix, redis.url]) expect(printed, what).not.toContain(secret);
      }

      await redis.start();
      // The clients reconnect on their own; what was written before the kill is read back.
      for (const store of stores) {
        await vi.waitFor(async () => expect(await store.get("kept-untimed")).toBe(TOKEN), { timeout: 20_000, interval: 100 });
        expect(await store.get("kept-timed")).toBe(TOKEN);
        expect(await store.get("kept-claim")).toBe(TOKEN);
        expect(await store.setIfAbsent("kept-claim", "again")).toBe(false);
      }
    } finally {
      for (const each of connected) await each.close();
      await redis.dispose();
    }
  });
});
