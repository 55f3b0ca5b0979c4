/**
 * Where a DPoP key pair can be kept beyond one page or process: a store that holds CryptoKeys as
 * they are (IndexedDB, `indexedDbStore`), so that the private key stays non-extractable and a
 * token bound to it stays usable after a reload. A store of strings alone (memory, a file,
 * Web Storage, Redis) cannot hold such a key; with one, the key lives in memory and the token
 * bound to it is not kept. A token kept beside a kept key carries the key's thumbprint (`jkt`),
 * and is used only by an authorizer holding that very key.
 */
import type { KeyPairStore } from "../stores/indexeddb-store.js";
import { authError, kindOf } from "./auth-error.js";
import { DpopKey } from "./dpop.js";

export type { KeyPairStore };

/** Whether the host's store can keep key pairs too. */
export function keepsKeyPairs(store: object): store is KeyPairStore {
  const methods = store as Partial<Record<keyof KeyPairStore, unknown>>;
  return typeof methods.getKeyPair === "function" && typeof methods.setKeyPair === "function";
}

/** The key pair kept under `key`, or a new one, kept there first. */
export async function keptDpopKey(store: KeyPairStore, key: string): Promise<DpopKey> {
  const kept = await keptPair(store, key);
  if (kept !== undefined) return kept;
  const made = await DpopKey.create();
  try {
    await store.setKeyPair(key, made.pair);
  } catch (error) {
    throw authError("token", `the DPoP key could not be kept in the store (${kindOf(error)})`);
  }
  return made;
}

/** The key pair kept under `key`, or undefined when there is none (nothing is made). */
export async function keptPair(store: KeyPairStore, key: string): Promise<DpopKey | undefined> {
  let pair: CryptoKeyPair | undefined;
  try {
    pair = await store.getKeyPair(key);
  } catch (error) {
    throw authError("token", `the store's DPoP key could not be read (${kindOf(error)})`);
  }
  return pair === undefined ? undefined : DpopKey.from(pair);
}
