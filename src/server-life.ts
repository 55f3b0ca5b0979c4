/**
 * The life of one server under its id, which may span several connections: a lazy server has
 * none until its first use; one that breaks may be restarted (`restart-policy.ts`) with a new
 * connection in place of the old. The server handle asks this for the connection to use, and
 * waits here while there is none yet. A lazy server whose connect failed is tried again with the
 * same backoff as restarts: a use before its delay has passed fails at once with the last error.
 *
 * States: idle (lazy, not connected) → connecting → ready ⇄ restarting → … and at the end
 * closing → closed (the host ended it) or failed (it broke and is not brought back). Every change
 * is announced with its reason. Calls in flight when a connection breaks fail with its error
 * (`"transport"`); nothing is sent again, since a `tools/call` may have had effects. Requests made
 * while there is no connection wait for one within their own timeout.
 */
import type { Connection } from "./protocol/connection.js";
import type { LoggingLevel } from "./protocol/types/index.js";
import { RESTART_DEFAULTS, backoffDelay, type RestartPolicy } from "./restart-policy.js";
import { ClientError } from "./util/errors.js";
import { callHost, type Logger } from "./util/logger.js";
import { SpanBound, delay, now } from "./util/time.js";

export type ServerState = "idle" | "connecting" | "ready" | "restarting" | "closing" | "closed" | "failed";

/** One change of a server's state, as `client.onServerState` tells it. */
export interface ServerStateChange {
  readonly serverId: string;
  readonly state: ServerState;
  /**
   * Why: what broke the connection (`restarting`, `failed`), the last attempt's failure
   * (`connecting` again), or what a lazy connect failed with (`idle` again).
   */
  readonly reason?: ClientError | undefined;
  /** While restarting: the attempt in a row, from 1. `idle` again: the failed connects in a row. */
  readonly attempt?: number | undefined;
  /**
   * `restarting`: the wait before the attempt (ms). `idle` again: the wait before a use connects
   * again (a use sooner fails at once with `reason`).
   */
  readonly delayMs?: number | undefined;
}

/** How a server's connections are made: by the client, which knows the target and its options. */
export interface ConnectionMaker {
  /** A new connection, not yet open; `signal` stops its opening. */
  create(signal: AbortSignal | undefined): Connection;
  /** It opened: what it learnt of the target may be remembered. */
  opened(connection: Connection): void;
  /** It failed to open (its end may go on for a while). */
  failed(connection: Connection): void;
}

interface Waiter {
  resolve(connection: Connection): void;
  reject(error: ClientError): void;
}

export class ServerLife {
  private stateNow: ServerState;
  /** The connection that is or was ready; undefined before the first. */
  private current: Connection | undefined;
  /** One being opened, which a close must also end. */
  private opening: Connection | undefined;
  private starting: Promise<Connection> | undefined;
  /** Made with the first waiter: most servers never have one, and an empty Set is some 150 bytes. */
  private waiters: Set<Waiter> | undefined;
  /** The host ended the server: a restart's wait and opening stop. */
  private stopped = false;
  /** The signal of `stopped`, made when a restart first needs one (see `stopSignal`). */
  private stopper: AbortController | undefined;
  /** Attempts in a row since the server last stayed up `stableAfter`. */
  private attempts = 0;
  /** A lazy server's failed connects in a row: the last one's error, and when a use may try again. */
  private lazyFailure: { readonly reason: ClientError; readonly attempt: number; readonly retryAt: number } | undefined;
  private readyAt = 0;
  private ending: Promise<void> | undefined;
  private endedWith: ClientError | undefined;
  /** `ended`, made when first asked for (most hosts never ask): no promise and resolver kept per server till then. */
  private endedPromise: Promise<ClientError | undefined> | undefined;
  private resolveEnded: ((error: ClientError | undefined) => void) | undefined;
  /** The log level the host set, asked for again of every new connection. */
  logLevel: LoggingLevel | undefined;

  constructor(
    readonly serverId: string,
    private readonly maker: ConnectionMaker,
    private readonly policy: RestartPolicy | undefined,
    private readonly announce: (change: ServerStateChange) => void,
    private readonly release: () => void,
    private readonly logger: Logger,
    /** How long a request waits for a connection when it gives no timeout (the client's). */
    readonly requestTimeout: number,
    lazy: boolean,
  ) {
    this.stateNow = lazy ? "idle" : "connecting";
  }

  /** Resolves once the server's life is over: with what broke it, or undefined when the host ended it. */
  get ended(): Promise<ClientError | undefined> {
    if (this.endedPromise === undefined) {
      const over = this.stateNow === "closed" || this.stateNow === "failed";
      this.endedPromise = over ? Promise.resolve(this.endedWith) : new Promise((resolve) => (this.resolveEnded = resolve));
    }
    return this.endedPromise;
  }

  get state(): ServerState {
    return this.stateNow;
  }

  /** Why the server's life ended, once it has and if something broke it. */
  get endError(): ClientError | undefined {
    return this.endedWith;
  }

  /** The connection to use now. A lazy server that never connected has none: a usage error. */
  get connection(): Connection {
    const connection = this.current ?? this.opening;
    if (connection === undefined && this.ended_()) throw this.endedError();
    if (connection === undefined) {
      throw new ClientError("usage", `server "${this.serverId}" is not connected yet: it connects on its first use (or await its ready())`, { serverId: this.serverId });
    }
    return connection;
  }

  /** The connection that is or was ready, else the one being opened; undefined before either. */
  get latest(): Connection | undefined {
    return this.current ?? this.opening;
  }

  /** A connection is there to send on now (no wait, no end): the fast path of a call. */
  get live(): boolean {
    return !this.waits && this.current !== undefined;
  }

  /** Whether a request must wait here for a connection rather than go to the current one. */
  get waits(): boolean {
    const state = this.stateNow;
    return state === "idle" || state === "restarting" || state === "connecting";
  }

  /** The first connect (the client's `connect`, or a lazy server's first use). */
  start(signal: AbortSignal | undefined): Promise<Connection> {
    this.starting ??= this.open(signal).finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async open(signal: AbortSignal | undefined): Promise<Connection> {
    const lazy = this.stateNow === "idle";
    let connection: Connection | undefined;
    try {
      // Made before anyone hears "connecting": a close from that listener must find it to end it.
      // The connect's own signal; a close ends the opening through `opening`, as "closed".
      connection = this.maker.create(signal);
      this.opening = connection;
      this.set({ state: "connecting" });
      await connection.open();
      // A close may have come while it opened: it has ended `opening`, which is not adopted.
      if (this.stopped) throw this.endedError();
    } catch (error) {
      if (connection !== undefined) {
        this.opening = undefined;
        this.maker.failed(connection);
        if (connection.state === "ready") void connection.close();
      }
      const reason = asClientError(error, this.serverId);
      if (this.stateNow === "connecting") {
        if (lazy) {
          const attempt = (this.lazyFailure?.attempt ?? 0) + 1;
          const wait = backoffDelay(this.policy ?? RESTART_DEFAULTS, attempt);
          this.lazyFailure = { reason, attempt, retryAt: now() + wait };
          this.set({ state: "idle", reason, attempt, delayMs: wait });
          this.settleWaiters(reason);
        } else {
          this.finish("failed", reason);
        }
      }
      throw error;
    }
    this.opening = undefined;
    this.adopt(connection);
    return connection;
  }

  /**
   * The connection once there is one ready: at once when ready, else after a lazy connect or a
   * restart, within `timeout` ms and until `signal`. A server whose life ended fails `"closed"`.
   */
  async ready(timeout: number, signal: AbortSignal | undefined): Promise<Connection> {
    if (this.stateNow === "ready") return this.current!;
    if (this.ended_()) throw this.endedError();
    // A caller that already gave up neither waits nor starts a lazy connect.
    if (signal?.aborted === true) throw new ClientError("cancelled", `waiting for server "${this.serverId}" was cancelled`, { serverId: this.serverId, cause: signal.reason });
    if (this.stateNow === "idle") {
      const held = this.heldBack();
      if (held !== undefined) throw held;
      void this.start(undefined).catch(() => {});
    }
    if (this.ended_()) throw this.endedError();
    const bound = new SpanBound([signal], timeout, () => new ClientError("timeout", `server "${this.serverId}" was not ready within ${timeout} ms`, { serverId: this.serverId }));
    try {
      return await new Promise<Connection>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject };
        (this.waiters ??= new Set()).add(waiter);
        bound.signal.addEventListener(
          "abort",
          () => {
            this.waiters?.delete(waiter);
            const reason: unknown = bound.signal.reason;
            reject(bound.timedOut ? reason : new ClientError("cancelled", `waiting for server "${this.serverId}" was cancelled`, { serverId: this.serverId, cause: reason }));
          },
          { once: true },
        );
      });
    } finally {
      bound.dispose();
    }
  }

  /**
   * The error a use of a lazy server meets while the backoff after its last failed connect runs:
   * the last error's kind, saying when the next use connects; undefined once it may.
   */
  private heldBack(): ClientError | undefined {
    const failure = this.lazyFailure;
    if (failure === undefined) return undefined;
    const left = Math.ceil(failure.retryAt - now());
    if (left <= 0) return undefined;
    const { reason } = failure;
    return new ClientError(reason.kind, `${reason.message} (server "${this.serverId}" failed to connect ${failure.attempt === 1 ? "once" : `${failure.attempt} times in a row`}; a use in ${left} ms or later connects again)`, {
      serverId: this.serverId,
      cause: reason,
      code: reason.code,
      data: reason.data,
    });
  }

  private adopt(connection: Connection): void {
    this.lazyFailure = undefined;
    this.current = connection;
    this.readyAt = now();
    this.maker.opened(connection);
    this.set({ state: "ready" });
    this.settleWaiters(connection);
    connection.watchEnd(this);
  }

  /** @see EndWatcher: a ready connection ended. Unless the host ended it, the server is restarted or has failed. */
  connectionEnded(connection: Connection, error: ClientError | undefined): void {
    if (connection !== this.current || this.stateNow !== "ready") return;
    if (error === undefined) return this.finish("closed", undefined);
    this.logger.warn(`server "${this.serverId}" disconnected: ${error.message}`);
    if (this.policy === undefined) return this.finish("failed", error);
    if (now() - this.readyAt >= this.policy.stableAfter) this.attempts = 0;
    void this.restart(this.policy, error);
  }

  private async restart(policy: RestartPolicy, broken: ClientError): Promise<void> {
    let reason = broken;
    for (;;) {
      this.attempts++;
      if (this.attempts > policy.maxRestarts) {
        const given = this.attempts - 1;
        return this.finish(
          "failed",
          new ClientError("transport", `server "${this.serverId}" is not restarted again: it broke ${given === 0 ? "and restarts are off" : `after ${given} restart${given === 1 ? "" : "s"} in a row`} (last: ${reason.message})`, {
            serverId: this.serverId,
            cause: reason,
            data: { restarts: given },
          }),
        );
      }
      const wait = backoffDelay(policy, this.attempts);
      this.set({ state: "restarting", reason, attempt: this.attempts, delayMs: wait });
      try {
        await delay(wait, this.stopSignal);
      } catch {
        return; // the host ended the server meanwhile
      }
      let connection: Connection | undefined;
      try {
        connection = this.maker.create(this.stopSignal);
        this.opening = connection;
        this.set({ state: "connecting", reason, attempt: this.attempts });
        await connection.open();
      } catch (error) {
        if (connection !== undefined) {
          if (this.opening === connection) this.opening = undefined;
          this.maker.failed(connection);
        }
        if (this.stopped) return;
        reason = asClientError(error, this.serverId);
        continue;
      }
      // The new connection asks for the level the host set on the old one.
      if (this.logLevel !== undefined) {
        try {
          await connection.setLogLevel(this.logLevel, {});
        } catch (error) {
          this.logger.warn(`server "${this.serverId}" was restarted but refused the log level ${this.logLevel}: ${(error as Error).message}`);
        }
      }
      this.opening = undefined;
      if (this.stopped) return;
      return this.adopt(connection);
    }
  }

  /** Ends the server's life gracefully (the connection's close, and one being opened). */
  close(): Promise<void> {
    this.ending ??= this.end(undefined, false);
    return this.ending;
  }

  /** Ends it at once, also a close under way. */
  destroy(reason: ClientError): Promise<void> {
    const destroyed = this.end(reason, true);
    this.ending ??= destroyed;
    return destroyed;
  }

  private async end(reason: ClientError | undefined, immediate: boolean): Promise<void> {
    const state = this.stateNow;
    if (state === "closed" || state === "failed") return;
    if (state !== "closing") this.set({ state: "closing" });
    this.stopped = true;
    this.stopper?.abort();
    const connections = [this.opening, this.current].filter((connection) => connection !== undefined);
    await Promise.allSettled(connections.map((connection) => (immediate ? connection.destroy(reason) : connection.close())));
    await Promise.allSettled(connections.map((connection) => connection.ended));
    this.finish("closed", undefined);
  }

  private finish(state: "closed" | "failed", error: ClientError | undefined): void {
    if (this.stateNow === "closed" || this.stateNow === "failed") return;
    this.endedWith = error;
    this.set({ state, reason: error });
    this.release();
    this.settleWaiters(this.endedError());
    this.resolveEnded?.(error);
  }

  /** Closing, closed or failed: the server's life is over, or ending. */
  private ended_(): boolean {
    const state = this.stateNow;
    return state === "closing" || state === "closed" || state === "failed";
  }

  private endedError(): ClientError {
    return new ClientError("closed", `server "${this.serverId}" is ${this.stateNow === "failed" ? "down" : "closed"}`, { serverId: this.serverId, cause: this.endedWith });
  }

  /**
   * Aborted once the host ended the server. Made on first use, by a restart: an AbortSignal is
   * some 700 bytes with its listener maps, held by every server for a restart most never have.
   */
  private get stopSignal(): AbortSignal {
    if (this.stopper === undefined) {
      this.stopper = new AbortController();
      if (this.stopped) this.stopper.abort();
    }
    return this.stopper.signal;
  }

  private settleWaiters(outcome: Connection | ClientError): void {
    if (this.waiters === undefined) return;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const waiter of waiters) {
      if (outcome instanceof ClientError) waiter.reject(outcome);
      else waiter.resolve(outcome);
    }
  }

  private set(change: Omit<ServerStateChange, "serverId">): void {
    this.stateNow = change.state;
    callHost(this.logger, "onServerState", this.announce, { serverId: this.serverId, ...change });
  }
}

function asClientError(error: unknown, serverId: string): ClientError {
  return error instanceof ClientError ? error : new ClientError("transport", String(error), { serverId, cause: error });
}
