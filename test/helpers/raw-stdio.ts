// Scripted "raw" stdio MCP server for integration tests.
//
// The client under test spawns test/fixtures/raw-relay.mjs as its server
// process (real pipes, real process). The relay forwards whatever the client
// writes on its stdin to this helper over a TCP control socket, and writes to
// its stdout/stderr exactly what this helper tells it to. Nothing here knows
// MCP beyond the optional auto-responders, so tests can script any
// misbehaviour: partial lines, garbage, huge messages, early exits, ...
//
// Also exports small generic pieces (Inbox, deferred, process helpers) that
// raw-http.ts reuses.
import net from "node:net";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const RELAY_PATH = fileURLToPath(new URL("../fixtures/raw-relay.mjs", import.meta.url));

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

export type JsonObject = { [key: string]: unknown };

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON object received from the client, typed for the usual JSON-RPC fields. */
export interface RpcMessage extends JsonObject {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: string;
  params?: JsonObject;
  result?: JsonObject;
  error?: RpcError;
}

/** What a responder returns: a result object, an error, or nothing (answer by hand). */
export type Answer = JsonObject | { error: RpcError } | undefined;
export type Responder = (message: RpcMessage) => Answer | Promise<Answer>;
/** A method name, or a predicate over the parsed message. */
export type MessageMatcher = string | ((message: RpcMessage) => boolean);

/** Outcome of a write the relay performed. Never a rejection: see `send`. */
export interface WriteAck {
  ok: boolean;
  /** Bytes the relay wrote (or tried to write) for this command. */
  bytes: number;
  error?: string;
}

export interface BigLineOptions {
  /** JSON-RPC id of the generated response (ignored with `raw`). */
  id?: string | number | null;
  /** Length of the text content (or of the whole line with `raw`), in bytes. */
  bytes: number;
  /** Append "\n" (default true). */
  newline?: boolean;
  /** Emit `bytes` filler bytes that are not JSON at all instead of a response. */
  raw?: boolean;
}

export interface FloodOptions {
  /** How many messages the relay writes, as fast as the client reads them. */
  count: number;
  /** Default "ping". */
  method?: string;
  params?: JsonObject;
  /** Ids are `${prefix}${i}` strings (default "flood-"), so that the answers can be tallied. */
  prefix?: string;
  /** Notifications (no id) instead of requests. */
  notify?: boolean;
}

/** The client's answers to a flood, counted by the relay (see `tally`). */
export interface Tally {
  answers: number;
  /** Answers with a `result`. */
  results: number;
  /** Error answers by code (and "unparsable" for lines that were not JSON). */
  errors: Record<string, number>;
}

export interface AutoInitializeOptions {
  protocolVersion?: string;
  capabilities?: JsonObject;
  serverInfo?: JsonObject;
  instructions?: string;
}

export interface RawStdioOptions {
  /** How long a command may wait for the relay's acknowledgement (default 10 s). */
  ackTimeoutMs?: number;
  /** How long `connected` waits for the relay's hello (default 10 s). */
  connectTimeoutMs?: number;
}

export interface RawStdioServer {
  /** Pass to the client's stdio connect: `{ command: process.execPath, args: [relay, port] }`. */
  readonly target: { command: string; args: string[] };
  /** Resolves on the relay's hello; rejects on close() or after connectTimeoutMs. */
  readonly connected: Promise<void>;
  /** The relay's pid once it said hello. */
  readonly pid: number | undefined;
  /** Every line the client wrote (split on "\n", "\n" removed, otherwise raw). */
  readonly lines: string[];
  /** Every line that parsed as JSON, in order (including auto-answered ones). */
  readonly messages: unknown[];
  /** Signals the relay reported receiving (only while ignoring SIGTERM). */
  readonly signals: string[];
  /** Errors thrown by responders (the client got a -32603 answer instead). */
  readonly responderErrors: unknown[];
  /** Resolves when the client closed the relay's stdin; rejects if the relay died first or on close(). */
  readonly stdinEnded: Promise<void>;
  /** Resolves when the control socket closed, i.e. the relay is gone (or close() ran). */
  readonly exited: Promise<void>;

  next(match?: MessageMatcher, timeoutMs?: number): Promise<RpcMessage>;
  onMessage(fn: (message: unknown, line: string) => void): () => void;
  handle(method: string, fn: Responder): void;
  autoInitialize(opts?: AutoInitializeOptions): void;

  send(obj: unknown): Promise<WriteAck>;
  sendRaw(text: string): Promise<WriteAck>;
  sendBig(opts: BigLineOptions): Promise<WriteAck>;
  stderr(text: string): Promise<WriteAck>;
  /** Writes these bytes to stderr as they are, in one write. */
  stderrBytes(bytes: Uint8Array): Promise<WriteAck>;
  exit(code: number, opts?: { now?: boolean }): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  spawnGrandchild(opts?: { inheritStdio?: boolean }): Promise<number>;
  ignoreSigterm(): Promise<void>;
  stayAfterStdinEnd(): Promise<void>;
  /**
   * The relay writes a flood of requests (or notifications) itself: generating 100 000
   * messages here and sending them over the control socket would measure the helper.
   * Resolves once all were written (the client read them off the pipe).
   */
  flood(opts: FloodOptions): Promise<WriteAck>;
  /**
   * From now on the relay counts the client's answers whose id starts with `prefix` instead of
   * forwarding them (they are in neither `lines` nor `messages`); everything else still arrives.
   * `undefined` stops counting.
   */
  tally(prefix: string | undefined): Promise<void>;
  /** The counts, once at least `atLeast` answers were counted (rejects after `timeoutMs`). */
  tallied(atLeast?: number, timeoutMs?: number): Promise<Tally>;
  /** The relay stops reading its stdin (the client's writes then back up in the pipe). */
  stopReading(): Promise<void>;
  resumeReading(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_CAPABILITIES: JsonObject = {
  tools: {},
  resources: { subscribe: true, listChanged: true },
  prompts: {},
  logging: {},
  completions: {},
};

// ---------------------------------------------------------------------------
// Generic building blocks (also used by raw-http.ts)
// ---------------------------------------------------------------------------

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: Error): void;
  readonly settled: boolean;
}

/**
 * A promise with external settle functions. Rejections are pre-observed so a
 * state promise nobody awaits (e.g. `stdinEnded` after close()) never becomes
 * an unhandled rejection; awaiting it still throws.
 */
export function deferred<T>(): Deferred<T> {
  let settled = false;
  let res!: (v: T) => void;
  let rej!: (e: Error) => void;
  const promise = new Promise<T>((a, b) => {
    res = a;
    rej = b;
  });
  promise.catch(() => {});
  return {
    promise,
    get settled() {
      return settled;
    },
    resolve(v) {
      if (settled) return;
      settled = true;
      res(v);
    },
    reject(e) {
      if (settled) return;
      settled = true;
      rej(e);
    },
  };
}

/** Rejects with a descriptive error if `promise` does not settle in time. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Waiter<T> {
  match: (item: T) => boolean;
  what: string;
  resolve(item: T): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Items arriving over time, consumed by `next(match)`: an already-received,
 * unconsumed item is returned first, otherwise the first matching arrival.
 * Each item goes to at most one waiter.
 */
export class Inbox<T> {
  private readonly pending: T[] = [];
  private readonly waiters: Waiter<T>[] = [];
  private closedReason: string | undefined;

  /** `history` renders what arrived so far, for timeout messages. */
  constructor(private readonly history: () => string) {}

  push(item: T): void {
    const i = this.waiters.findIndex((w) => safeMatch(w.match, item));
    const waiter = i === -1 ? undefined : this.waiters.splice(i, 1)[0];
    if (waiter) {
      clearTimeout(waiter.timer);
      waiter.resolve(item);
    } else {
      this.pending.push(item);
    }
  }

  next(match: (item: T) => boolean, timeoutMs: number, what: string): Promise<T> {
    const i = this.pending.findIndex((item) => safeMatch(match, item));
    if (i !== -1) return Promise.resolve(this.pending.splice(i, 1)[0] as T);
    if (this.closedReason !== undefined) {
      return Promise.reject(new Error(`${what}: ${this.closedReason}\n${this.history()}`));
    }
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        match,
        what,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.drop(waiter);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${this.history()}`));
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Nothing more will arrive: fail current and future waits that cannot be met. */
  close(reason: string): void {
    this.closedReason ??= reason;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error(`${w.what}: ${reason}\n${this.history()}`));
    }
  }

  private drop(waiter: Waiter<T>): void {
    const i = this.waiters.indexOf(waiter);
    if (i !== -1) this.waiters.splice(i, 1);
  }
}

/** A throwing predicate (e.g. `m.params.x` on a message without params) is a non-match. */
function safeMatch<T>(match: (item: T) => boolean, item: T): boolean {
  try {
    return match(item);
  } catch {
    return false;
  }
}

/** Splits a stream of text chunks into lines without quadratic re-scanning. */
export class LineSplitter {
  private parts: string[] = [];
  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    let start = 0;
    let nl = chunk.indexOf("\n");
    while (nl !== -1) {
      this.parts.push(chunk.slice(start, nl));
      this.onLine(this.parts.join(""));
      this.parts = [];
      start = nl + 1;
      nl = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) this.parts.push(chunk.slice(start));
  }

  /** Emits an unterminated trailing line, if any (at end of stream). */
  flush(): void {
    if (this.parts.length === 0) return;
    const rest = this.parts.join("");
    this.parts = [];
    this.onLine(rest);
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function matcherFor(match: MessageMatcher | undefined): (m: RpcMessage) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === "string") return (m) => m.method === match;
  return match;
}

export function describeMatcher(match: MessageMatcher | undefined): string {
  if (match === undefined) return "any message";
  return typeof match === "string" ? `method "${match}"` : "a message matching the predicate";
}

export function isErrorAnswer(answer: JsonObject): answer is { error: RpcError } {
  return Object.keys(answer).length === 1 && isObject(answer["error"]);
}

/** Builds the JSON-RPC response for a responder's answer. */
export function responseFor(id: RpcMessage["id"], answer: JsonObject): JsonObject {
  return isErrorAnswer(answer)
    ? { jsonrpc: "2.0", id, error: answer.error }
    : { jsonrpc: "2.0", id, result: answer };
}

export function initializeResult(message: RpcMessage, opts: AutoInitializeOptions = {}): JsonObject {
  const requested = message.params?.["protocolVersion"];
  const result: JsonObject = {
    protocolVersion: opts.protocolVersion ?? requested,
    capabilities: opts.capabilities ?? DEFAULT_CAPABILITIES,
    serverInfo: opts.serverInfo ?? { name: "raw", version: "0" },
  };
  if (opts.instructions !== undefined) result["instructions"] = opts.instructions;
  return result;
}

export function isRequest(m: RpcMessage): m is RpcMessage & { method: string; id: string | number } {
  return typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number");
}

export function truncate(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

// ---------------------------------------------------------------------------
// Process helpers
// ---------------------------------------------------------------------------

/** True while `pid` runs; zombies (exited, not yet reaped) count as gone. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  const state = procState(pid);
  return state !== "Z" && state !== "X";
}

function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/**
 * SIGKILLs `pid` unless /proc shows it is now some other program (pid reuse
 * after the original died). Where /proc is unavailable, kills unconditionally.
 */
export function killIfOurs(pid: number, marker: string): void {
  if (!isProcessAlive(pid)) return;
  let cmdline: string | undefined;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    cmdline = process.platform === "linux" ? "" : undefined;
  }
  if (cmdline !== undefined && !cmdline.includes(marker)) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Polls until `pid` is gone; false if it is still alive at the deadline. */
export async function waitForDeath(pid: number, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await delay(20);
  }
  return true;
}

const GRANDCHILD_MARKER = "setInterval(()=>{},1000)";

// Last line of defence if a test forgets close() or the worker dies: kill
// whatever we know of synchronously on exit.
const liveServers = new Set<RawStdio>();
let exitHookInstalled = false;
function track(server: RawStdio): void {
  liveServers.add(server);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const s of liveServers) s.killAllSync();
  });
}

// ---------------------------------------------------------------------------
// The helper
// ---------------------------------------------------------------------------

interface Ack extends JsonObject {
  t: "ack";
  seq: number;
  error?: string;
  bytes?: number;
  pid?: number;
}

interface PendingAck {
  resolve(ack: Ack): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

const BIG_ACK_TIMEOUT_MS = 120_000;

class RawStdio implements RawStdioServer {
  readonly target: { command: string; args: string[] };
  readonly lines: string[] = [];
  readonly messages: unknown[] = [];
  readonly signals: string[] = [];
  readonly responderErrors: unknown[] = [];

  private readonly connectedD = deferred<void>();
  private readonly stdinEndedD = deferred<void>();
  private readonly exitedD = deferred<void>();
  private readonly inbox = new Inbox<RpcMessage>(() => this.describeReceived());
  private readonly clientLines = new LineSplitter((line) => this.onClientLine(line));
  private readonly controlLines = new LineSplitter((line) => this.onControlLine(line));
  private readonly responders = new Map<string, Responder>();
  private readonly listeners = new Set<(message: unknown, line: string) => void>();
  private readonly acks = new Map<number, PendingAck>();
  private readonly grandchildren = new Set<number>();
  /** Commands issued before the relay connected, flushed in order on connect. */
  private outbox: string[] = [];
  private ctl: net.Socket | undefined;
  private relayPid: number | undefined;
  private seq = 0;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly server: net.Server,
    port: number,
    private readonly opts: Required<RawStdioOptions>,
  ) {
    this.target = { command: process.execPath, args: [RELAY_PATH, String(port)] };
    server.on("connection", (socket) => this.onConnection(socket));
    const timer = setTimeout(
      () => this.connectedD.reject(new Error(`raw relay did not connect within ${opts.connectTimeoutMs} ms`)),
      opts.connectTimeoutMs,
    );
    timer.unref();
    void this.connectedD.promise.then(
      () => clearTimeout(timer),
      () => clearTimeout(timer),
    );
  }

  get connected(): Promise<void> {
    return this.connectedD.promise;
  }
  get stdinEnded(): Promise<void> {
    return this.stdinEndedD.promise;
  }
  get exited(): Promise<void> {
    return this.exitedD.promise;
  }
  get pid(): number | undefined {
    return this.relayPid;
  }

  // --- incoming -------------------------------------------------------------

  next(match?: MessageMatcher, timeoutMs = 5000): Promise<RpcMessage> {
    return this.inbox.next(matcherFor(match), timeoutMs, describeMatcher(match));
  }

  onMessage(fn: (message: unknown, line: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  handle(method: string, fn: Responder): void {
    this.responders.set(method, fn);
  }

  autoInitialize(opts: AutoInitializeOptions = {}): void {
    this.handle("initialize", (m) => initializeResult(m, opts));
    // A legacy server knows no server/discover: the client's era probe falls back at once.
    this.handle("server/discover", () => ({ error: { code: -32601, message: "Method not found" } }));
  }

  // --- outgoing -------------------------------------------------------------

  send(obj: unknown): Promise<WriteAck> {
    return this.sendRaw(JSON.stringify(obj) + "\n");
  }

  sendRaw(text: string): Promise<WriteAck> {
    return this.write({ t: "stdout", data: text });
  }

  sendBig(opts: BigLineOptions): Promise<WriteAck> {
    const cmd = {
      t: "stdout-bytes",
      mode: opts.raw ? "raw" : "response",
      id: opts.id ?? null,
      size: opts.bytes,
      newline: opts.newline ?? true,
    };
    return this.write(cmd, Math.max(this.opts.ackTimeoutMs, BIG_ACK_TIMEOUT_MS));
  }

  stderr(text: string): Promise<WriteAck> {
    return this.write({ t: "stderr", data: text });
  }

  stderrBytes(bytes: Uint8Array): Promise<WriteAck> {
    return this.write({ t: "stderr", base64: Buffer.from(bytes).toString("base64") });
  }

  async exit(code: number, opts: { now?: boolean } = {}): Promise<void> {
    // No ack: the relay leaves instead, which closes the control socket.
    this.post({ t: "exit", code, now: opts.now ?? false });
    await withTimeout(this.exited, this.opts.ackTimeoutMs, `relay to exit with code ${code}`);
  }

  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    await this.effect({ t: "kill-self", signal });
  }

  async spawnGrandchild(opts: { inheritStdio?: boolean } = {}): Promise<number> {
    const ack = await this.effect({ t: "spawn-grandchild", inheritStdio: opts.inheritStdio ?? false });
    if (typeof ack.pid !== "number") throw new Error("relay did not report the grandchild pid");
    this.grandchildren.add(ack.pid);
    return ack.pid;
  }

  async ignoreSigterm(): Promise<void> {
    await this.effect({ t: "ignore-sigterm" });
  }

  async stayAfterStdinEnd(): Promise<void> {
    await this.effect({ t: "stay-after-stdin-end" });
  }

  flood(opts: FloodOptions): Promise<WriteAck> {
    const cmd = { t: "flood", count: opts.count, method: opts.method ?? "ping", params: opts.params, prefix: opts.prefix ?? "flood-", notify: opts.notify ?? false };
    return this.write(cmd, Math.max(this.opts.ackTimeoutMs, BIG_ACK_TIMEOUT_MS));
  }

  async tally(prefix: string | undefined): Promise<void> {
    await this.effect({ t: "tally", prefix: prefix ?? null });
  }

  async tallied(atLeast = 0, timeoutMs = this.opts.ackTimeoutMs): Promise<Tally> {
    const ack = await this.command({ t: "tally-wait", atLeast }, timeoutMs);
    if (ack.error !== undefined || !isObject(ack["tally"])) throw new Error(`raw relay: tally-wait failed: ${ack.error ?? "no tally (is one on?)"}`);
    return ack["tally"] as unknown as Tally;
  }

  async stopReading(): Promise<void> {
    await this.effect({ t: "pause-stdin" });
  }

  async resumeReading(): Promise<void> {
    await this.effect({ t: "resume-stdin" });
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** Synchronous best effort for process exit: no waiting possible there. */
  killAllSync(): void {
    for (const pid of this.grandchildren) killIfOurs(pid, GRANDCHILD_MARKER);
    if (this.relayPid !== undefined && !this.exitedD.settled) killIfOurs(this.relayPid, RELAY_PATH);
  }

  // --- control socket ---------------------------------------------------------

  private onConnection(socket: net.Socket): void {
    if (this.ctl || this.closing) {
      // One relay per helper; a second process gets refused and exits.
      socket.destroy();
      return;
    }
    this.ctl = socket;
    this.server.close(); // stop accepting; the established socket lives on
    socket.setNoDelay(true);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => this.controlLines.push(chunk));
    socket.on("error", () => {}); // 'close' follows and does the bookkeeping
    socket.on("close", () => this.onControlClose());
    for (const line of this.outbox) socket.write(line);
    this.outbox = [];
  }

  private onControlLine(line: string): void {
    let msg: JsonObject;
    try {
      msg = JSON.parse(line) as JsonObject;
    } catch {
      return; // the relay only sends JSON; ignore anything else rather than throw in an event handler
    }
    switch (msg["t"]) {
      case "hello":
        this.relayPid = msg["pid"] as number;
        track(this);
        this.connectedD.resolve();
        break;
      case "stdin":
        this.clientLines.push(String(msg["data"]));
        break;
      case "stdin-end":
        this.clientLines.flush();
        this.stdinEndedD.resolve();
        break;
      case "signal":
        this.signals.push(String(msg["signal"]));
        break;
      case "ack":
        this.onAck(msg as Ack);
        break;
    }
  }

  private onAck(ack: Ack): void {
    const pending = this.acks.get(ack.seq);
    if (!pending) return;
    this.acks.delete(ack.seq);
    clearTimeout(pending.timer);
    pending.resolve(ack);
  }

  private onControlClose(): void {
    const reason = this.closing ? "helper closed" : "relay exited";
    this.clientLines.flush();
    this.inbox.close(reason);
    this.connectedD.reject(new Error(`raw relay: ${reason} before hello`));
    this.stdinEndedD.reject(new Error(`raw relay: ${reason} before its stdin ended`));
    this.failAcks(reason);
    this.exitedD.resolve();
  }

  private failAcks(reason: string): void {
    for (const [seq, pending] of this.acks) {
      clearTimeout(pending.timer);
      pending.reject(new Error(`raw relay: ${reason} before acknowledging command #${seq}`));
    }
    this.acks.clear();
  }

  /** Sends a command without waiting for anything. */
  private post(cmd: JsonObject): void {
    const line = JSON.stringify(cmd) + "\n";
    if (this.ctl) this.ctl.write(line);
    else this.outbox.push(line);
  }

  /** Sends a command and resolves with its ack (which may carry an error). */
  private command(cmd: JsonObject, timeoutMs = this.opts.ackTimeoutMs): Promise<Ack> {
    if (this.closing || this.exitedD.settled) {
      return Promise.reject(new Error(`raw relay: cannot send ${String(cmd["t"])}, relay is gone`));
    }
    const seq = ++this.seq;
    return new Promise<Ack>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.acks.delete(seq);
        reject(new Error(`raw relay: no ack for ${String(cmd["t"])} #${seq} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.acks.set(seq, { resolve, reject, timer });
      this.post({ ...cmd, seq });
    });
  }

  /**
   * Writes report failure in the result instead of rejecting: misbehaving-
   * server tests often write while the client is tearing the pipe down, and a
   * fire-and-forget write must not turn into an unhandled rejection.
   */
  private write(cmd: JsonObject, timeoutMs?: number): Promise<WriteAck> {
    return this.command(cmd, timeoutMs).then(
      (ack) => ({ ok: ack.error === undefined, bytes: ack.bytes ?? 0, ...(ack.error ? { error: ack.error } : {}) }),
      (err: Error) => ({ ok: false, bytes: 0, error: err.message }),
    );
  }

  /** A command with side effects other than writing: failures reject. */
  private async effect(cmd: JsonObject): Promise<Ack> {
    const ack = await this.command(cmd);
    if (ack.error !== undefined) throw new Error(`raw relay: ${String(cmd["t"])} failed: ${ack.error}`);
    return ack;
  }

  // --- client messages ---------------------------------------------------------

  private onClientLine(line: string): void {
    this.lines.push(line);
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return; // kept in `lines` only
    }
    this.messages.push(parsed);
    for (const fn of this.listeners) fn(parsed, line);
    if (isObject(parsed)) this.dispatch(parsed);
  }

  /** Auto-answered requests are consumed; everything else waits for next(). */
  private dispatch(message: RpcMessage): void {
    const responder = isRequest(message) ? this.responders.get(message.method) : undefined;
    if (!responder) {
      this.inbox.push(message);
      return;
    }
    let answer: Answer | Promise<Answer>;
    try {
      answer = responder(message);
    } catch (err) {
      this.answerWithError(message, err);
      return;
    }
    // Synchronous answers are written synchronously so their order relative
    // to test-issued writes is exactly the order of events.
    if (answer instanceof Promise) {
      answer.then(
        (a) => this.answer(message, a),
        (err: unknown) => this.answerWithError(message, err),
      );
    } else {
      this.answer(message, answer);
    }
  }

  private answer(message: RpcMessage, answer: Answer): void {
    if (answer === undefined) {
      this.inbox.push(message);
      return;
    }
    if (this.closing || this.exitedD.settled) return;
    void this.send(responseFor(message.id, answer));
  }

  private answerWithError(message: RpcMessage, err: unknown): void {
    this.responderErrors.push(err);
    this.answer(message, { error: { code: -32603, message: `responder failed: ${String(err)}` } });
  }

  private describeReceived(): string {
    const tail = this.lines.slice(-20).map((l) => `  ${truncate(l)}`);
    const skipped = this.lines.length - tail.length;
    return [
      `received ${this.lines.length} line(s) from the client${skipped > 0 ? ` (last ${tail.length} shown)` : ""}:`,
      ...tail,
    ].join("\n");
  }

  // --- teardown ----------------------------------------------------------------

  private async shutdown(): Promise<void> {
    this.inbox.close("helper closed");
    this.connectedD.reject(new Error("raw relay: helper closed before hello"));
    this.stdinEndedD.reject(new Error("raw relay: helper closed before the relay's stdin ended"));
    await this.stopRelay();
    await this.stopGrandchildren();
    this.server.close();
    this.failAcks("helper closed");
    this.exitedD.resolve();
    liveServers.delete(this);
  }

  /** Ending the control socket makes the relay exit; SIGKILL if it does not. */
  private async stopRelay(): Promise<void> {
    const ctl = this.ctl;
    if (!ctl || this.exitedD.settled) return;
    ctl.end();
    const gone = await withTimeout(this.exited, 2000, "relay exit").then(
      () => true,
      () => false,
    );
    if (!gone && this.relayPid !== undefined) killIfOurs(this.relayPid, RELAY_PATH);
    ctl.destroy();
    if (this.relayPid !== undefined) await waitForDeath(this.relayPid);
  }

  private async stopGrandchildren(): Promise<void> {
    for (const pid of this.grandchildren) killIfOurs(pid, GRANDCHILD_MARKER);
    await Promise.all([...this.grandchildren].map((pid) => waitForDeath(pid)));
  }
}

/** Starts the control listener; spawn the relay via `server.target`. */
export async function startRawStdio(options: RawStdioOptions = {}): Promise<RawStdioServer> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("unexpected server address");
  return new RawStdio(server, address.port, {
    ackTimeoutMs: options.ackTimeoutMs ?? 10_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
  });
}
