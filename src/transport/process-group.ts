/**
 * Ending a stdio server and everything it started. The server is spawned as the leader of its
 * own process group, so one signal to the negative pid reaches its children and grandchildren
 * (a shell wrapper, `npx`, a language runtime's helpers) even after the leader has exited.
 *
 * Groups still alive when this process exits are killed from an `exit` hook, so a crashing host
 * does not leave servers behind.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

const isWindows = process.platform === "win32";
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
  });
}

export function trackGroup(pid: number): void {
  installExitHook();
  liveGroups.add(pid);
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** Sends a signal to the whole group; false when no member is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    if (isWindows) process.kill(pid, signal);
    else process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any member of the group still runs. Exited members whose new parent has not reaped
 * them yet (zombies, common under a minimal init) still answer signal 0; where /proc exists
 * they are told apart by their state so that closing does not wait on the dead.
 */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  if (process.platform !== "linux") return true;
  try {
    for (const entry of readdirSync("/proc")) {
      if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
      const stat = statOf(entry);
      if (stat !== undefined && stat.group === pid && stat.state !== "Z" && stat.state !== "X") return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** State and process group from /proc/<pid>/stat (fields 3 and 5; the name may hold spaces). */
function statOf(entry: string): { state: string; group: number } | undefined {
  try {
    const text = readFileSync(`/proc/${entry}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", group: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Resolves true when the child exits within `ms`, false otherwise. */
export function waitForExit(child: ChildProcess, exited: Promise<void>, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([exited.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

/** Waits until no member of the group is left, polling; false if some remain after `ms`. */
export async function waitForGroupGone(pid: number, ms: number): Promise<boolean> {
  const step = 20;
  for (let waited = 0; waited < ms; waited += step) {
    if (!groupAlive(pid)) return true;
    await delay(step);
  }
  return !groupAlive(pid);
}
