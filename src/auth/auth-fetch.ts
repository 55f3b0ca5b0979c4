/**
 * The requests OAuth makes of its own (oauth4webapi makes the token requests): metadata GETs
 * and the POSTs of registration and token exchange. Each has a time bound, follows no
 * redirect, and reads at most a bounded answer.
 */
import { isObject } from "../util/json.js";
import { redactUrl } from "../util/text.js";
import { authError, type AuthStep } from "./auth-error.js";
import { utf8Text } from "../util/bytes.js";

export type FetchFn = (url: string, init?: RequestInit) => Promise<Response>;

/** How long one request to an authorization server or for metadata may take. */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;
const METADATA_BYTES = 256 * 1024;
/** The most of a registration or token exchange answer that is read. */
const ANSWER_BYTES = 256 * 1024;

/** GETs JSON metadata: undefined on a 4xx (not there), an `"auth"` error otherwise. */
export async function getJson(url: URL, fetchFn: FetchFn, step: AuthStep): Promise<Record<string, unknown> | undefined> {
  let response: Response;
  try {
    response = await fetchFn(url.href, { headers: { accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw authError(step, `${redactUrl(url)} could not be fetched`, error);
  }
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => {});
    throw authError(step, `${redactUrl(url)} answered HTTP ${response.status}`);
  }
  const text = await readCapped(response, METADATA_BYTES);
  if (text === undefined) throw authError(step, `${redactUrl(url)} answered more than ${METADATA_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw authError(step, `${redactUrl(url)} answered no JSON`);
  }
  if (!isObject(body)) throw authError(step, `${redactUrl(url)} answered no JSON object`);
  return body;
}

/** POSTs to an endpoint: its status and JSON body (undefined when it is none), read with a cap. */
export async function post(fetchFn: FetchFn, url: URL, headers: Record<string, string>, body: string, step: AuthStep, what: string): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetchFn(url.href, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw authError(step, `${what} could not be reached`, error);
  }
  const text = (await readCapped(response, ANSWER_BYTES).catch(() => "")) ?? "";
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: undefined };
  }
}

/** The body as text, read as it comes; undefined (and the rest dropped) past `max` bytes. */
export async function readCapped(response: Response, max: number): Promise<string | undefined> {
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value: Uint8Array };
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return utf8Text(chunks);
}
