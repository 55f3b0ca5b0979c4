/**
 * A lock beside a file, for writers in several processes (a host and the terminal host, two
 * terminals): `<path>.lock`, created only if absent (O_EXCL), so one writer at a time holds it.
 * A lock left by a writer that died is taken over: its process is gone (on this machine), or
 * it is older than any write takes. The wait is bounded, in attempts rather than on a clock;
 * past it the write fails with the lock's name, rather than waiting for ever.
 */
import { delay } from "../util/time.js";

export interface LockBounds {
  /** Tries after the first before giving up (at 5 to 50 ms apart). */
  readonly attempts: number;
  /** A lock older than this is a dead writer's (a write takes milliseconds). */
  readonly staleMs: number;
}

/**
 * About 10 s of waiting at most; a lock is dead after 5 s, so that one left by a writer that
 * died is always taken over within the wait, whatever it holds (an empty file too).
 */
export const LOCK_BOUNDS: LockBounds = { attempts: 200, staleMs: 5_000 };

type Fs = typeof import("node:fs/promises");

/** Runs `work` holding `<path>.lock`. */
export async function withFileLock<T>(path: string, work: () => Promise<T>, bounds: LockBounds = LOCK_BOUNDS): Promise<T> {
  const [fs, os] = await Promise.all([import("node:fs/promises"), import("node:os")]);
  const lock = `${path}.lock`;
  const mine = `${process.pid} ${os.hostname()} ${crypto.randomUUID()}`;
  await acquire(fs, lock, mine, os.hostname(), bounds);
  try {
    return await work();
  } finally {
    // Only our own: a lock taken over meanwhile (this writer stalled past staleMs) is the other's.
    if ((await fs.readFile(lock, "utf8").catch(() => undefined)) === mine) await fs.unlink(lock).catch(() => {});
  }
}

async function acquire(fs: Fs, lock: string, mine: string, host: string, bounds: LockBounds): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.writeFile(lock, mine, { flag: "wx", mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    // Two writers may both find the same dead lock and remove it; the second removal can then
    // take the first's new lock. That needs a writer to have died holding it, and costs at
    // worst one write racing another once.
    if (await isStale(fs, lock, host, bounds.staleMs)) {
      await fs.unlink(lock).catch(() => {});
      continue;
    }
    if (attempt >= bounds.attempts) {
      throw new Error(`the file store is locked by another writer (${lock}); remove that file if no writer is running`);
    }
    await delay(Math.min(5 * (attempt + 1), 50));
  }
}

async function isStale(fs: Fs, lock: string, host: string, staleMs: number): Promise<boolean> {
  let text: string;
  let modified: number;
  try {
    [text, modified] = await Promise.all([fs.readFile(lock, "utf8"), fs.stat(lock).then((stat) => stat.mtimeMs)]);
  } catch {
    // Gone meanwhile: the next attempt creates it.
    return false;
  }
  if (Date.now() - modified > staleMs) return true;
  const [pid, holder] = text.split(" ");
  return holder === host && pid !== undefined && /^\d+$/.test(pid) && !alive(Number(pid));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: there, but another user's.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
