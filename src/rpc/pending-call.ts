/**
 * One outbound request waiting for its response: everything about it in one record, so that
 * settling it is one `delete` from the peer's map and one `dispose()`.
 */
import type { ClientError } from "../util/errors.js";
import { Deadline, type ExpiryReason } from "./deadline.js";

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
  /** Restart the timeout whenever progress arrives. */
  resetTimeoutOnProgress?: boolean | undefined;
}

export interface PendingCallInit extends RequestOptions {
  /** A "call" (tools/call, resources/read, prompts/get, tasks/result): server input may relate to it. */
  isCall?: boolean | undefined;
  /** The caller's context for Handler callbacks tied to this call. */
  assigns?: unknown;
  /** False for requests the spec forbids cancelling (`initialize`). */
  cancellable?: boolean | undefined;
  /** Extra HTTP headers for this request. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Learns the request's id before it is sent (to match notifications that name it). */
  onId?: ((id: number) => void) | undefined;
}

export class PendingCall {
  readonly isCall: boolean;
  readonly assigns: unknown;
  readonly cancellable: boolean;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly resetOnProgress: boolean;
  deadline: Deadline | undefined;
  resolve!: (value: unknown) => void;
  reject!: (error: ClientError) => void;
  private abortListener: (() => void) | undefined;
  private signal: AbortSignal | undefined;

  constructor(
    readonly id: number,
    readonly method: string,
    init: PendingCallInit,
  ) {
    this.isCall = init.isCall === true;
    this.assigns = init.assigns;
    this.cancellable = init.cancellable !== false;
    this.onProgress = init.onProgress;
    this.resetOnProgress = init.resetTimeoutOnProgress === true;
  }

  watch(init: PendingCallInit, onExpire: (reason: ExpiryReason) => void, onAbort: () => void): void {
    this.deadline = new Deadline(init.timeout ?? 60_000, init.maxTotalTimeout, onExpire);
    const signal = init.signal;
    if (signal !== undefined) {
      this.signal = signal;
      this.abortListener = onAbort;
      signal.addEventListener("abort", onAbort, { once: true });
    }
  }

  dispose(): void {
    this.deadline?.clear();
    if (this.abortListener !== undefined) this.signal?.removeEventListener("abort", this.abortListener);
  }
}
