/**
 * The few things below the transports that the web's standard does not give, filled by the Node
 * entry (`node.ts`) as it loads; the web entry leaves them empty and each caller says what it
 * does then. (The transports' own seam is `platform.ts`.)
 */
import type { Utf8Stream } from "./bytes.js";

export interface LowRuntime {
  /**
   * Lifts the listener bound that Node warns past (MaxListenersExceededWarning) on an
   * AbortSignal that many calls listen to; the web has no such bound.
   */
  unboundListeners?: ((signal: AbortSignal) => void) | undefined;
  /** A streaming UTF-8 decoder lighter than a TextDecoder (Node's StringDecoder). */
  utf8Stream?: (() => Utf8Stream) | undefined;
  /** The process's environment, for a config's `${env:NAME}`. */
  env?: (() => Readonly<Record<string, string | undefined>>) | undefined;
  /** Reads a UTF-8 file, for a config given by its path. */
  readTextFile?: ((path: string) => Promise<string>) | undefined;
  /** The PKCS #8 DER of any PEM private key Node reads (PKCS #1, SEC 1, PKCS #8). */
  pkcs8FromPem?: ((pem: string) => Promise<Uint8Array>) | undefined;
}

let low: LowRuntime = {};

/** Called by the Node entry as it loads. */
export function installLowRuntime(given: LowRuntime): void {
  low = Object.assign({}, low, given);
}

export function lowRuntime(): Readonly<LowRuntime> {
  return low;
}

/** Lets `timer` not hold the process open, where timers can do that (Node, Bun, Deno). */
export function unref(timer: unknown): void {
  (timer as { unref?: () => void } | undefined)?.unref?.();
}

/** Lets `timer` hold the process open again (the reverse of `unref`). */
export function ref(timer: unknown): void {
  (timer as { ref?: () => void } | undefined)?.ref?.();
}

/**
 * Runs `work` in a later turn of the event loop, after what is queued now (promise jobs and I/O
 * already due): `setImmediate` where there is one (Node, Bun, Deno), else a zero-delay timer.
 */
export function nextTurn(work: () => void): void {
  const immediate = (globalThis as { setImmediate?: (work: () => void) => unknown }).setImmediate;
  if (immediate !== undefined) immediate(work);
  else setTimeout(work, 0);
}
