/**
 * The origins an MCP App declares in `_meta.ui.csp` (`connectDomains`, `resourceDomains`,
 * `frameDomains`, `baseUriDomains`), read as Content-Security-Policy source expressions the host
 * can put in a header without a second look.
 *
 * A server writes these strings, and a policy is a text where one `;` starts a new directive and
 * one `'unsafe-eval'` or `*` turns a restriction off. So an entry is not cleaned, it is parsed:
 * only `scheme://host[:port]` of the web's four schemes is taken, with the one wildcard the spec
 * names (a leftmost `*.` label, as in `https://*.example.com`), and it is written back in one
 * canonical form (lowercase, no default port). Anything else is refused whole, with the reason:
 * a keyword, a scheme alone (`https:` is every https origin), a bare `*`, a port wildcard, a
 * path, a scheme-less host, characters a host cannot have. Refusing an entry only ever narrows the
 * policy; nothing a server sends can widen it past what it declared.
 *
 * @see apps.mdx 2026-01-26, "UI Resource Format" (`McpUiResourceCsp`) and "Host Behavior"
 */
import { quote } from "../util/text.js";

/** Entries of one list read at most: a policy is a header, and headers have limits (16 KiB in Node). */
export const MAX_SOURCES_PER_LIST = 32;

/** Characters of one entry at most (a host name is at most 253). */
const MAX_SOURCE_CHARS = 300;

/** The schemes an app may name, with their default ports (left out of the canonical form). */
const SCHEMES: Readonly<Record<string, string>> = { https: "443", wss: "443", http: "80", ws: "80" };

// The scheme, the host, an optional port, an optional lone "/" (a path of "/" is every path).
const SOURCE = /^([a-z][a-z0-9+.-]*):\/\/([^/:?#]*)(?::([^/?#]*))?(\/?)$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export type SourceVerdict = { readonly ok: true; readonly source: string } | { readonly ok: false; readonly reason: string };

/** The canonical source expression of `value`, or why it is refused. */
export function appSource(value: unknown): SourceVerdict {
  if (typeof value !== "string") return refused("not a string");
  if (value.length > MAX_SOURCE_CHARS) return refused(`longer than ${MAX_SOURCE_CHARS} characters`);
  // Refused before anything is parsed: these are what split or extend a policy.
  if (/[^\x21-\x7e]/.test(value)) return refused("it holds a space, a control or a non-ASCII character (write a host name in punycode)");
  if (/[;,'"\\]/.test(value)) return refused("it holds one of ; , ' \" \\");
  const match = SOURCE.exec(value.toLowerCase());
  if (match === null) return refused(value.includes("://") ? "it has a path, a query or a fragment" : "it is not an origin (scheme://host)");
  const [, scheme = "", host = "", port] = match;
  if (!Object.hasOwn(SCHEMES, scheme)) return refused(`scheme ${scheme}: is not one of https, wss, http, ws`);
  const hostProblem = checkHost(host);
  if (hostProblem !== undefined) return refused(hostProblem);
  const portProblem = port === undefined ? undefined : checkPort(port);
  if (portProblem !== undefined) return refused(portProblem);
  const shownPort = port === undefined || port === SCHEMES[scheme] ? "" : `:${Number(port)}`;
  return { ok: true, source: `${scheme}://${host}${shownPort}` };
}

function checkHost(host: string): string | undefined {
  if (host === "") return "it has no host";
  if (host.includes("@")) return "it has user information";
  if (host.length > 253) return "its host is longer than 253 characters";
  const labels = host.split(".");
  const wildcard = labels[0] === "*";
  const named = wildcard ? labels.slice(1) : labels;
  if (named.some((label) => label.includes("*"))) return "a wildcard may only be the leftmost label (*.example.com)";
  // `*.com` would be every site of a top-level domain; the spec's wildcard is for subdomains.
  if (wildcard && named.length < 2) return "a wildcard needs a domain of two labels or more after it (*.example.com)";
  if (!named.every((label) => LABEL.test(label))) return "its host is not a host name (letters, digits, hyphens, dots)";
  return undefined;
}

function checkPort(port: string): string | undefined {
  if (port === "*") return "a port wildcard is more than the spec allows";
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return "its port is not a number from 1 to 65535";
  return undefined;
}

function refused(reason: string): SourceVerdict {
  return { ok: false, reason };
}

/** A problem found in what a server declared: where, and why it was dropped. */
export interface DroppedField {
  readonly field: string;
  readonly reason: string;
}

/**
 * The canonical sources of a declared list: each entry parsed, the refused ones reported to
 * `dropped`, duplicates merged, sorted (order means nothing in a policy, and a canonical list
 * keeps the fingerprint stable). Undefined when `value` is not an array.
 */
export function appSources(value: unknown, field: string, dropped?: (problem: DroppedField) => void): string[] | undefined {
  if (!Array.isArray(value)) {
    if (value !== undefined) dropped?.({ field, reason: "not an array of strings" });
    return undefined;
  }
  const list: readonly unknown[] = value;
  if (list.length > MAX_SOURCES_PER_LIST) dropped?.({ field, reason: `${list.length} entries; only the first ${MAX_SOURCES_PER_LIST} are read` });
  const sources = new Set<string>();
  list.slice(0, MAX_SOURCES_PER_LIST).forEach((entry, index) => {
    const verdict = appSource(entry);
    if (verdict.ok) sources.add(verdict.source);
    else dropped?.({ field: `${field}[${index}]`, reason: `${quote(entry, 60)}: ${verdict.reason}` });
  });
  return [...sources].sort(byCodeUnits);
}

/** Sorting that does not depend on the locale of the machine. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
