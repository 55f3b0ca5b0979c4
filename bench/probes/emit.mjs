// How a probe reports: one JSON object per line on stdout (bench/lib/fresh-process.mjs reads
// them, with the time each arrived). Diagnostics go to stderr.
import { writeSync } from "node:fs";

export function emit(value) {
  // Synchronous, so the line leaves before anything slow (close, exit) that follows it.
  writeSync(1, `${JSON.stringify(value)}\n`);
}

/** The client name from argv, checked. */
export function clientArg(allowed = ["conduit", "sdk", "raw", "ai-sdk"]) {
  const name = process.argv[2];
  if (!allowed.includes(name)) throw new Error(`usage: node ${process.argv[1]} <${allowed.join("|")}> …`);
  return name;
}
