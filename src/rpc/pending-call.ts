/**
 * One outbound request waiting for its response: everything about it in one record, so that
 * settling it is one `delete` from the peer's map and one `dispose()`. It is its own deadline
 * owner and abort listener, so that a request allocates no closures beyond its promise's.
 */
import type { ClientError } from "../util/errors.js";
import type { SendOptions } from "../transport/transport.js";
import { Deadline, type DeadlineOwner, type DeadlineQueue, type ExpiryReason } from "./deadline.js";

export interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

export interface RequestOptions {
  /** Per-request timeout in ms (default 60 000). `Infinity` disables it. */
  timeout?: number | undefined;
  /** Upper bound in ms that pauses and progress never extend. */
  maxTotalTimeout?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /**
   * Restart the timeout whenever progress arrives (then `maxTotalTimeout` defaults to 10 min);
   * the request asks for progress (a `progressToken`) whether or not `onProgress` is given.
   */
  resetTimeoutOnProgress?: boolean | undefined;
}

/** Everything said about one outbound request; it is also what the transport is told of it. */
export interface PendingCallInit extends RequestOptions, SendOptions {
  /** The request's own timeout and bound (RequestOptions'), which the transport reads too. */
  timeout?: number | undefined;
  maxTotalTimeout?: number | undefined;
  /** The caller's context for Handler callbacks tied to this call. */
  assigns?: unknown;
  /** False for requests the spec forbids cancelling (`initialize`). */
  cancellable?: boolean | undefined;
  /** Learns the request's id before it is sent (to match notifications that name it). */
  onId?: ((id: number) => void) | undefined;
}

/**
 * A call in flight as the input layer sees it when a server request belongs to it: its id and
 * `assigns`, and its deadline, paused while the user answers (the pauses nest).
 */
export interface RelatedCall {
  /** Null for what a request belongs to that is no request of its own (a followed task). */
  readonly id: number | null;
  readonly assigns: unknown;
  pause(): void;
  resume(): void;
}

/** The total bound of a call whose timeout restarts on progress, when it names none (10 min). */
export const PROGRESS_TOTAL_DEFAULT = 600_000;

/** What a pending call reports to its peer. */
export interface CallHost {
  readonly deadlines: DeadlineQueue;
  /** The timeout of requests that name none. */
  readonly requestTimeout: number;
  expire(call: PendingCall, reason: ExpiryReason): void;
  abort(call: PendingCall): void;
}

/**
 * It is also what the transport is told of the request (`SendOptions`): its headers, whether it
 * starts a session, and its timeout, the default one included, which a server's `Retry-After`
 * must fit.
 */
export class PendingCall implements DeadlineOwner, RelatedCall, SendOptions {
  readonly isCall: boolean;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly startsSession: boolean | undefined;
  readonly assigns: unknown;
  readonly cancellable: boolean;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly resetOnProgress: boolean;
  readonly timeout: number;
  readonly maxTotalTimeout: number | undefined;
  readonly signal: AbortSignal | undefined;
  deadline: Deadline | undefined;
  resolve!: (value: unknown) => void;
  reject!: (error: ClientError) => void;

  /**
   * @param isCall a "call" (tools/call, resources/read, prompts/get, tasks/result): server input
   *   may relate to it
   */
  constructor(
    readonly id: number,
    readonly method: string,
    init: PendingCallInit,
    private readonly host: CallHost,
    isCall: boolean,
  ) {
    this.isCall = isCall;
    this.headers = init.headers;
    this.startsSession = init.startsSession;
    this.assigns = init.assigns;
    this.cancellable = init.cancellable !== false;
    this.onProgress = init.onProgress;
    this.resetOnProgress = init.resetTimeoutOnProgress === true;
    this.timeout = init.timeout ?? host.requestTimeout;
    // Progress that restarts the clock could keep a call alive for ever: bound it unless told.
    this.maxTotalTimeout = init.maxTotalTimeout ?? (this.resetOnProgress ? PROGRESS_TOTAL_DEFAULT : undefined);
    this.signal = init.signal;
  }

  /** Starts the deadline and listens to the signal. */
  watch(): void {
    this.deadline = new Deadline(this.host.deadlines, this.timeout, this.maxTotalTimeout, this);
    this.signal?.addEventListener("abort", this, { once: true });
  }

  pause(): void {
    this.deadline?.pause();
  }

  resume(): void {
    this.deadline?.resume();
  }

  expired(reason: ExpiryReason): void {
    this.host.expire(this, reason);
  }

  /** The signal aborted (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(): void {
    this.host.abort(this);
  }

  dispose(): void {
    this.deadline?.clear();
    this.signal?.removeEventListener("abort", this);
  }
}
