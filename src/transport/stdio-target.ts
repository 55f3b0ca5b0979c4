/**
 * A stdio target and the options of its transport: the shapes the core checks and passes on.
 * The transport itself spawns a process and lives behind the Node entry (`node/stdio.ts`).
 */
import type { Logger } from "../util/logger.js";

export interface StdioTarget {
  command: string;
  args?: readonly string[] | undefined;
  /** Added to the inherited environment (see `inheritEnv`). */
  env?: Readonly<Record<string, string>> | undefined;
  cwd?: string | undefined;
  /**
   * Pass this process's whole environment to the server. Off by default: the server gets only
   * the variables a program needs to run (PATH, HOME, …), so secrets in the host's environment
   * do not leak to every server it starts.
   */
  inheritEnv?: boolean | undefined;
}

export const STDIO_TARGET_KEYS: ReadonlySet<string> = new Set(["command", "args", "env", "cwd", "inheritEnv"]);

export interface StdioOptions {
  maxMessageBytes: number;
  closeGracePeriod: number;
  /** How long stdin's end is given before SIGTERM (`closeGracePeriod` is the wait after it). */
  stdinGracePeriod: number;
  stderrTailBytes: number;
  logger: Logger;
  onStderr?: ((text: string) => void) | undefined;
}
