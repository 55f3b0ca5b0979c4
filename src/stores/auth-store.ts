/**
 * The store OAuth keeps what it learns in: registrations, tokens, and which authorization
 * server a host's credentials were first used with. Three async methods on strings, so that a
 * host's own store of before the `Store` interface keeps working; every `Store` is one.
 */
export interface AuthStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
