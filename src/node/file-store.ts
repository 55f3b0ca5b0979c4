/**
 * A store in one JSON file, readable and writable by its owner alone (mode 0600, its folder
 * 0700 when made here): for hosts on one machine, such as the terminal host, and for several
 * processes of one host that share the file.
 *
 * - Each change reads the file, changes one key and writes the file whole, under a lock
 *   (`file-lock.ts`): two processes writing at once lose nothing, and `setIfAbsent` is atomic
 *   across every process that uses the file, since its look and its write hold the lock together.
 * - The new file is written to a temporary name of its own (pid and a random part) and renamed
 *   over the old one: a crash leaves one or the other, never half, and two writers never share
 *   a temporary file.
 * - In one process, every `fileStore` of a file shares one queue, so its changes wait for each
 *   other in order instead of on the lock.
 * - A value is kept as a plain string, or as `{ "value", "expiresAt" }` when it has a TTL. A
 *   file written before TTLs existed (strings only) reads as it did; a version that knows only
 *   strings ignores, and on its next write drops, the values that have a TTL.
 *
 * A failure rejects with a `"store"` ClientError naming the step (the file system's error as its
 * cause); a `ttlMs` that is not a positive integer with an InvalidArgumentError.
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import type { Store, StoreSetOptions } from "../stores/store.js";
import { ttlOf } from "../stores/memory-store.js";
import { failureName, storeError, type StoreStep } from "../stores/store-error.js";
import { withFileLock, type LockBounds } from "./file-lock.js";

interface Entry {
  readonly value: string;
  /**
   * Wall-clock milliseconds (`Date.now()`), not the monotonic clock the rest of Conduit uses:
   * `performance.now()` counts from each process's start, and the file is read by processes
   * that started at different times (and by the same host after a restart). A step of the
   * system clock moves these expiries with it, which is the price of a clock they all share.
   */
  readonly expiresAt?: number;
}

type Values = Record<string, Entry>;

/** The changes under way per file (its absolute path), while there are some. */
const queues = new Map<string, { tail: Promise<unknown>; waiting: number }>();

export function fileStore(path: string): Store {
  if (typeof path !== "string" || path === "") throw new InvalidArgumentError("fileStore needs the path of a file");
  // Resolved once, against the working directory of now; one promise, so calls keep their order.
  const file = import("node:path").then((paths) => paths.resolve(path));
  return {
    get: (key) =>
      failingAs("get", async () => {
        const values = await inQueue(await file, read);
        return live(values, key, Date.now())?.value;
      }),
    set: (key, value, options) =>
      failingAs("set", async () => {
        const written = entry(value, options);
        await change(await file, (values) => put(values, key, written));
      }),
    delete: (key) =>
      failingAs("delete", async () =>
        change(await file, (values) => {
          delete values[key];
        }),
      ),
    setIfAbsent: (key, value, options) =>
      failingAs("setIfAbsent", async () => {
        const written = entry(value, options);
        return change(await file, (values) => {
          if (Object.hasOwn(values, key)) return false;
          put(values, key, written);
          return true;
        });
      }),
  };
}

/**
 * Changes the file under its lock, the expired values left out, and resolves with what `edit`
 * returned; exported with the lock's bounds for the tests of the bounds.
 */
export function change<T>(file: string, edit: (values: Values) => T, bounds?: LockBounds): Promise<T> {
  return inQueue(file, async () => {
    const [fs, paths] = await Promise.all([import("node:fs/promises"), import("node:path")]);
    await fs.mkdir(paths.dirname(file), { recursive: true, mode: 0o700 });
    return withFileLock(
      file,
      async () => {
        const values = await read(file);
        dropExpired(values, Date.now());
        const result = edit(values);
        await replace(fs, file, serialize(values));
        return result;
      },
      bounds,
    );
  });
}

/** What is written for `value`, its expiry counted from the call (not from when the lock is had). */
function entry(value: string, options: StoreSetOptions | undefined): Entry {
  const ttl = ttlOf(options);
  if (typeof value !== "string") throw new InvalidArgumentError("a store's value must be a string");
  return ttl === undefined ? { value } : { value, expiresAt: Date.now() + ttl };
}

/** Keys are the caller's (an OAuth key names a server's URL): written as own data, `__proto__` too. */
function put(values: Values, key: string, value: Entry): void {
  Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
}

function live(values: Values, key: string, at: number): Entry | undefined {
  if (!Object.hasOwn(values, key)) return undefined;
  const found = values[key]!;
  return found.expiresAt !== undefined && found.expiresAt <= at ? undefined : found;
}

function dropExpired(values: Values, at: number): void {
  for (const key of Object.keys(values)) if (live(values, key, at) === undefined) delete values[key];
}

async function failingAs<T>(step: StoreStep, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ClientError || error instanceof InvalidArgumentError) throw error;
    // The lock's own error says which file to remove; the file system's name their code.
    const reason = error instanceof Error && error.message.startsWith("the file store is locked") ? error.message : failureName(error);
    throw storeError("the file store", step, reason, error);
  }
}

function inQueue<T>(file: string, work: (file: string) => Promise<T>): Promise<T> {
  let queue = queues.get(file);
  if (queue === undefined) {
    queue = { tail: Promise.resolve(), waiting: 0 };
    queues.set(file, queue);
  }
  const entry = queue;
  entry.waiting++;
  const run = entry.tail.then(() => work(file));
  entry.tail = run.catch(() => {});
  return run.finally(() => {
    // A record per file lives while something waits on it.
    if (--entry.waiting === 0 && queues.get(file) === entry) queues.delete(file);
  });
}

async function read(file: string): Promise<Values> {
  const fs = await import("node:fs/promises");
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  const values: Values = {};
  for (const [key, kept] of Object.entries(parsed)) {
    const read = readEntry(kept);
    if (read !== undefined) put(values, key, read);
  }
  return values;
}

/** A value without a TTL is written as the plain string it was before TTLs, so that older versions still read it. */
function serialize(values: Values): string {
  const kept: Record<string, string | Entry> = {};
  for (const [key, found] of Object.entries(values)) {
    Object.defineProperty(kept, key, { value: found.expiresAt === undefined ? found.value : found, enumerable: true, writable: true, configurable: true });
  }
  return JSON.stringify(kept);
}

/** A plain string (kept until deleted, as every value was before TTLs), or a value with its expiry. */
function readEntry(kept: unknown): Entry | undefined {
  if (typeof kept === "string") return { value: kept };
  if (typeof kept !== "object" || kept === null) return undefined;
  const { value, expiresAt } = kept as Record<string, unknown>;
  if (typeof value !== "string" || typeof expiresAt !== "number" || !Number.isFinite(expiresAt)) return undefined;
  return { value, expiresAt };
}

async function replace(fs: typeof import("node:fs/promises"), file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
  try {
    await fs.writeFile(temporary, text, { mode: 0o600, flag: "wx" });
    // The mode given to writeFile passes through the umask; the file is the owner's alone.
    await fs.chmod(temporary, 0o600);
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.unlink(temporary).catch(() => {});
    throw error;
  }
}
