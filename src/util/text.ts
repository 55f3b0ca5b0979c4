/**
 * What Conduit's own messages may quote of what others gave it. An excerpt of server data is
 * bounded and cleaned (`safeText`); a URL or a command line is shown with its secrets replaced
 * by `***`, since error messages and logs travel further than the configuration they came from:
 *
 * - in a URL: user names and passwords, query values whose names say secret or that are a
 *   provider's token, path segments that are one (a capability URL), and the fragment;
 * - in a command line: the value of a flag named like a secret (`--token x`, `--api-key=x`), a
 *   secret-looking value after any other flag (`-k 8f14e45f…`), `NAME=value` words whose name
 *   or value says secret and every value of an environment assignment (`docker run -e A=…`,
 *   `env A=… cmd`), credential headers, a provider's token anywhere, the URLs' secrets above,
 *   and each value of the environment given to the server.
 *
 * Every rule reads its text once (no pattern that can backtrack over it), and a command line is
 * shown in at most `MAX_SHOWN_COMMAND` characters, cut after redaction.
 */
import { safeText } from "./sanitize.js";
import { SECRET_NAME, isKnownToken, looksSecret } from "./secret-shapes.js";

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

const REDACTED = "***";

/** Characters of a command line as shown; what is past them is cut, once every secret is out. */
export const MAX_SHOWN_COMMAND = 4096;

/** The URL with its user info, secret-looking query values and path segments, and fragment replaced. */
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
  // The query as written, not re-serialised: `searchParams.set` would percent-encode a URL nested
  // in another value, and hide its user info from the last pass.
  if (parsed.search !== "") parsed.search = parsed.search.replace(QUERY_PAIR, redactPair);
  const segments = parsed.pathname.split("/");
  if (segments.some(isKnownToken)) parsed.pathname = segments.map((segment) => (isKnownToken(segment) ? REDACTED : segment)).join("/");
  // Never sent to the server, but where OAuth's implicit flow and some links put tokens.
  if (parsed.hash !== "") parsed.hash = REDACTED;
  // A scheme the parser does not know keeps the rest opaque (`a:https://u:p@x/` is one URL whose
  // path holds another): the shapes are looked for in what it wrote too.
  return redactText(parsed.href);
}

// Each of these is linear: a start is a literal ("//", "?", "&", "#", a word), and what a start
// scans stops at the next start.
const USER_INFO = /\/\/[^/?#@\s]*@/g;
const QUERY_PAIR = /([?&])([^=&#?\s]*)=([^&#?\s]*)/g;
const FRAGMENT = /#\S+/g;
/** An argument that is an HTTP header carrying a credential (`--header "Authorization: Bearer x"`). */
const SECRET_HEADER = /^((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|cookie)\s*:/i;
const BEARER = /\b(bearer|basic)\s+\S+/gi;

/** A query's `name=value`: the value replaced when the name says secret or the value is a token. */
function redactPair(pair: string, lead: string, name: string, value: string): string {
  return SECRET_NAME.test(decoded(name)) || isKnownToken(decoded(value)) ? `${lead}${name}=${REDACTED}` : pair;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** Text that should hold a URL but does not parse as one: the same secrets, found by their shape. */
function redactText(text: string): string {
  return text
    .replace(USER_INFO, `//${REDACTED}@`)
    .replace(QUERY_PAIR, redactPair)
    .replace(FRAGMENT, `#${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`);
}

const FLAG = /^--?[\w.-]+$/;
const FLAG_WITH_VALUE = /^(--?[\w.-]+)=/;
/** The flags that set a variable of a program's environment (`docker run -e`, `--env`). */
const ENV_FLAG = /^(?:-e|--env)$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const ENV_PROGRAM = /(?:^|[\\/])env$/;

/**
 * A command line for display, its secrets replaced (see the top of this file), at most
 * `MAX_SHOWN_COMMAND` characters. `secrets` are values to hide wherever they appear (the
 * environment given to the server); those shorter than 4 characters are left, as they would
 * blank out ordinary words.
 */
export function redactCommandLine(command: string, args: readonly string[], secrets: readonly string[] = []): string {
  const words = [command, ...args];
  const shown: string[] = [];
  // After `env`, its own flags and NAME=value words, up to the command it runs.
  let inEnv = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const previous = i > 1 ? words[i - 1]! : "";
    const assignment = ASSIGNMENT.test(word);
    if (inEnv && !assignment && !word.startsWith("-")) inEnv = false;
    shown.push(redactWord(word, previous, inEnv || (FLAG.test(previous) && ENV_FLAG.test(previous))));
    if (ENV_PROGRAM.test(word)) inEnv = true;
  }
  let line = shown.join(" ");
  // Longest first: a secret that holds another is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) if (secret.length >= 4) line = line.split(secret).join(REDACTED);
  return cut(line, MAX_SHOWN_COMMAND);
}

/** One word of a command line; `environment`: it sets a variable of a program's environment. */
function redactWord(word: string, previous: string, environment: boolean): string {
  if (FLAG.test(previous) && !word.startsWith("-")) {
    if (SECRET_NAME.test(previous)) return REDACTED;
    if (!environment && looksSecret(word)) return REDACTED;
  }
  const flag = FLAG_WITH_VALUE.exec(word);
  if (flag !== null) {
    const name = flag[1]!;
    const value = word.slice(name.length + 1);
    if (SECRET_NAME.test(name)) return `${name}=${REDACTED}`;
    if (ENV_FLAG.test(name)) return `${name}=${redactAssignment(value, true)}`;
    return `${name}=${looksSecret(value) ? REDACTED : redactValue(value)}`;
  }
  const header = SECRET_HEADER.exec(word);
  if (header !== null) return `${header[1]}: ${REDACTED}`;
  if (ASSIGNMENT.test(word)) return redactAssignment(word, environment);
  if (isKnownToken(word)) return REDACTED;
  return redactValue(word);
}

/** `NAME=value`: the value hidden when the name or the value says secret, or always (`all`). */
function redactAssignment(word: string, all: boolean): string {
  const at = word.indexOf("=");
  if (at < 0) return redactValue(word);
  const name = word.slice(0, at);
  const value = word.slice(at + 1);
  if (all || SECRET_NAME.test(name) || looksSecret(value)) return `${name}=${REDACTED}`;
  return `${name}=${redactValue(value)}`;
}

function redactValue(value: string): string {
  return HAS_SCHEME.test(value) ? redactUrl(value) : value.replace(BEARER, `$1 ${REDACTED}`);
}

/** At most `max` characters, an ellipsis marking the cut, no surrogate pair split. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
