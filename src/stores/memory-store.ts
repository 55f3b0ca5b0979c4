import type { AuthStore } from "./auth-store.js";

/** A store in this process's memory: the default, one per server's authorizer. */
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
