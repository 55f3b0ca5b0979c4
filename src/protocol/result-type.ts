/**
 * `resultType` (2026-07-28 basic/index): missing means "complete" (older servers never send
 * it); "input_required" is allowed only on the methods that may ask for input; any other value
 * is one this client does not know, which the spec says to treat as invalid.
 */
import { protocolError } from "../util/assert.js";
import { isObject } from "../util/json.js";
import { CALL_METHODS } from "./methods.js";

export type Classified = { kind: "complete"; result: Record<string, unknown> } | { kind: "input_required"; result: Record<string, unknown> };

export function classifyResult(method: string, raw: unknown): Classified {
  if (!isObject(raw)) throw protocolError(`the result of ${method} must be an object`, raw);
  const type = raw.resultType;
  if (type === undefined || type === "complete") return { kind: "complete", result: raw };
  if (type === "input_required") {
    if (!CALL_METHODS.has(method)) throw protocolError(`the server asked for input in reply to ${method}, which may not`, raw);
    return { kind: "input_required", result: raw };
  }
  throw protocolError(`the result of ${method} has a resultType this client does not know: ${JSON.stringify(type)}`, raw);
}
