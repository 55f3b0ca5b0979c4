/**
 * Which form fields look like they ask for a secret, by their name, title, description or
 * format. A hint for the host (mask the input, warn the user), never a refusal: servers may
 * have good reasons, and the user decides.
 */
import type { Field } from "./form-schema.js";

const SECRET = new RegExp(
  [
    "pass(word|phrase|wd|code)?", "secret", "token", "api ?key", "private ?key", "access ?key", "credential",
    "auth(orization)? ?code", "otp", "one ?time ?(code|password)", "pin", "cvv", "cvc", "security ?code",
    "card ?(number|no)", "credit ?card", "iban", "ssn", "social ?security", "routing ?number",
    "account ?number", "bearer", "session ?(id|cookie)",
  ]
    .map((words) => `\\b${words}s?\\b`)
    .join("|"),
  "i",
);

/** Splits camelCase, snake_case and kebab-case into words, so that `apiKey` reads "api key". */
function words(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ");
}

/**
 * Verdicts by text: a server asks with the same form again and again (every MRTR round). Only
 * short texts are kept, and not many, so that a server cannot fill memory through it.
 */
const seen = new Map<string, boolean>();
const SEEN_LIMIT = 1024;
const SEEN_TEXT_LIMIT = 256;

function sensitiveText(text: string): boolean {
  if (text.length > SEEN_TEXT_LIMIT) return SECRET.test(words(text));
  let verdict = seen.get(text);
  if (verdict === undefined) {
    verdict = SECRET.test(words(text));
    if (seen.size >= SEEN_LIMIT) seen.clear();
    seen.set(text, verdict);
  }
  return verdict;
}

export function looksSensitive(field: Field): boolean {
  const { title, description, format } = field.schema;
  return (
    sensitiveText(field.name) ||
    (typeof title === "string" && sensitiveText(title)) ||
    (typeof description === "string" && sensitiveText(description)) ||
    (typeof format === "string" && sensitiveText(format))
  );
}
