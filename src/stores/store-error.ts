import { ClientError } from "../util/errors.js";

/** The steps of a `Store`, as its errors name them. */
export type StoreStep = "get" | "set" | "delete" | "setIfAbsent";

/**
 * A store's failure as a `"store"` ClientError naming the step. `reason` is the store's own
 * words; the failure it stands for is described by its class and code alone, since a client
 * library's error may carry the command it failed on, and with it a value (a token) or the
 * server's URL with its password. A `cause` is given only by a store whose failures hold no
 * secret (the file store's are the file system's).
 */
export function storeError(store: string, step: StoreStep, reason: string, cause?: unknown): ClientError {
  return new ClientError("store", `${store}: ${step} failed: ${reason}`, cause === undefined ? {} : { cause });
}

/** A failure's class and code (`Error ECONNREFUSED`, `ReplyError NOAUTH`): what went wrong, quoting nothing. */
export function failureName(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const name = /^[A-Za-z][A-Za-z0-9]{0,39}$/.test(error.name) ? error.name : "Error";
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^[A-Z][A-Z0-9_]{0,39}$/.test(code)) return `${name} ${code}`;
  // A Redis error reply starts with its code in capitals (`WRONGTYPE …`, `READONLY …`).
  const word = /^([A-Z][A-Z0-9_]{1,39})\b/.exec(error.message)?.[1];
  return word === undefined ? name : `${name} ${word}`;
}
