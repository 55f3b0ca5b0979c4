/**
 * Runs a Handler callback apart from the connection: with its own abort signal, a deadline,
 * and the caller's signal linked in. Whatever happens first settles the outcome; a callback
 * that finishes later is ignored (it cannot be killed, but its answer is never sent).
 */
export type Supervised<T> =
  | { status: "ok"; value: T }
  | { status: "threw"; error: unknown }
  | { status: "timeout"; ms: number }
  | { status: "aborted"; reason: unknown };

const MAX_TIMER_MS = 2 ** 31 - 1;

export class HandlerTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`the handler did not answer within ${ms} ms`);
  }
}

export function supervise<T>(
  run: (signal: AbortSignal) => T | Promise<T>,
  timeoutMs: number,
  outer: AbortSignal,
): Promise<Supervised<T>> {
  if (outer.aborted) return Promise.resolve({ status: "aborted", reason: outer.reason as unknown });
  const controller = new AbortController();
  return new Promise<Supervised<T>>((resolve) => {
    let done = false;
    const finish = (outcome: Supervised<T>, abortReason?: unknown): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      outer.removeEventListener("abort", onAbort);
      if (abortReason !== undefined) controller.abort(abortReason);
      resolve(outcome);
    };
    const onAbort = (): void => finish({ status: "aborted", reason: outer.reason as unknown }, outer.reason as unknown);
    // Beyond Node's timer range (Infinity included) a delay would fire at once: no deadline then.
    const timer =
      timeoutMs <= MAX_TIMER_MS
        ? setTimeout(() => finish({ status: "timeout", ms: timeoutMs }, new HandlerTimeoutError(timeoutMs)), timeoutMs)
        : undefined;
    outer.addEventListener("abort", onAbort, { once: true });
    try {
      Promise.resolve(run(controller.signal)).then(
        (value) => finish({ status: "ok", value }),
        (error: unknown) => finish({ status: "threw", error }),
      );
    } catch (error) {
      finish({ status: "threw", error });
    }
  });
}
