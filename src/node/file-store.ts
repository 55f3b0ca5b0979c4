/**
 * A store in one JSON file, readable and writable by its owner alone (mode 0600, its folder
 * 0700 when made here): for hosts on one machine, such as the terminal host.
 *
 * - Each change reads the file, changes one key and writes the file whole, under a lock
 *   (`file-lock.ts`): two processes writing at once lose nothing.
 * - The new file is written to a temporary name of its own (pid and a random part) and renamed
 *   over the old one: a crash leaves one or the other, never half, and two writers never share
 *   a temporary file.
 * - In one process, every `fileStore` of a file shares one queue, so its changes wait for each
 *   other in order instead of on the lock.
 */
import { InvalidArgumentError } from "../util/errors.js";
import type { AuthStore } from "../stores/auth-store.js";
import { withFileLock, type LockBounds } from "./file-lock.js";

type Values = Record<string, string>;

/** The changes under way per file (its absolute path), while there are some. */
const queues = new Map<string, { tail: Promise<unknown>; waiting: number }>();

export function fileStore(path: string): AuthStore {
  if (typeof path !== "string" || path === "") throw new InvalidArgumentError("fileStore needs the path of a file");
  // Resolved once, against the working directory of now; one promise, so calls keep their order.
  const file = import("node:path").then((paths) => paths.resolve(path));
  return {
    get: async (key) => {
      const values = await inQueue(await file, read);
      return Object.hasOwn(values, key) ? values[key] : undefined;
    },
    set: async (key, value) =>
      change(await file, (values) => {
        Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
      }),
    delete: async (key) =>
      change(await file, (values) => {
        delete values[key];
      }),
  };
}

/** Changes the file under its lock; exported with the lock's bounds for the tests of the bounds. */
export function change(file: string, edit: (values: Values) => void, bounds?: LockBounds): Promise<void> {
  return inQueue(file, async () => {
    const [fs, paths] = await Promise.all([import("node:fs/promises"), import("node:path")]);
    await fs.mkdir(paths.dirname(file), { recursive: true, mode: 0o700 });
    await withFileLock(
      file,
      async () => {
        const values = await read(file);
        edit(values);
        await replace(fs, file, JSON.stringify(values));
      },
      bounds,
    );
  });
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
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === "string") Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return values;
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
