// A logger that records what the client reports, so tests can assert on it and stay quiet.
import type { Logger } from "../../src/node.js";

export interface LogEntry {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields?: Record<string, unknown> | undefined;
}

export interface CapturingLogger extends Logger {
  entries: LogEntry[];
  /** Messages at warn or error whose text contains `needle`. */
  warnings(needle?: string): string[];
  /** Messages at exactly this level. */
  at(level: LogEntry["level"]): string[];
}

export function capturingLogger(): CapturingLogger {
  const entries: LogEntry[] = [];
  const record = (level: LogEntry["level"]) => (message: string, fields?: Record<string, unknown>) => {
    entries.push({ level, message, fields });
  };
  return {
    entries,
    debug: record("debug"),
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
    at: (level) => entries.filter((e) => e.level === level).map((e) => e.message),
    warnings: (needle = "") =>
      entries.filter((e) => (e.level === "warn" || e.level === "error") && e.message.includes(needle)).map((e) => e.message),
  };
}

/** A logger that records each message it is given and then throws, as a broken host logger would. */
export function throwingLogger(): CapturingLogger {
  const inner = capturingLogger();
  const failing = (level: LogEntry["level"]) => (message: string, fields?: Record<string, unknown>) => {
    inner[level](message, fields);
    throw new Error(`the host's logger failed on a ${level} entry`);
  };
  return { ...inner, debug: failing("debug"), info: failing("info"), warn: failing("warn"), error: failing("error") };
}
