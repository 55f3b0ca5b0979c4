/**
 * A `Store` on IndexedDB, for a host in a browser (a page, a worker, an extension): one
 * object store in one database of the origin, created when missing. Beside the strings of the
 * `AuthStore`, it keeps CryptoKey pairs as they are (IndexedDB clones a CryptoKey with its
 * `extractable: false`), which is how a DPoP key survives a reload without its private half ever
 * leaving WebCrypto (`src/auth/dpop-keys.ts`).
 *
 * The database is opened with the first call and kept open; another tab that upgrades it makes
 * this connection close (`versionchange`) and the next call open it again. Each call is one
 * transaction, settled when it completes or aborts: a failure rejects with the browser's
 * DOMException (`QuotaExceededError`, `InvalidStateError`, `UnknownError`), never throws.
 *
 * `setIfAbsent` looks and writes in one readwrite transaction. IndexedDB runs readwrite
 * transactions on one object store one after the other, for every tab and worker of the origin,
 * so the claim is atomic across them (not across browsers or profiles, which share nothing). A
 * value with a TTL is kept as `{ value, expiresAt }` (wall-clock milliseconds: the database
 * outlives the page), one without as the plain string it was before TTLs; an expired value reads
 * as absent and is overwritten by the next write.
 */
import type { CryptoKeyPair } from "oauth4webapi";
import { knownKeys } from "../util/arguments.js";
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { ttlOf } from "./memory-store.js";
import type { Store, StoreSetOptions } from "./store.js";

export interface IndexedDbStoreOptions {
  /** Default `conduit-mcp`. */
  database?: string | undefined;
  /** Default `auth`. */
  objectStore?: string | undefined;
}

/**
 * A store that also keeps CryptoKey pairs as they are, so that a DPoP private key stays
 * non-extractable and survives a reload (only IndexedDB can: the others keep strings).
 */
export interface KeyPairStore {
  getKeyPair(key: string): Promise<CryptoKeyPair | undefined>;
  setKeyPair(key: string, pair: CryptoKeyPair): Promise<void>;
}

export interface IndexedDbStore extends Store, KeyPairStore {
  /** Closes the database connection (the next call opens it again). */
  close(): void;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(["database", "objectStore"]);

/** The few members of IndexedDB this store uses (the library is typed without the DOM's types). */
interface Request<T> {
  readonly result: T;
  readonly error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface OpenRequest extends Request<Database> {
  onupgradeneeded: (() => void) | null;
  onblocked: (() => void) | null;
}
interface Database {
  readonly version: number;
  readonly objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(name: string, mode: "readonly" | "readwrite"): Transaction;
  close(): void;
  onversionchange: (() => void) | null;
  onclose: (() => void) | null;
}
interface Transaction {
  objectStore(name: string): ObjectStore;
  readonly error: unknown;
  oncomplete: (() => void) | null;
  onabort: (() => void) | null;
  onerror: (() => void) | null;
}
interface ObjectStore {
  get(key: string): Request<unknown>;
  put(value: unknown, key: string): Request<unknown>;
  delete(key: string): Request<unknown>;
}
interface Factory {
  open(name: string, version?: number): OpenRequest;
}

/**
 * @throws ClientError `"unsupported"` where the runtime has no IndexedDB
 */
export function indexedDbStore(options: IndexedDbStoreOptions = {}): IndexedDbStore {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("indexedDbStore's options must be an object");
  knownKeys("indexedDbStore's options", options, OPTION_KEYS);
  const database = options.database ?? "conduit-mcp";
  const objectStore = options.objectStore ?? "auth";
  for (const [name, value] of [["database", database], ["objectStore", objectStore]] as const) {
    if (typeof value !== "string" || value === "") throw new InvalidArgumentError(`indexedDbStore's \`${name}\` must be a non-empty string`);
  }
  const factory = (globalThis as { indexedDB?: Factory }).indexedDB;
  if (factory === undefined || typeof factory.open !== "function") throw new ClientError("unsupported", "this runtime has no IndexedDB");
  const connection = new Connection(factory, database, objectStore);
  return {
    get: async (key) => valueOf(await connection.run("readonly", (store) => store.get(key)), Date.now()),
    set: async (key, value, setOptions) => {
      const written = entry(value, setOptions);
      await connection.run("readwrite", (store) => store.put(written, key));
    },
    setIfAbsent: async (key, value, setOptions) => {
      const written = entry(value, setOptions);
      return connection.transact("readwrite", (store) => {
        let wrote = false;
        const found = store.get(key);
        // Still inside the transaction: no other readwrite one on this store runs in between.
        found.onsuccess = () => {
          if (valueOf(found.result, Date.now()) !== undefined) return;
          store.put(written, key);
          wrote = true;
        };
        return () => wrote;
      });
    },
    delete: async (key) => {
      await connection.run("readwrite", (store) => store.delete(key));
    },
    getKeyPair: async (key) => {
      const value = await connection.run("readonly", (store) => store.get(key));
      return isKeyPair(value) ? value : undefined;
    },
    setKeyPair: async (key, pair) => {
      await connection.run("readwrite", (store) => store.put({ publicKey: pair.publicKey, privateKey: pair.privateKey }, key));
    },
    close: () => connection.close(),
  };
}

/** One database connection, opened on first use and again after it was closed. */
class Connection {
  private opening: Promise<Database> | undefined;

  constructor(
    private readonly factory: Factory,
    private readonly name: string,
    private readonly storeName: string,
  ) {}

  /** One request in its own transaction; resolves with its result once the transaction completed. */
  run<T>(mode: "readonly" | "readwrite", request: (store: ObjectStore) => Request<T>): Promise<T> {
    return this.transact(mode, (store) => {
      const made = request(store);
      return () => made.result;
    });
  }

  /**
   * One transaction: `body` makes its requests (and more from their callbacks), and returns how
   * to read the outcome once the transaction completed.
   */
  async transact<T>(mode: "readonly" | "readwrite", body: (store: ObjectStore) => () => T): Promise<T> {
    const db = await this.db();
    return new Promise<T>((resolve, reject) => {
      let transaction: Transaction;
      let outcome: () => T;
      try {
        transaction = db.transaction(this.storeName, mode);
        outcome = body(transaction.objectStore(this.storeName));
      } catch (error) {
        // Closed under us (another tab's upgrade, storage cleared): the next call opens afresh.
        this.forget(db);
        reject(error);
        return;
      }
      transaction.oncomplete = () => resolve(outcome());
      transaction.onabort = () => reject(failure(transaction.error, "the transaction was aborted"));
    });
  }

  close(): void {
    const opening = this.opening;
    this.opening = undefined;
    void opening?.then((db) => db.close(), () => {});
  }

  private db(): Promise<Database> {
    // Dropped when it fails: a database refused for a moment is tried again by the next call.
    this.opening ??= this.open().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  private async open(): Promise<Database> {
    const db = await this.request(undefined);
    if (db.objectStoreNames.contains(this.storeName)) return this.watch(db);
    // The database exists without this object store: one version up creates it.
    const version = db.version + 1;
    db.close();
    return this.watch(await this.request(version));
  }

  /** Opens the database (at `version`, creating the object store on an upgrade). */
  private request(version: number | undefined): Promise<Database> {
    return new Promise<Database>((resolve, reject) => {
      let request: OpenRequest;
      try {
        request = version === undefined ? this.factory.open(this.name) : this.factory.open(this.name, version);
      } catch (error) {
        reject(error);
        return;
      }
      let settled = false;
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(this.storeName)) db.createObjectStore(this.storeName);
      };
      request.onsuccess = () => {
        // Opened after all, though given up as blocked: not kept open for nothing.
        if (settled) request.result.close();
        else resolve(request.result);
        settled = true;
      };
      request.onerror = () => {
        settled = true;
        reject(failure(request.error, "the database could not be opened"));
      };
      // Another tab holds an older version open and does not let go: fail now, not wait for it.
      request.onblocked = () => {
        if (settled) return;
        settled = true;
        reject(failure(undefined, "the database's upgrade is blocked by another tab that has it open"));
      };
    });
  }

  private watch(db: Database): Database {
    db.onversionchange = () => {
      // Another tab upgrades the database: let it, and open again on the next call.
      db.close();
      this.forget(db);
    };
    db.onclose = () => this.forget(db);
    return db;
  }

  private forget(db: Database): void {
    const opening = this.opening;
    void opening?.then((current) => {
      if (current === db && this.opening === opening) this.opening = undefined;
    }, () => {});
  }
}

/** What is kept for `value`: the plain string, or the string with its wall-clock expiry. */
function entry(value: string, options: StoreSetOptions | undefined): string | { value: string; expiresAt: number } {
  const ttl = ttlOf(options);
  if (typeof value !== "string") throw new InvalidArgumentError("a store's value must be a string");
  return ttl === undefined ? value : { value, expiresAt: Date.now() + ttl };
}

/** The string kept, undefined when absent, expired or not a string value (a key pair). */
function valueOf(kept: unknown, at: number): string | undefined {
  if (typeof kept === "string") return kept;
  if (typeof kept !== "object" || kept === null) return undefined;
  const { value, expiresAt } = kept as Record<string, unknown>;
  return typeof value === "string" && typeof expiresAt === "number" && expiresAt > at ? value : undefined;
}

function isKeyPair(value: unknown): value is CryptoKeyPair {
  if (typeof value !== "object" || value === null) return false;
  const { publicKey, privateKey } = value as Record<string, unknown>;
  return typeof publicKey === "object" && publicKey !== null && typeof privateKey === "object" && privateKey !== null;
}

/** The browser's error when it gave one, a DOMException of our own otherwise. */
function failure(error: unknown, otherwise: string): Error {
  if (error instanceof Error) return error;
  return new DOMException(otherwise, "InvalidStateError");
}
