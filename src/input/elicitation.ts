/**
 * Elicitation checks around the callback (client/elicitation of each version): the mode must
 * be one the handler declared; the message at most `MAX_MESSAGE_LENGTH` characters; a URL must
 * pass `vetUrl`; a form schema must be the flat subset (`form-schema.ts`, its titles and
 * descriptions bounded too), its fields flagged when they look like they ask for a secret.
 * After the callback, the answer must be a valid ElicitResult that fits the request.
 */
import { ClientError, ErrorCode, type RequiredUrl } from "../util/errors.js";
import type { ElicitationMode, ProtocolVersion } from "../protocol/versions.js";
import type { ElicitFormParams, ElicitResult, ElicitUrlParams } from "../protocol/types/index.js";
import { isObject } from "../util/json.js";
import { setOwn } from "../util/sanitize.js";
import { checkAnswer, checkFormSchema, type Field, type Form } from "./form-schema.js";
import type { FieldInfo } from "./handler.js";
import { pass, refuse, type Verdict } from "../util/assert.js";
import { quote } from "../util/text.js";
import { withField } from "../util/sanitize.js";
const INVALID_PARAMS = ErrorCode.InvalidParams;

/**
 * The longest message a person is asked to read before they answer (UTF-16 code units, as
 * `String.length` counts them): some pages of text, four times what `sanitize` shows by default.
 * A server that needs more is handing over a document, which is a resource's job.
 */
export const MAX_MESSAGE_LENGTH = 16 * 1024;

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
  if (mode !== "form" && mode !== "url") return refuse(INVALID_PARAMS, `unknown elicitation mode ${quote(mode)}`);
  if (!modes.includes(mode)) return refuse(INVALID_PARAMS, `elicitation mode "${mode}" was not declared by this client`);
  if (typeof params.message !== "string") return refuse(INVALID_PARAMS, "message must be a string");
  if (params.message.length > MAX_MESSAGE_LENGTH) return refuse(INVALID_PARAMS, `message must be at most ${MAX_MESSAGE_LENGTH} characters (it has ${params.message.length})`);
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

// ---- URL mode ----------------------------------------------------------------------------------

/**
 * URL-mode elicitation (2025-11-25 client/elicitation): the client shows the URL and the user
 * may open it. Conduit never fetches or opens it; it only decides whether to let the host see
 * it. Accepted: absolute `https` URLs without userinfo (a `user@` part can disguise the real
 * host). The verdict carries what the host should show: the full URL, its host, whether the
 * host is punycode, and whether it leads away from the server's own origin.
 */
export interface VettedUrl {
  url: string;
  host: string;
  idn: boolean;
  originMismatch: boolean;
}

/**
 * The longest URL a person is asked to visit (characters, before and after parsing). Browsers
 * take longer ones, but no person reads them: a URL that long hides where it leads.
 */
export const MAX_URL_LENGTH = 8 * 1024;

export function vetUrl(raw: unknown, serverOrigin: string | undefined): Verdict<VettedUrl> {
  if (typeof raw !== "string") return refuse(INVALID_PARAMS, "url must be a string");
  // Checked before parsing: the parser's work is linear, but a megabyte is nobody's link.
  if (raw.length > MAX_URL_LENGTH) return refuse(INVALID_PARAMS, `url must be at most ${MAX_URL_LENGTH} characters (it has ${raw.length})`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(INVALID_PARAMS, "url must be an absolute URL");
  }
  // https is a special scheme: the URL parser refuses one without a host, so a host there is.
  if (url.protocol !== "https:") return refuse(INVALID_PARAMS, `url must use https, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "") return refuse(INVALID_PARAMS, "url must not carry a user name or password");
  // Percent-encoding on parsing can make a URL longer than what was sent.
  if (url.href.length > MAX_URL_LENGTH) return refuse(INVALID_PARAMS, `url must be at most ${MAX_URL_LENGTH} characters once parsed`);
  return pass({
    url: url.href,
    host: url.host,
    idn: url.hostname.split(".").some((label) => label.startsWith("xn--")),
    originMismatch: serverOrigin === undefined || url.origin !== serverOrigin,
  });
}

// ---- fields that look secret -----------------------------------------------------------------------

/**
 * Which form fields look like they ask for a secret. A hint for the host (mask the input, warn
 * the user), never a refusal: servers may have good reasons, and the user decides.
 *
 * Read are the field's name and its title, the two labels of the field, split into words
 * (`apiKey`, `api_key`, `API-KEY`, `APIKey` and "API key" all read "api key"), each phrase below
 * matched as whole words: `pin` and `PIN` are a PIN, `pinned`, `spinner` and `pinnacle` are not;
 * `token` is, `tokenizer` and `maxTokens` are not; `pass` is, `passage` and `bypass` are not.
 * Not read: the description, which is prose ("drop the pin on the map", "we never ask for your
 * password"), and the format, as the flat subset's formats (email, uri, date, date-time) name
 * no secret. A field whose answer is chosen rather than typed (a boolean, a string with
 * options, a multi-select) is never flagged: the server already knows its every value. A
 * number field is flagged only for the secrets that are numbers (a PIN, a CVV, a card number).
 */
const NUMBER_SECRETS = [
  "pin", "pincode", "passcode", "cvv", "cvv2", "cvc", "otp", "totp", "one time code", "one time password", "verification code",
  "security code", "mfa code", "2fa code", "ssn", "social security", "card number", "card no", "credit card",
  "account number", "routing number",
];
const TEXT_SECRETS = [
  ...NUMBER_SECRETS, "password", "passwords", "passphrase", "passwd", "pass", "secret", "secrets",
  "token", "api key", "apikey", "private key", "privatekey", "access key", "accesskey", "credential",
  "credentials", "auth code", "authcode", "authorization code", "bearer", "session id", "session cookie", "iban",
];
// Every phrase is lower-case letters, digits and single spaces: nothing in them needs escaping.
const phrases = (list: readonly string[]) => new RegExp(`(?:^| )(?:${list.join("|")})(?: |$)`);
const NUMBER_SECRET = phrases(NUMBER_SECRETS);
const TEXT_SECRET = phrases(TEXT_SECRETS);

/**
 * `text` as lower-case words separated by single spaces. A word is a run of lower-case letters
 * and digits, with the capital before it (`Key` of `apiKey`), or a run of capitals (`API` of
 * `APIKey`, `PIN` of `userPIN`); anything else (`_`, `-`, `.`, a space) only separates. One
 * pass of one pattern, linear in the text.
 */
const WORD = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z]+/g;

function words(text: string): string {
  return (text.match(WORD) ?? []).join(" ").toLowerCase();
}

/**
 * Verdicts by text: a server asks with the same form again and again (every MRTR round). Only
 * short texts are kept, and not many, so that a server cannot fill memory through it.
 */
const seen = new Map<string, Secret>();
const SEEN_LIMIT = 1024;
const SEEN_TEXT_LIMIT = 256;
/** Of a long name or title only the start is read for the hint, so that the cost is bounded per field. */
const SCANNED_CHARACTERS = 1024;

/** What a label names: a secret that may be a number (a PIN), one that is text only (a token), or none. */
type Secret = "number" | "text" | "none";

function secretNamed(text: string): Secret {
  if (text.length > SEEN_TEXT_LIMIT) return classify(text.slice(0, SCANNED_CHARACTERS));
  let verdict = seen.get(text);
  if (verdict === undefined) {
    verdict = classify(text);
    if (seen.size >= SEEN_LIMIT) seen.clear();
    seen.set(text, verdict);
  }
  return verdict;
}

function classify(text: string): Secret {
  const read = words(text);
  if (NUMBER_SECRET.test(read)) return "number";
  return TEXT_SECRET.test(read) ? "text" : "none";
}

export function looksSensitive(field: Field): boolean {
  const { kind } = field;
  if (kind.type === "boolean" || kind.type === "multi" || (kind.type === "string" && kind.options !== undefined)) return false;
  const number = kind.type === "number";
  if (labelFlags(field.name, number)) return true;
  const { title } = field.schema;
  return typeof title === "string" && labelFlags(title, number);
}

function labelFlags(label: string, number: boolean): boolean {
  const secret = secretNamed(label);
  return number ? secret === "number" : secret !== "none";
}

// ---- URLs a call requires (2025-11-25 -32042) ---------------------------------------------------

/** How many required URLs are looked at; a server cannot hand the host an endless list. */
const MAX_REQUIRED_URLS = 16;
const URL_MODE: readonly ElicitationMode[] = ["url"];

/**
 * A call refused with `-32042`: the URLs the server requires the user to visit, each through the
 * checks of a URL elicitation of 2025-11-25 (`checkElicitation`), as a
 * `"url_elicitation_required"` error; undefined when `data` names none (the server's error then
 * stays as it is). The server's own list is not kept: what the checks refused has nothing to show.
 */
export function urlElicitationRequired(error: ClientError, serverOrigin: string | undefined): ClientError | undefined {
  const listed = isObject(error.data) ? error.data.elicitations : undefined;
  if (!Array.isArray(listed) || listed.length === 0) return undefined;
  const elicitations = listed.slice(0, MAX_REQUIRED_URLS).map((entry): RequiredUrl => {
    const given = isObject(entry) ? entry : {};
    const checked = checkElicitation(withField(given, "mode", "url"), URL_MODE, "2025-11-25", serverOrigin);
    if (!checked.ok || checked.value.mode !== "url") {
      const refused = checked.ok ? "not a URL elicitation" : checked.refusal.message;
      return { elicitationId: undefined, message: "", url: undefined, host: undefined, idn: false, originMismatch: true, refused };
    }
    const vetted = checked.value.vetted;
    return { elicitationId: checked.value.params.elicitationId, message: checked.value.params.message, url: vetted.url, host: vetted.host, idn: vetted.idn, originMismatch: vetted.originMismatch, refused: undefined };
  });
  const more = listed.length > MAX_REQUIRED_URLS ? ` (the first ${MAX_REQUIRED_URLS} of ${listed.length} are given)` : "";
  return new ClientError("url_elicitation_required", `${error.message}: the server requires ${listed.length} URL(s) to be visited first${more}`, {
    serverId: error.serverId,
    code: error.code,
    elicitations,
  });
}
