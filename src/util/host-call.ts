/**
 * Code the host gives Conduit (`onStderr`, `onProgress`, a logger) runs inside stream listeners
 * and timers, where a throw would be an uncaught exception and a rejected promise an unhandled
 * rejection: either takes the host down. Every such call goes through here; what it throws or
 * rejects with is reported and goes no further. (Handler callbacks and notification hooks are
 * supervised instead, in `input/supervisor.ts`.)
 */
import type { Logger } from "./logger.js";

/** Calls `fn(arg)`; a throw or a rejection is logged as a failure of `what`. */
export function callHost<A>(logger: Logger, what: string, fn: (arg: A) => unknown, arg: A): void {
  try {
    const returned = fn(arg);
    if (isThenable(returned)) returned.then(undefined, (error: unknown) => logger.warn(`${what} rejected`, { error }));
  } catch (error) {
    logger.warn(`${what} threw`, { error });
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * The host's logger, made safe to call from anywhere: a method that throws or rejects is
 * reported once on stderr (a logger cannot report on itself) and otherwise ignored.
 */
export function guardLogger(logger: Logger): Logger {
  let reported = false;
  const guard =
    (level: keyof Logger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      try {
        const returned: unknown = logger[level](message, fields);
        if (isThenable(returned)) returned.then(undefined, complain);
      } catch (error) {
        complain(error);
      }
    };
  const complain = (error: unknown): void => {
    if (reported) return;
    reported = true;
    try {
      process.stderr.write(`[conduit] the logger given to the client failed; its failures are ignored from now on: ${String(error)}\n`);
    } catch {
      // Nowhere left to say it.
    }
  };
  return { debug: guard("debug"), info: guard("info"), warn: guard("warn"), error: guard("error") };
}
