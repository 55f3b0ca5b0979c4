/**
 * The store OAuth keeps what it learns in: registrations, tokens, and which authorization
 * server a host's credentials were first used with. A few async methods on strings, so that a
 * host on several machines can share one (Redis, a database); values are JSON text.
 */
export interface AuthStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
