/**
 * The one error of OAuth: a ClientError of kind `"auth"` naming the step and why, with the
 * server's OAuth `error` code and text where it gave some, and never a token, code, verifier or
 * secret. oauth4webapi's errors carry the token answer and the callback's parameters, and a
 * store's error may quote the value it was given: neither becomes a `cause` or a message.
 */
import { ClientError, messageOf } from "../util/errors.js";
import { excerpt } from "../util/text.js";

export type AuthStep = "discovery" | "registration" | "authorization" | "token" | "token exchange" | "refresh";

export function authError(step: AuthStep, message: string, cause?: unknown): ClientError {
  return new ClientError("auth", `authorization failed at ${step}: ${message}`, { cause });
}

/** The errors that say a grant (a refresh token, the client) is refused for good, not for now. */
const refusedForGood = new WeakSet<ClientError>();

/** A token endpoint's failure, named for its step; marked when the server refused the grant itself. */
export function tokenError(step: AuthStep, error: unknown): ClientError {
  const failure = authError(step, describe(error));
  if (isRefusal(error)) refusedForGood.add(failure);
  return failure;
}

/** A failure after which the same grant would fail again: a refresh token to forget. */
export function refusedGrant(error: unknown): boolean {
  return error instanceof ClientError && refusedForGood.has(error);
}

/** Marks `error` as one after which the grant is not tried again (it cannot be made at all). */
export function refusal(error: ClientError): ClientError {
  refusedForGood.add(error);
  return error;
}

/**
 * RFC 6749 §5.2: `invalid_grant` (the refresh token is expired, revoked or another client's)
 * and `invalid_client` (or a 401 challenge: the client failed to authenticate). Anything else
 * (no answer, a timeout, a 5xx, garbage) may pass.
 */
function isRefusal(error: unknown): boolean {
  const code = oauthErrorCode(error);
  if (code === "invalid_grant" || code === "invalid_client") return true;
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "WWWAuthenticateChallengeError" && statusOf(error) === 401;
}

function oauthErrorCode(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { error?: unknown }).error : undefined;
  return typeof code === "string" ? code : undefined;
}

function statusOf(error: object): number | undefined {
  const { status, cause } = error as { status?: unknown; cause?: unknown };
  if (typeof status === "number") return status;
  return cause instanceof Response ? cause.status : undefined;
}

/** What an oauth4webapi failure says, without anything secret: the HTTP status, the server's error code and text. */
export function describe(error: unknown): string {
  if (typeof error !== "object" || error === null) return excerpt(String(error), 200);
  const status = statusOf(error);
  const code = oauthErrorCode(error);
  const text = (error as { error_description?: unknown }).error_description;
  const said = code === undefined ? excerpt(messageOf(error), 200) : typeof text === "string" ? `${excerpt(code, 60)}: ${excerpt(text, 200)}` : excerpt(code, 60);
  return status === undefined || status === 200 ? said : `HTTP ${status}: ${said}`;
}

/** The OAuth error of an answer's body, for a message (no secret is in one). */
export function describeBody(body: unknown): string {
  if (typeof body !== "object" || body === null) return "";
  const { error, error_description: text } = body as { error?: unknown; error_description?: unknown };
  if (typeof error !== "string") return "";
  return typeof text === "string" ? `: ${excerpt(error, 60)}: ${excerpt(text, 200)}` : `: ${excerpt(error, 60)}`;
}

/**
 * A store that failed, named by the step and the failure's kind (its class and code), never by
 * its text: a store's error may quote the value it was given, and that is a token.
 */
export function storeError(step: AuthStep, doing: "read" | "written", error: unknown): ClientError {
  return authError(step, `the store could not be ${doing} (${kindOf(error)})`);
}

/** A failure's class and code, e.g. `Error ECONNREFUSED`: what says what went wrong without quoting it. */
export function kindOf(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  const name = /^[A-Za-z][A-Za-z0-9]{0,39}$/.test(error.name) ? error.name : "Error";
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{0,39}$/.test(code) ? `${name} ${code}` : name;
}
