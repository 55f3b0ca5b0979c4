/**
 * What a secret looks like when nothing names it: the shapes redaction goes by for a value
 * whose flag or variable name says nothing (`-k 8f14e45f…`, `OPENAI=sk-…`). Every test here
 * reads its input once, left to right (no pattern that can backtrack over it), so that a long
 * hostile argument costs its length and no more.
 */

/** Names that say secret, for flags, query parameters and variables. */
export const SECRET_NAME = /token|secret|passw(?:or)?d|pwd|key|auth|credential|signature|cookie|bearer/i;

/**
 * Prefixes that providers put on their credentials (OpenAI and Anthropic `sk-`, Stripe, GitHub,
 * GitLab, Slack, AWS, Google, Hugging Face, npm, PyPI, Shopify, DigitalOcean, Linear, Notion,
 * Perplexity, Tavily, Square, SendGrid, xAI, Groq, Replicate) and the start of a JWT.
 */
const TOKEN_PREFIX =
  /^(?:sk[-_]|rk_(?:live|test)_|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|xapp-|AKIA|ASIA|AIza|ya29\.|eyJ|npm_|hf_|pypi-|shp(?:at|ss|ca|pa)_|dop_v1_|lin_api_|ntn_|secret_|pplx-|tvly-|sq0atp-|SG\.|xai-|gsk_|r8_)/;
const TOKEN_CHAR = /^[A-Za-z0-9_\-.=+/~]$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A provider's token: a known prefix followed by at least 16 token characters, or 8 with a
 * digit among them (so that `sk-learn` stays a word).
 */
export function isKnownToken(value: string): boolean {
  const prefix = TOKEN_PREFIX.exec(value);
  if (prefix === null) return false;
  let length = 0;
  let digit = false;
  for (let i = prefix[0].length; i < value.length; i++) {
    const char = value[i]!;
    if (!TOKEN_CHAR.test(char)) break;
    length++;
    if (char >= "0" && char <= "9") digit = true;
  }
  return length >= 16 || (length >= 8 && digit);
}

/**
 * A value that is probably a credential: a provider's token, a UUID (some providers' keys are),
 * a run of 20 letters and digits with both in it (hex and base62 keys), or a base64 blob of 20
 * characters or more with upper case, lower case and digits. Model names, versions, paths and
 * words split by `-` or `.` are not.
 */
export function looksSecret(value: string): boolean {
  if (isKnownToken(value)) return true;
  if (value.length === 36 && UUID.test(value)) return true;
  return hasKeyRun(value) || isBase64Blob(value);
}

function hasKeyRun(value: string): boolean {
  let run = 0;
  let letters = false;
  let digits = false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const digit = code >= 48 && code <= 57;
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    if (digit || letter) {
      run++;
      digits ||= digit;
      letters ||= letter;
      if (run >= 20 && digits && letters) return true;
    } else {
      run = 0;
      letters = false;
      digits = false;
    }
  }
  return false;
}

function isBase64Blob(value: string): boolean {
  if (value.length < 20) return false;
  let upper = false;
  let lower = false;
  let digit = false;
  let end = value.length;
  while (end > 0 && value[end - 1] === "=" && value.length - end < 2) end--;
  for (let i = 0; i < end; i++) {
    const code = value.charCodeAt(i);
    if (code >= 65 && code <= 90) upper = true;
    else if (code >= 97 && code <= 122) lower = true;
    else if (code >= 48 && code <= 57) digit = true;
    else if (code !== 43 && code !== 47) return false;
  }
  return upper && lower && digit;
}
