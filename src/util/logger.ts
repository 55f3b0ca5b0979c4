/**
 * Where Conduit reports what it dropped or refused, and how it calls the host's own code.
 *
 * A host passes its own logger; the default writes warnings and errors to stderr and stays quiet
 * otherwise, so that nothing is lost silently and nothing floods a terminal.
 *
 * Code the host gives Conduit (`onStderr`, `onProgress`, a logger) runs inside stream listeners
 * and timers, where a throw would be an uncaught exception and a rejected promise an unhandled
 * rejection: either takes the host down. Every such call goes through `callHost` (and the logger
 * through `guardLogger`); what it throws or rejects with is reported and goes no further.
 * (Handler callbacks and notification hooks are supervised instead, in `input/supervisor.ts`.)
 */
import { isThenable } from "./awaitable.js";


export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function write(level: string, message: string, fields?: Record<string, unknown>): void {
  const suffix = fields === undefined ? "" : ` ${safeJson(fields)}`;
  // The console is stderr on Node, Bun and Deno, and the developer tools in a browser.
  console.error(`[conduit] ${level}: ${message}${suffix}`);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? v.message : v));
  } catch {
    return "[unserialisable]";
  }
}

const noop = (): void => {};

export const stderrLogger: Logger = {
  debug: noop,
  info: noop,
  warn: (message, fields) => write("warn", message, fields),
  error: (message, fields) => write("error", message, fields),
};

/** Calls `fn(arg)`; a throw or a rejection is logged as a failure of `what`. */
export function callHost<A>(logger: Logger, what: string, fn: (arg: A) => unknown, arg: A): void {
  try {
    const returned = fn(arg);
    if (isThenable(returned)) returned.then(undefined, (error: unknown) => logger.warn(`${what} rejected`, { error }));
  } catch (error) {
    logger.warn(`${what} threw`, { error });
  }
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
      console.error(`[conduit] the logger given to the client failed; its failures are ignored from now on: ${String(error)}`);
    } catch {
      // Nowhere left to say it.
    }
  };
  return { debug: guard("debug"), info: guard("info"), warn: guard("warn"), error: guard("error") };
}
