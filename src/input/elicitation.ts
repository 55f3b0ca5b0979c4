/**
 * Elicitation checks around the callback: the mode must be one the handler declared; a URL
 * must pass `vetUrl`; a form schema must be flat. After the callback, the answer must be a
 * valid ElicitResult that fits the request (client/elicitation of each version).
 */
import { ErrorCode } from "../util/errors.js";
import type { ElicitationMode } from "../protocol/capabilities.js";
import type { ElicitFormParams, ElicitResult, ElicitUrlParams } from "../protocol/types/index.js";
import type { ProtocolVersion } from "../protocol/versions.js";
import { isObject } from "../util/json.js";
import { setOwn } from "../util/sanitize.js";
import { checkAnswer, checkFormSchema, type Form } from "./form-schema.js";
import type { FieldInfo } from "./handler.js";
import { refuse, type Verdict } from "./refusal.js";
import { looksSensitive } from "./sensitive-fields.js";
import { vetUrl, type VettedUrl } from "./elicitation-url.js";

const INVALID_PARAMS = ErrorCode.InvalidParams;

export type ElicitationRequest =
  | { mode: "form"; params: ElicitFormParams; form: Form; fields: Record<string, FieldInfo> }
  | { mode: "url"; params: ElicitUrlParams; vetted: VettedUrl };

export function checkElicitation(
  params: Record<string, unknown>,
  modes: readonly ElicitationMode[],
  version: ProtocolVersion,
  serverOrigin: string | undefined,
): Verdict<ElicitationRequest> {
  const mode = params.mode ?? "form";
  if (mode !== "form" && mode !== "url") return refuse(INVALID_PARAMS, `unknown elicitation mode ${JSON.stringify(mode)}`);
  if (!modes.includes(mode)) return refuse(INVALID_PARAMS, `elicitation mode "${mode}" was not declared by this client`);
  if (typeof params.message !== "string") return refuse(INVALID_PARAMS, "message must be a string");
  if (mode === "url") {
    // 2025-11-25 requires an id for each URL elicitation (gone in 2026-07-28).
    if (version === "2025-11-25" && (typeof params.elicitationId !== "string" || params.elicitationId === "")) {
      return refuse(INVALID_PARAMS, "a URL elicitation needs an elicitationId");
    }
    const vetted = vetUrl(params.url, serverOrigin);
    if (!vetted.ok) return vetted;
    return { ok: true, value: { mode, params: params as ElicitUrlParams, vetted: vetted.value } };
  }
  const form = checkFormSchema(params.requestedSchema, version);
  if (!form.ok) return form;
  const fields: Record<string, FieldInfo> = {};
  for (const field of form.value.fields) setOwn(fields, field.name, { sensitiveSuspected: looksSensitive(field) });
  return { ok: true, value: { mode, params: params as ElicitFormParams, form: form.value, fields } };
}

/**
 * The answer to send, or why the handler's answer is invalid. A decline or a cancel carries no
 * content (whatever the handler added is not sent); a URL accept carries none either; a form
 * accept fits the schema, defaults filled in. In 2026-07-28 the answer is a bare object.
 */
export function checkElicitResult(
  result: unknown,
  request: ElicitationRequest,
  version: ProtocolVersion,
): { ok: true; result: ElicitResult } | { ok: false; reason: string } {
  if (!isObject(result)) return { ok: false, reason: "the answer must be an object" };
  const action = result.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    return { ok: false, reason: 'action must be "accept", "decline" or "cancel"' };
  }
  const answer: ElicitResult = { action };
  if (version !== "2026-07-28" && isObject(result._meta)) answer._meta = result._meta;
  if (action !== "accept") return { ok: true, result: answer };
  if (request.mode === "url") {
    if (result.content !== undefined) return { ok: false, reason: "a URL-mode accept carries no content" };
    return { ok: true, result: answer };
  }
  const checked = checkAnswer(request.form, result.content, version);
  if (!checked.ok) return checked;
  answer.content = checked.content;
  return { ok: true, result: answer };
}
