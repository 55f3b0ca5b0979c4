// The backstop behind every adapter's close(): after a scenario, no child process of ours may
// be left running. Linux only (reads /proc); elsewhere it sees none.
import { readdirSync, readFileSync } from "node:fs";

export function livingChildren() {
  if (process.platform !== "linux") return [];
  const children = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so split after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(ppid) === process.pid && state !== "Z") children.push(Number(entry));
  }
  return children;
}

export function killChildren(signal = "SIGKILL") {
  const pids = livingChildren();
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
  return pids;
}
