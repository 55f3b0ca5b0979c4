// The rows of the README's "Safety" table, recorded by the hostile tests themselves.
//
// A test records its row after its assertions, with the numbers it asserted: the table says
// what the last run proved, and the reporter (safety-reporter.ts) writes it only from tests that
// passed. A row holds no measured time or size, only the bound a test held it to, so that the
// same code gives the same table on every machine.
import type { TestContext } from "vitest";

export type SafetyArea = "Floods" | "Protocol abuse" | "HTTP abuse" | "Content abuse" | "Skills" | "Apps" | "Pinning" | "Tool search" | "Host and store values" | "Fuzzing";

export const SAFETY_AREAS: readonly SafetyArea[] = ["Floods", "Protocol abuse", "HTTP abuse", "Content abuse", "Skills", "Apps", "Pinning", "Tool search", "Host and store values", "Fuzzing"];

export interface SafetyRow {
  area: SafetyArea;
  /** What the server did, with its size: "100 000 `roots/list` requests, answers read". */
  tried: string;
  /** The transports it was tried over: "stdio", "Streamable HTTP", "HTTP+SSE". */
  over: string;
  /** What Conduit did, with the counts and bounds the test asserted. */
  outcome: string;
}

declare module "vitest" {
  interface TaskMeta {
    safety?: SafetyRow[];
  }
}

/** Records a row of the Safety table for the test running in `context`. */
export function safetyRow(context: TestContext, row: SafetyRow): void {
  (context.task.meta.safety ??= []).push(row);
}

/** 100000 → "100 000": the README's way of writing counts. */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

/** The row of a property-based test: how many cases were generated, and the property they held to. */
export function fuzzRow(context: TestContext, runs: number, subject: string, property: string): void {
  safetyRow(context, { area: "Fuzzing", tried: `${count(runs)} generated inputs to the ${subject}`, over: "in process", outcome: property });
}
