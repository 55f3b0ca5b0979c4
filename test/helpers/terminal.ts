// A real pseudo-terminal for the terminal host's interactive tests: a tmux session of its own
// (its own server socket, so that tests never touch a person's tmux), keys typed with
// `send-keys`, the screen read with `capture-pane`. Waits are on what the screen shows.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { track } from "./cleanup.js";

const run = promisify(execFile);
let sessions = 0;

export interface Terminal {
  /** What the screen shows now, with the scrollback. */
  screen(): Promise<string>;
  /** Resolves with the screen once `pattern` is on it; fails with the screen after `timeoutMs`. */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Types text as keys (no Enter). */
  type(text: string): Promise<void>;
  /** Presses named keys: "Enter", "Down", "Tab", "C-c", … */
  press(...keys: string[]): Promise<void>;
  /** Resolves with the program's exit status once it has ended. */
  exited(timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function openTerminal(command: readonly string[], env: Record<string, string> = {}): Promise<Terminal> {
  const socket = `conduit-test-${process.pid}-${sessions++}`;
  const tmux = (...args: string[]) => run("tmux", ["-L", socket, ...args], { maxBuffer: 16 * 1024 * 1024 });
  const environment = Object.entries({ NO_COLOR: "1", TERM: "xterm-256color", ...env }).flatMap(([name, value]) => ["-e", `${name}=${value}`]);
  // A shell around the program says how it ended, and then keeps the screen readable (tmux's
  // own exit status of a pane is not always there).
  const wrapped = ["sh", "-c", '"$@"; echo "[exited $?]"; exec sleep 3600', "sh", ...command];
  await tmux("-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "50", ...environment, "-s", "t", ...wrapped);
  const terminal: Terminal = {
    async screen() {
      const { stdout } = await tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t");
      return stdout;
    },
    async waitFor(pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const shown = await terminal.screen();
        if (typeof pattern === "string" ? shown.includes(pattern) : pattern.test(shown)) return shown;
        if (Date.now() > deadline) throw new Error(`the terminal never showed ${String(pattern)}; it shows:\n${shown}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async type(text) {
      await tmux("send-keys", "-t", "t", "-l", text);
    },
    async press(...keys) {
      await tmux("send-keys", "-t", "t", ...keys);
    },
    async exited(timeoutMs = 15_000) {
      const shown = await terminal.waitFor(/\[exited (\d+)\]/, timeoutMs);
      return Number(/\[exited (\d+)\]/.exec(shown)![1]);
    },
    async close() {
      await tmux("kill-server").catch(() => {});
    },
  };
  track(terminal);
  return terminal;
}
