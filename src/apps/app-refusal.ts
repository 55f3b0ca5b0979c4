/**
 * How the session answers a view's request it will not or cannot serve, and the bound on the
 * host's own answers. A host callback that never settles must not leave the view's request open
 * for ever, nor hold one of the session's in-flight places.
 */
import { ClientError, ErrorCode, InvalidArgumentError, RpcError } from "../util/errors.js";
import { isThenable } from "../util/awaitable.js";
import { unref } from "../util/runtime.js";
import type { Refusal } from "../util/assert.js";
import type { Logger } from "../util/logger.js";
import { safeText } from "../util/sanitize.js";

/** A refusal on its way to the view as a JSON-RPC error. */
export class AppRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  static of(refusal: Refusal): AppRefusal {
    return new AppRefusal(refusal.code, refusal.message);
  }
}

/** Implementation-defined, as the spec's examples use it for "denied": a refusal by policy. */
export const POLICY = ErrorCode.ServerBusy;

/** Waits for what a host callback returned, at most `ms`; the session's end ends the wait too. */
export function hostWait<T>(value: T | PromiseLike<T>, ms: number, signal: AbortSignal, what: string): Promise<T> {
  if (!isThenable(value)) return Promise.resolve(value);
  return new Promise<T>((resolve, reject) => {
    const finish = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = (): void => {
      finish();
      reject(new AppRefusal(POLICY, "the app is being closed"));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new AppRefusal(POLICY, `the host did not answer ${what} in time`));
    }, ms);
    unref(timer);
    signal.addEventListener("abort", onAbort, { once: true });
    value.then(
      (result) => {
        finish();
        resolve(result);
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}

/**
 * The JSON-RPC error a view gets for what went wrong while serving it. The server's own error
 * reaches its own view (code and message, cleaned); the client's failures only by their kind;
 * a host callback that threw an `RpcError` chose its answer; anything else is internal, logged.
 */
export function errorForView(error: unknown, logger: Logger, what: string): { code: number; message: string } {
  if (error instanceof AppRefusal) return { code: error.code, message: error.message };
  if (error instanceof RpcError) return { code: error.code, message: safeText(error.message, 1024) };
  if (error instanceof ClientError) {
    if (error.kind === "rpc" && error.code !== undefined) return { code: error.code, message: safeText(error.message, 1024) };
    return { code: ErrorCode.InternalError, message: `${what} failed (${error.kind})` };
  }
  if (error instanceof InvalidArgumentError) return { code: ErrorCode.InvalidParams, message: safeText(error.message, 1024) };
  logger.warn(`serving an app's ${what} failed`, { error });
  return { code: ErrorCode.InternalError, message: `${what} failed` };
}
