// A logger that records what the client reports, so tests can assert on it and stay quiet.
import type { Logger } from "../../src/index.js";

export interface LogEntry {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields?: Record<string, unknown> | undefined;
}

export interface CapturingLogger extends Logger {
  entries: LogEntry[];
  /** Messages at warn or error whose text contains `needle`. */
  warnings(needle?: string): string[];
}

export function capturingLogger(): CapturingLogger {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry["level"]) => (message: string, fields?: Record<string, unknown>) => {
    entries.push({ level, message, fields });
  };
  return {
    entries,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    warnings: (needle = "") =>
      entries.filter((e) => (e.level === "warn" || e.level === "error") && e.message.includes(needle)).map((e) => e.message),
  };
}
