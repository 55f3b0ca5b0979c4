/**
 * What one message from a view is: a request, a notification, a response, or nothing valid
 * (with the id to refuse it under, when one can be read). The bounds come first, so that the
 * reading of a message is never more work than the bound allows (`util/json-measure.ts`).
 */
import { isObject, isRequestId, type RequestId } from "../util/json.js";
import { ErrorCode } from "../util/errors.js";
import { measureJson } from "../util/json-measure.js";

export type ViewMessage =
  | { kind: "request"; id: RequestId; method: string; params: Record<string, unknown> }
  | { kind: "notification"; method: string; params: Record<string, unknown> }
  | { kind: "response"; id: RequestId; error: unknown; result: unknown; failed: boolean }
  | { kind: "invalid"; id: RequestId | null; code: number; reason: string; notification: boolean };

const NO_PARAMS: Record<string, unknown> = Object.freeze({});

/** The id a refusal can be sent under: the message's own when it has a valid one. */
export function readableId(message: unknown): RequestId | null {
  if (!isObject(message)) return null;
  try {
    const id = message.id;
    return isRequestId(id) ? id : null;
  } catch {
    return null;
  }
}

/** Whether a message that will not be read names a method and no id: no reply is owed then. */
function looksLikeNotification(message: unknown): boolean {
  if (!isObject(message)) return false;
  try {
    return typeof message.method === "string" && message.id === undefined;
  } catch {
    return false;
  }
}

export function readViewMessage(message: unknown, maxBytes: number, maxDepth: number): ViewMessage {
  const measure = measureJson(message, maxBytes, maxDepth);
  if (!measure.ok) {
    const reason =
      measure.reason === "too-large" ? `the message is larger than ${maxBytes} bytes of JSON`
      : measure.reason === "too-deep" ? `the message is nested deeper than ${maxDepth} levels`
      : "the message is not a JSON value";
    return invalid(message, reason);
  }
  if (!isObject(message)) return { kind: "invalid", id: null, code: ErrorCode.InvalidRequest, reason: "a message must be a JSON-RPC object", notification: false };
  if (message.jsonrpc !== "2.0") return invalid(message, 'jsonrpc must be "2.0"');
  const { id, method, params } = message;
  if (method !== undefined) {
    if (typeof method !== "string" || method === "") return invalid(message, "method must be a non-empty string");
    if (id !== undefined && !isRequestId(id)) return { kind: "invalid", id: null, code: ErrorCode.InvalidRequest, reason: "id must be a string or a number", notification: false };
    if (params !== undefined && !isObject(params)) {
      const code = ErrorCode.InvalidParams;
      return id === undefined ? { kind: "invalid", id: null, code, reason: "params must be an object", notification: true } : { kind: "invalid", id, code, reason: "params must be an object", notification: false };
    }
    const given = params ?? NO_PARAMS;
    return id === undefined ? { kind: "notification", method, params: given } : { kind: "request", id, method, params: given };
  }
  if (!isRequestId(id)) return invalid(message, "a message needs a method, or the id of a request it answers");
  const hasResult = Object.hasOwn(message, "result");
  const hasError = Object.hasOwn(message, "error");
  // A malformed response is never answered: a reply to a reply would start a loop.
  if (hasResult === hasError) return { kind: "invalid", id, code: ErrorCode.InvalidRequest, reason: "a response has either a result or an error", notification: true };
  return { kind: "response", id, result: message.result, error: message.error, failed: hasError };
}

function invalid(message: unknown, reason: string): ViewMessage {
  return { kind: "invalid", id: readableId(message), code: ErrorCode.InvalidRequest, reason, notification: looksLikeNotification(message) };
}
