/**
 * Ending a stdio server and everything it started. The server is spawned as the leader of its
 * own process group, so one signal to the negative pid reaches its children and grandchildren
 * (a shell wrapper, `npx`, a language runtime's helpers) even after the leader has exited.
 *
 * Being in a group of its own, a server does not get the signals the host gets. So while any
 * group lives, Conduit listens for SIGINT, SIGTERM and SIGHUP. When the host has handlers of
 * its own for the signal, they decide what it means (a host that takes SIGINT as "stop this
 * turn" keeps its servers; one that exits kills them from the `exit` hook). When it has none,
 * the signal would end the host at once: Conduit sends SIGTERM to every group, gives them a
 * moment to go, ends the rest with SIGKILL, and raises the signal again with its default
 * action, so that the host still dies of it. Groups still alive when the host exits normally
 * are killed from an `exit` hook. Nothing runs when the host is killed with SIGKILL: its
 * servers then see their stdin end (the host's end of the pipe closes), on which a
 * well-behaved stdio server exits; one that ignores it keeps running.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { delay } from "../util/time.js";

export const isWindows = process.platform === "win32";

const liveGroups = new Set<number>();
const HOST_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** How long the groups get after SIGTERM when the host dies of a signal it does not handle. */
const SIGNAL_GRACE_MS = 1000;
let exitHookInstalled = false;
let signalHooksInstalled = false;

function onHostExit(): void {
  for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
}

function onHostSignal(signal: NodeJS.Signals): void {
  // Other listeners are the host's: the signal means what they make of it.
  if (process.listenerCount(signal) > 1) return;
  removeSignalHooks();
  const groups = [...liveGroups];
  for (const pid of groups) signalGroup(pid, "SIGTERM");
  // A timer of its own keeps the host alive until the signal is raised again: once the servers'
  // pipes close, nothing else may.
  const keepAlive = setTimeout(() => {}, SIGNAL_GRACE_MS + 1000);
  void Promise.all(groups.map((pid) => waitForGroupGone(pid, SIGNAL_GRACE_MS))).finally(() => {
    for (const pid of groups) signalGroup(pid, "SIGKILL");
    clearTimeout(keepAlive);
    process.kill(process.pid, signal);
  });
}

function installHooks(): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", onHostExit);
  }
  if (signalHooksInstalled || isWindows) return;
  signalHooksInstalled = true;
  for (const signal of HOST_SIGNALS) process.on(signal, onHostSignal);
}

function removeSignalHooks(): void {
  if (!signalHooksInstalled) return;
  signalHooksInstalled = false;
  for (const signal of HOST_SIGNALS) process.removeListener(signal, onHostSignal);
}

export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  installHooks();
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
  // No server left to end: the host's signals mean again exactly what they meant before.
  if (liveGroups.size === 0) removeSignalHooks();
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

/**
 * Resolves true when the child exits within `ms` (Infinity: whenever it does), false when the
 * time passed first or `stop` aborted. Node sets `exitCode` or `signalCode` before it emits
 * `exit`, so an exit before the call is seen, and none is missed between the look and the listen.
 */
export async function waitForExit(child: ChildProcess, ms: number, stop?: AbortSignal): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  const controller = new AbortController();
  const onStop = (): void => controller.abort();
  stop?.addEventListener("abort", onStop, { once: true });
  if (stop?.aborted === true) controller.abort();
  let onExit: (() => void) | undefined;
  const exited = new Promise<boolean>((resolve) => child.on("exit", (onExit = () => resolve(true))));
  const timeUp = delay(ms, controller.signal).then(
    () => false,
    () => false,
  );
  try {
    return await Promise.race([exited, timeUp]);
  } finally {
    controller.abort();
    stop?.removeEventListener("abort", onStop);
    if (onExit !== undefined) child.off("exit", onExit);
  }
}

/** How often the group is looked at, and the most it is waited for after its leader exited. */
const POLL_MS = 20;
const GROUP_WAIT_MAX_MS = 5000;

/**
 * Waits until no member of the group is left, polling, for at most `ms` (and never longer than
 * a few seconds: what is left of a group after its leader exited is not the server the caller
 * gave a grace period to); false if some remain.
 */
export async function waitForGroupGone(pid: number, ms: number): Promise<boolean> {
  const limit = Math.min(ms, GROUP_WAIT_MAX_MS);
  for (let waited = 0; waited < limit; waited += POLL_MS) {
    if (!groupAlive(pid)) return true;
    await delay(POLL_MS, undefined, false);
  }
  return !groupAlive(pid);
}
