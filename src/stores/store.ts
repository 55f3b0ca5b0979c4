/**
 * The one store interface of Conduit: what OAuth keeps (registrations, tokens), what waits for a
 * person across processes (pending inputs and their claims), task handles a host keeps, the era
 * learned per target and, when asked, the catalog's lists. Strings in and out, every method
 * async, so that a host on several machines can put one behind Redis or a database.
 *
 * `setIfAbsent` is the one atomic step: it is how two workers that hold the same pending input
 * agree which of them sends it. A store that cannot make it atomic across the processes that
 * share it must not claim to be shared.
 */
export interface StoreSetOptions {
  /** Forget the value this many milliseconds after it is written (a positive integer); kept until deleted when absent. */
  ttlMs?: number | undefined;
}

export interface Store {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, options?: StoreSetOptions): Promise<void>;
  delete(key: string): Promise<void>;
  /** Writes `value` only when `key` holds nothing (or only something expired); true when it wrote. */
  setIfAbsent(key: string, value: string, options?: StoreSetOptions): Promise<boolean>;
}
