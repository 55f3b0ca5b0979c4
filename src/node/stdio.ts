/**
 * stdio transport: the server is a child process; JSON-RPC travels as one JSON text per line
 * on its stdin and stdout (every protocol version, basic/transports "stdio"). Its stderr is
 * free-form logging, kept as a bounded tail for error messages.
 *
 * States: idle → starting → open → closing → closed. `close()` ends stdin, waits the grace
 * period, then signals the whole process group with SIGTERM and at last SIGKILL, so nothing
 * the server started survives it; `destroy()` skips the waiting. Writes are bounded
 * (`stdin-writer.ts`): a server that does not read its answers is not read either until it
 * does, and past `MAX_QUEUED_WRITE_BYTES` waiting a request is refused and anything else ends
 * the connection.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { ClientError, InvalidArgumentError, messageOf } from "../util/errors.js";
import { callHost } from "../util/logger.js";
import type { RequestId } from "../util/json.js";
import { excerpt, redactCommandLine } from "../util/text.js";
import { sanitize } from "../util/sanitize.js";
import { messageText } from "../util/message-text.js";
import { LineFramer, LineTooLongError } from "./line-framer.js";
import { MAX_QUEUED_WRITE_BYTES, StdinWriter } from "./stdin-writer.js";
import { groupAlive, isWindows, signalGroup, trackGroup, untrackGroup, waitForExit, waitForGroupGone } from "./process-group.js";
import type { EraPolicy, Transport, TransportSink } from "../transport/transport.js";
import type { StdioOptions, StdioTarget } from "../transport/stdio-target.js";
import { windowsCommandLine } from "./windows-command.js";

/** How long to let a dead server's last lines arrive before reporting its exit. */
const EXIT_DRAIN_MS = 100;
/** After SIGKILL the exit follows at once; this only bounds the wait for its event. */
const KILL_WAIT_MS = 5000;
/** How long a server whose stdout ended may take to exit before the end is its own failure. */
const STDOUT_END_GRACE_MS = 1000;

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

export class StdioTransport implements Transport {
  readonly kind = "stdio" as const;
  readonly origin = undefined;
  private child: ChildProcess | undefined;
  private writer: StdinWriter | undefined;
  private sink: TransportSink | undefined;
  private state: "idle" | "starting" | "open" | "closing" | "closed" = "idle";
  private readonly tail: StderrTail;
  private readonly line: string;
  private ending: Promise<void> | undefined;
  /** `start()` while it runs (close waits for it to end what it began); undefined once it has finished. */
  private starting: Promise<void> | undefined;
  /** Aborted by `destroy()`: the grace periods are skipped. Made when the end begins. */
  private force: AbortController | undefined;
  /** Decodes stderr, made with its first chunk (a character may span two). */
  private stderrDecoder: StringDecoder | undefined;
  /** The connection broke: nothing more is read from it. */
  private failed = false;

  constructor(
    private readonly target: StdioTarget,
    private readonly options: StdioOptions,
  ) {
    if (typeof target.command !== "string" || target.command.length === 0) {
      throw new InvalidArgumentError("a stdio target needs a non-empty `command`");
    }
    this.tail = new StderrTail(options.stderrTailBytes);
    this.line = excerpt(redactCommandLine(target.command, target.args ?? [], Object.values(target.env ?? {})), 120);
  }

  describe(): string {
    return this.child?.pid === undefined ? this.line : `${this.line} (pid ${this.child.pid})`;
  }

  start(sink: TransportSink, _signal?: AbortSignal): Promise<void> {
    if (this.state !== "idle") throw new InvalidArgumentError("a transport can be started once");
    this.sink = sink;
    this.state = "starting";
    this.starting = this.spawnServer().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async spawnServer(): Promise<void> {
    // Loaded on first use: a host that speaks only HTTP never pays for it at import.
    const { spawn } = await import("node:child_process");
    if (this.state !== "starting") throw this.closedWhileStarting();
    const child = await this.spawnChild(spawn);
    this.child = child;
    // `on` for the events that come once (exit, end) or settle what is settled already: a
    // `once` is a wrapper and a bound function (some 110 bytes) kept as long as the child runs.
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.on("error", reject);
    }).catch((error: unknown) => {
      this.state = "closed";
      throw new ClientError("transport", `could not start the server: ${this.describe()}: ${messageOf(error)}`, { cause: error });
    });
    if (child.pid !== undefined) trackGroup(child.pid);
    // close() ran meanwhile: it waits for this to end, then stops what was started.
    if (this.state !== "starting") throw this.closedWhileStarting();
    this.state = "open";
    this.wire(child);
  }

  /**
   * The child, spawned. What throws before the process exists — a runtime's permission refusal
   * (Deno without --allow-env or --allow-run, Node's permission model), a bad cwd on Windows —
   * is the start's failure, not a reply's.
   */
  private async spawnChild(spawn: typeof import("node:child_process").spawn): Promise<ChildProcess> {
    try {
      const options: SpawnOptions = {
        cwd: this.target.cwd,
        env: serverEnvironment(this.target),
        stdio: ["pipe", "pipe", "pipe"],
        detached: !isWindows,
        windowsHide: true,
      };
      const args = this.target.args ?? [];
      // Windows: `.cmd` shims (npx) run through cmd.exe, resolved and quoted by cross-spawn.
      const line = isWindows ? await windowsCommandLine(this.target.command, args, options) : undefined;
      if (this.state !== "starting") throw this.closedWhileStarting();
      return line === undefined ? spawn(this.target.command, args, options) : spawn(line.command, line.args, line.options);
    } catch (error) {
      if (error instanceof ClientError || error instanceof InvalidArgumentError) throw error;
      this.state = "closed";
      throw new ClientError("transport", `could not start the server: ${this.describe()}: ${messageOf(error)}`, { cause: error });
    }
  }

  private closedWhileStarting(): ClientError {
    return new ClientError("closed", `the connection to ${this.describe()} was closed while it started`);
  }

  private wire(child: ChildProcess): void {
    const stdout = child.stdout;
    if (child.stdin !== null && stdout !== null) {
      // The writer pauses and resumes what the server writes: stdout itself, no wrapper to keep.
      this.writer = new StdinWriter(child.stdin, stdout);
    }
    const framer = new LineFramer(this.options.maxMessageBytes, (line) => this.receive(line));
    child.stdout?.on("data", (chunk: Buffer) => {
      // After a failure nothing more is read: what follows may be the rest of a refused message.
      if (this.state !== "open" && (this.state !== "closing" || this.failed)) return;
      try {
        framer.push(chunk);
      } catch (error) {
        // Nothing may escape a stream listener: it would crash the host. A fault in handling a
        // message ends this connection instead.
        const message = error instanceof LineTooLongError ? error.message : `a message could not be handled (${messageOf(error)})`;
        this.fail(new ClientError("transport", `${message}; closing the connection to ${this.describe()}`, { cause: error }));
      }
    });
    // A server that closed its stdout and runs on can never answer: unless it is exiting (then
    // its exit reports why), the connection ends rather than every call waiting out its timeout.
    child.stdout?.on("end", () => {
      const timer = setTimeout(() => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        this.fail(new ClientError("transport", `the server closed its stdout but is still running: ${this.describe()}`));
      }, STDOUT_END_GRACE_MS);
      timer.unref();
      child.once("exit", () => clearTimeout(timer));
    });
    // Decoded here rather than by `setEncoding`, whose decoder each quiet server would keep.
    const stderr = child.stderr;
    stderr?.on("data", (chunk: Buffer) => {
      let decoder = this.stderrDecoder;
      if (decoder === undefined) {
        const made = new StringDecoder("utf8");
        decoder = this.stderrDecoder = made;
        // What the stream's end cut off is given as U+FFFD, as `setEncoding` would.
        stderr.on("end", () => this.stderrText(made.end()));
      }
      this.stderrText(decoder.write(chunk));
    });
    child.stdin?.on("error", (error) => {
      // EPIPE and friends: the exit handler reports the real reason.
      this.options.logger.debug("stdio: write to server failed", { error: messageOf(error) });
    });
    child.on("error", (error) => this.options.logger.warn("stdio: child process error", { error: messageOf(error) }));
    child.on("exit", (code, signal) => this.onExit(child, code, signal));
  }

  private stderrText(text: string): void {
    if (text === "") return;
    this.tail.append(text);
    if (this.options.onStderr !== undefined) callHost(this.options.logger, "onStderr", this.options.onStderr, text);
  }

  private receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.sink?.parseError(excerpt(line), undefined);
      return;
    }
    this.sink?.message(value, undefined);
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.state !== "open") return;
    const report = (): void => {
      const how = code !== null ? `exited with code ${code}` : `was killed by ${signal ?? "a signal"}`;
      const stderr = this.tail.toString();
      // The message is what hosts print: each line of the tail cleaned, its breaks kept; `data` keeps it as written.
      const shown = sanitize(stderr, { lines: true, max: Infinity });
      const message = `server process ${how}: ${this.describe()}${stderr === "" ? "" : `\nstderr:\n${shown}`}`;
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
    this.failed = true;
    this.ending = this.terminate().finally(() => {
      this.state = "closed";
    });
    this.sink?.closed(error);
  }

  send(message: object, id: RequestId | undefined): undefined {
    if (this.state !== "open") return undefined;
    let line: string;
    try {
      line = messageText(message);
    } catch (error) {
      throw new InvalidArgumentError(`message is not serialisable to JSON: ${messageOf(error)}`);
    }
    const writer = this.writer;
    if (writer === undefined) return undefined;
    if (writer.write(`${line}\n`, id === undefined)) return undefined;
    const error = new ClientError(
      "transport",
      `the server is not reading its input: ${writer.backlog} bytes wait to be written to ${this.describe()} (the bound is ${MAX_QUEUED_WRITE_BYTES})`,
    );
    // A request's caller hears of it and may try again; an answer nobody waits for cannot be
    // dropped without leaving the server waiting for it for ever: the connection ends instead.
    if (id !== undefined) throw error;
    this.fail(error);
    return undefined;
  }

  abandon(_id: RequestId): void {
    // One pipe carries every reply: nothing to release per request.
  }

  configure(_policy: EraPolicy): void {
    // The era changes nothing in how lines travel.
  }

  close(): Promise<void> {
    if (this.ending !== undefined) return this.ending;
    if (this.state === "idle" || this.state === "closed") {
      this.state = "closed";
      this.ending = Promise.resolve();
      return this.ending;
    }
    this.state = "closing";
    const terminate = (): Promise<void> => this.terminate();
    this.ending = (this.starting === undefined ? terminate() : this.starting.then(terminate, terminate))
      .finally(() => {
        this.state = "closed";
        this.sink?.closed(undefined);
      });
    return this.ending;
  }

  destroy(): Promise<void> {
    (this.force ??= new AbortController()).abort();
    return this.close();
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
    const force = (this.force ??= new AbortController()).signal;
    // After a failure what waits is not worth writing: the server stopped reading it.
    if (this.failed) this.writer?.discard();
    if (this.writer === undefined) child.stdin?.end();
    else this.writer.end();
    if (!(await waitForExit(child, this.options.stdinGracePeriod, force))) {
      if (!force.aborted) signalGroup(pid, "SIGTERM");
      if (force.aborted || !(await waitForExit(child, grace, force))) {
        signalGroup(pid, "SIGKILL");
        await waitForExit(child, KILL_WAIT_MS);
      }
    }
    if (!isWindows && groupAlive(pid)) {
      signalGroup(pid, force.aborted ? "SIGKILL" : "SIGTERM");
      if (!(await waitForGroupGone(pid, force.aborted ? 0 : grace))) signalGroup(pid, "SIGKILL");
    }
    untrackGroup(pid);
    this.writer?.discard();
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

/**
 * The last few kilobytes a server wrote to stderr, kept so that a connection error can show
 * why the server died. Bounded: a chatty server costs at most twice the limit.
 */
export class StderrTail {
  private text = "";

  constructor(private readonly limit: number) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * this.limit) this.text = this.text.slice(-this.limit);
  }

  /** The tail, cut at a line start when possible, or "" when the server said nothing. */
  toString(): string {
    let tail = this.text.length > this.limit ? this.text.slice(-this.limit) : this.text;
    if (tail.length < this.text.length) {
      const firstBreak = tail.indexOf("\n");
      if (firstBreak !== -1 && firstBreak < tail.length - 1) tail = tail.slice(firstBreak + 1);
    }
    return tail.trimEnd();
  }
}
