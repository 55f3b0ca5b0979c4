/**
 * Where Conduit reports what it dropped or refused. A host passes its own; the default writes
 * warnings and errors to stderr and stays quiet otherwise, so that nothing is lost silently and
 * nothing floods a terminal.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function write(level: string, message: string, fields?: Record<string, unknown>): void {
  const suffix = fields === undefined ? "" : ` ${safeJson(fields)}`;
  process.stderr.write(`[conduit] ${level}: ${message}${suffix}\n`);
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
