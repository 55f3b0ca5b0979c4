/**
 * `conduit-mcp/redis`: the `Store` on a Redis client the host already has. An entry of its own,
 * so that a host without Redis loads none of it.
 */
export { redisStore, REDIS_STORE_TIMEOUT_MS, type IoRedisClientLike, type NodeRedisClientLike, type RedisClientLike, type RedisStoreOptions } from "./redis-store.js";
export type { Store, StoreSetOptions } from "./store.js";
