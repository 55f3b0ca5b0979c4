/**
 * stdio transport: the server is a child process; JSON-RPC travels as one JSON text per line
 * on its stdin and stdout (every protocol version, basic/transports "stdio"). Its stderr is
 * free-form logging, kept as a bounded tail for error messages.
 *
 * States: starting → open → closing → closed. `close()` ends stdin, waits, then signals the
 * whole process group with SIGTERM and at last SIGKILL, so nothing the server started
 * survives it.
 */
import type { ChildProcess } from "node:child_process";
import { ClientError, InvalidArgumentError, messageOf } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import { LineFramer, LineTooLongError } from "./line-framer.js";
import {
  groupAlive,
  signalGroup,
  trackGroup,
  untrackGroup,
  waitForExit,
  waitForGroupGone,
} from "./process-group.js";
import { StderrTail } from "./stderr-tail.js";
import type { RequestId, Transport, TransportSink } from "./transport.js";

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

export interface StdioOptions {
  maxMessageBytes: number;
  closeGracePeriod: number;
  stderrTailBytes: number;
  logger: Logger;
  onStderr?: ((text: string) => void) | undefined;
}

const isWindows = process.platform === "win32";

const SAFE_ENV_KEYS = isWindows
  ? ["APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT", "PROCESSOR_ARCHITECTURE",
     "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE", "PROGRAMFILES", "COMSPEC"]
  : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR", "TZ"];

function serverEnvironment(target: StdioTarget): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  if (target.inheritEnv === true) Object.assign(env, process.env);
  else {
    for (const key of SAFE_ENV_KEYS) {
      const value = process.env[key];
      // Exported shell functions look like "() {"; they are no use to a server and a known hazard.
      if (value !== undefined && !value.startsWith("()")) env[key] = value;
    }
  }
  return Object.assign(env, target.env);
}

/** How long to let a dead server's last lines arrive before reporting its exit. */
const EXIT_DRAIN_MS = 100;

export class StdioTransport implements Transport {
  readonly kind = "stdio" as const;
  readonly origin = undefined;
  private child: ChildProcess | undefined;
  private sink: TransportSink | undefined;
  private state: "idle" | "starting" | "open" | "closing" | "closed" = "idle";
  private readonly tail: StderrTail;
  private exited: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;
  /** Settles when `start()` has finished, either way (close waits for it to end what it began). */
  private started: Promise<void> = Promise.resolve();

  constructor(
    private readonly target: StdioTarget,
    private readonly options: StdioOptions,
  ) {
    if (typeof target.command !== "string" || target.command.length === 0) {
      throw new InvalidArgumentError("a stdio target needs a non-empty `command`");
    }
    this.tail = new StderrTail(options.stderrTailBytes);
  }

  describe(): string {
    const line = [this.target.command, ...(this.target.args ?? [])].join(" ");
    const short = line.length > 120 ? `${line.slice(0, 117)}...` : line;
    return this.child?.pid === undefined ? short : `${short} (pid ${this.child.pid})`;
  }

  start(sink: TransportSink): Promise<void> {
    if (this.state !== "idle") throw new InvalidArgumentError("a transport can be started once");
    this.sink = sink;
    this.state = "starting";
    const starting = this.spawnServer();
    this.started = starting.then(
      () => {},
      () => {},
    );
    return starting;
  }

  private async spawnServer(): Promise<void> {
    // Loaded on first use: a host that speaks only HTTP never pays for it at import.
    const { spawn } = await import("node:child_process");
    if (this.state !== "starting") throw this.closedWhileStarting();
    const child = spawn(this.target.command, this.target.args ?? [], {
      cwd: this.target.cwd,
      env: serverEnvironment(this.target),
      stdio: ["pipe", "pipe", "pipe"],
      detached: !isWindows,
      windowsHide: true,
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    }).catch((error: unknown) => {
      this.state = "closed";
      throw new ClientError("transport", `could not start the server: ${this.describe()}: ${messageOf(error)}`, {
        cause: error,
      });
    });
    if (child.pid !== undefined) trackGroup(child.pid);
    // close() ran meanwhile: it waits for this to end, then stops what was started.
    if (this.state !== "starting") throw this.closedWhileStarting();
    this.state = "open";
    this.wire(child);
  }

  private closedWhileStarting(): ClientError {
    return new ClientError("closed", `the connection to ${this.describe()} was closed while it started`);
  }

  private wire(child: ChildProcess): void {
    const framer = new LineFramer(this.options.maxMessageBytes, (line) => this.receive(line));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (this.state !== "open" && this.state !== "closing") return;
      try {
        framer.push(chunk);
      } catch (error) {
        // Nothing may escape a stream listener: it would crash the host. A fault in handling a
        // message ends this connection instead.
        const message = error instanceof LineTooLongError ? error.message : `a message could not be handled (${messageOf(error)})`;
        this.fail(new ClientError("transport", `${message}; closing the connection to ${this.describe()}`, { cause: error }));
      }
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      this.tail.append(text);
      this.options.onStderr?.(text);
    });
    child.stdin?.on("error", (error) => {
      // EPIPE and friends: the exit handler reports the real reason.
      this.options.logger.debug("stdio: write to server failed", { error: messageOf(error) });
    });
    child.on("error", (error) => this.options.logger.warn("stdio: child process error", { error: messageOf(error) }));
    child.once("exit", (code, signal) => this.onExit(child, code, signal));
  }

  private receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.sink?.parseError(line.length > 200 ? `${line.slice(0, 200)}...` : line, undefined);
      return;
    }
    this.sink?.message(value, undefined);
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.state !== "open") return;
    const report = (): void => {
      const how = code !== null ? `exited with code ${code}` : `was killed by ${signal ?? "a signal"}`;
      const stderr = this.tail.toString();
      const message = `server process ${how}: ${this.describe()}${stderr === "" ? "" : `\nstderr:\n${stderr}`}`;
      this.fail(new ClientError("transport", message, { data: { exitCode: code, signal, stderr } }));
    };
    const stdout = child.stdout;
    if (stdout === null || stdout.readableEnded) return report();
    // Lines the server wrote just before dying are still in the pipe; give them a moment.
    const timer = setTimeout(report, EXIT_DRAIN_MS);
    stdout.once("end", () => {
      clearTimeout(timer);
      report();
    });
  }

  /** The connection broke on its own: report at once, then make sure nothing is left running. */
  private fail(error: ClientError): void {
    if (this.state !== "open") return;
    this.state = "closing";
    this.closing = this.terminate().finally(() => {
      this.state = "closed";
    });
    this.sink?.closed(error);
  }

  send(message: object): undefined {
    if (this.state !== "open") return undefined;
    let line: string;
    try {
      line = JSON.stringify(message);
    } catch (error) {
      throw new InvalidArgumentError(`message is not serialisable to JSON: ${messageOf(error)}`);
    }
    this.child?.stdin?.write(`${line}\n`);
    return undefined;
  }

  abandon(_id: RequestId): void {
    // One pipe carries every reply: nothing to release per request.
  }

  close(): Promise<void> {
    if (this.closing !== undefined) return this.closing;
    if (this.state === "idle" || this.state === "closed") {
      this.state = "closed";
      this.closing = Promise.resolve();
      return this.closing;
    }
    this.state = "closing";
    this.closing = this.started.then(() => this.terminate()).finally(() => {
      this.state = "closed";
      this.sink?.closed(undefined);
    });
    return this.closing;
  }

  private terminating: Promise<void> | undefined;

  /** stdin EOF, then SIGTERM, then SIGKILL, to the group; then whatever of the group is left. */
  private terminate(): Promise<void> {
    this.terminating ??= this.escalate();
    return this.terminating;
  }

  private async escalate(): Promise<void> {
    const child = this.child;
    const pid = child?.pid;
    if (child === undefined || pid === undefined) return;
    const grace = this.options.closeGracePeriod;
    child.stdin?.end();
    if (!(await waitForExit(child, this.exited, grace))) {
      signalGroup(pid, "SIGTERM");
      if (!(await waitForExit(child, this.exited, grace))) {
        signalGroup(pid, "SIGKILL");
        await waitForExit(child, this.exited, grace);
      }
    }
    if (!isWindows && groupAlive(pid)) {
      signalGroup(pid, "SIGTERM");
      if (!(await waitForGroupGone(pid, grace))) signalGroup(pid, "SIGKILL");
    }
    untrackGroup(pid);
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

