/**
 * What Conduit's own messages may quote of what others gave it. An excerpt of server data is
 * bounded and cleaned (`safeText`); a URL or a command line is shown with its secrets replaced
 * by `***` (user names and passwords, query parameters and flags whose names say secret, and the
 * values of the environment given to a server), since error messages and logs travel further
 * than the configuration they came from.
 */
import { safeText } from "./sanitize.js";

/** Characters of server data an error message or a log entry quotes. */
export const EXCERPT_CHARS = 200;

/** At most `max` characters of `value` (JSON text unless a string), cleaned for a log. */
export function excerpt(value: unknown, max = EXCERPT_CHARS): string {
  let text: string;
  if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = "[unserialisable]";
    }
  }
  // Cut before cleaning: a message of many megabytes is not scanned whole for a log line.
  return safeText(text.length > max ? text.slice(0, max + 1) : text, max);
}

/** A value as JSON would write it (a string in quotes), bounded and cleaned like `excerpt`. */
export function quote(value: unknown, max = 100): string {
  return excerpt(typeof value === "string" ? JSON.stringify(value.length > max ? value.slice(0, max) : value) : value, max);
}

const SECRET_NAME = /token|secret|passw(or)?d|pwd|key|auth|credential|signature|cookie|bearer/i;
const REDACTED = "***";

/** The URL with its user info and secret-looking query values replaced. */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(String(url));
  }
  if (parsed.username !== "" || parsed.password !== "") {
    parsed.username = REDACTED;
    parsed.password = "";
  }
  const secretNames = [...new Set([...parsed.searchParams.keys()].filter((name) => SECRET_NAME.test(name)))];
  for (const name of secretNames) parsed.searchParams.set(name, REDACTED);
  return parsed.href;
}

const USER_INFO = /\/\/[^/?#@\s]*@/g;
const SECRET_QUERY = /([?&][^=&#\s]*(?:token|secret|passw(?:or)?d|pwd|key|auth|credential|signature|cookie|bearer)[^=&#\s]*=)[^&#\s]*/gi;
/** An argument that is an HTTP header carrying a credential (`--header "Authorization: Bearer x"`). */
const SECRET_HEADER = /^((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|cookie)\s*:.*$/i;
const BEARER = /\b(bearer|basic)\s+\S+/gi;

/** Text that should hold a URL but does not parse as one: the same secrets, found by their shape. */
function redactText(text: string): string {
  return text.replace(USER_INFO, `//${REDACTED}@`).replace(SECRET_QUERY, `$1${REDACTED}`).replace(BEARER, `$1 ${REDACTED}`);
}

const FLAG = /^--?[\w.-]+$/;
const FLAG_WITH_VALUE = /^(--?[\w.-]+)=/;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A command line for display: the value of a flag named like a secret (`--token x`,
 * `--api-key=x`), a credential header given as an argument (`Authorization: Bearer x`), secrets
 * inside URLs, and every occurrence of a `secrets` value (the environment given to the server)
 * replaced.
 */
export function redactCommandLine(command: string, args: readonly string[], secrets: readonly string[] = []): string {
  const words = [command, ...args];
  const shown = words.map((word, i) => {
    const previous = i > 1 ? words[i - 1]! : "";
    if (FLAG.test(previous) && SECRET_NAME.test(previous) && !word.startsWith("-")) return REDACTED;
    const flag = FLAG_WITH_VALUE.exec(word);
    if (flag !== null && SECRET_NAME.test(flag[1]!)) return `${flag[1]}=${REDACTED}`;
    const header = SECRET_HEADER.exec(word);
    if (header !== null) return `${header[1]}: ${REDACTED}`;
    return HAS_SCHEME.test(word) ? redactUrl(word) : word.replace(BEARER, `$1 ${REDACTED}`);
  });
  let line = shown.join(" ");
  // Short values would blank out ordinary words; a secret is rarely that short.
  for (const secret of secrets) if (secret.length >= 4) line = line.split(secret).join(REDACTED);
  return line;
}
