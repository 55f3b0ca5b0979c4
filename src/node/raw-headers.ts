/**
 * One header of a `node:http` response, read from its `rawHeaders` list.
 *
 * `IncomingMessage.headers` is built on first read: every header's name lower-cased and put in
 * a dictionary-mode object, some 3 000 instructions a response, to learn its Content-Type. The
 * list is there already; only names as long as the one asked for are compared.
 *
 * A header sent more than once reads as Node's `headers` would have it: the first value of the
 * headers Node keeps one of, `; `-joined cookies, the others `, `-joined (a `set-cookie` array
 * read by the old code was `, `-joined too).
 */

/** Node's `matchKnownFields`: the headers of which `IncomingMessage.headers` keeps the first. */
const FIRST_ONLY: ReadonlySet<string> = new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "user-agent",
]);

/** The value of header `name` (any case) in `raw` (name, value, name, value…); undefined when absent. */
export function rawHeader(raw: readonly string[], name: string): string | undefined {
  const lower = name.toLowerCase();
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length !== lower.length || (key !== lower && key.toLowerCase() !== lower)) continue;
    const next = raw[i + 1]!;
    if (value === undefined) {
      if (FIRST_ONLY.has(lower)) return next;
      value = next;
    } else {
      value = `${value}${lower === "cookie" ? "; " : ", "}${next}`;
    }
  }
  return value;
}
