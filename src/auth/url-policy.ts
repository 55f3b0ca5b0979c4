/**
 * Where a server may send the client: the resource metadata, the authorization server, its
 * endpoints. Each is a URL some server chose; without a rule, a server on the internet could
 * make the host send GETs and a JSON POST to the host's own loopback ports (a local Docker
 * API), to the cloud's metadata address, or to the office network, and send the person to a
 * localhost page. So a URL is sorted by the address it names:
 *
 * - loopback: `localhost` and `*.localhost` (RFC 6761), 127.0.0.0/8, 0.0.0.0/8, `::1`, `::`;
 * - link-local: 169.254.0.0/16 (the cloud metadata address 169.254.169.254 among them), fe80::/10;
 * - private: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, fc00::/7, fec0::/10;
 * - public: every other address, and every other name.
 *
 * An IPv6 address that embeds an IPv4 one (`::ffff:a.b.c.d`, `::a.b.c.d`, `64:ff9b::a.b.c.d`)
 * is sorted by that IPv4 address. A public URL is always allowed; another only when the MCP
 * server (or the authorization server the host named) is of the same kind, and a server on
 * loopback may name any. Names are not resolved: a name that a DNS server maps to a private
 * address passes (the host's resolver and network are the host's to guard).
 */
import { redactUrl } from "../util/text.js";
import { authError } from "./auth-error.js";

export type Locality = "loopback" | "link-local" | "private" | "public";

const DESCRIPTIONS: Record<Locality, string> = {
  loopback: "loopback",
  "link-local": "a link-local address",
  private: "a private address",
  public: "the internet",
};

/** The kind of address a URL's `hostname` (as `URL` gives it) names. */
export function localityOf(hostname: string): Locality {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (host.startsWith("[") && host.endsWith("]")) return ipv6Locality(host.slice(1, -1));
  const v4 = ipv4(host);
  return v4 === undefined ? "public" : ipv4Locality(v4);
}

/** `https`, or `http` on loopback: where a token or a secret may travel. */
export function isSecure(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && localityOf(url.hostname) === "loopback");
}

/** The rule of `isSecure` for every URL of OAuth, the MCP server's own included. */
export function requireSecureUrl(url: URL, what: string): void {
  if (isSecure(url)) return;
  throw authError("discovery", `${what} must be an https URL (or on loopback): ${redactUrl(url)}`);
}

/** The rule for the URLs servers give, for one resource. */
export class UrlPolicy {
  private readonly allowed: ReadonlySet<Locality>;

  /**
   * @param resource the MCP server's URL: on loopback, it may name any kind of address
   * @param issuer the authorization server the host named, if it did: its kind is allowed too
   */
  constructor(resource: URL, issuer?: URL) {
    const kind = localityOf(resource.hostname);
    const kinds: Locality[] = kind === "loopback" ? ["loopback", "link-local", "private", "public"] : ["public", kind];
    if (issuer !== undefined) kinds.push(localityOf(issuer.hostname));
    this.allowed = new Set(kinds);
  }

  /** Parses and checks a URL a server gave; an `"auth"` error (step discovery) when it may not be used. */
  check(text: string | URL, what: string, base?: URL): URL {
    let url: URL;
    try {
      url = new URL(text, base);
    } catch {
      throw authError("discovery", `${what} is not a URL`);
    }
    requireSecureUrl(url, what);
    const locality = localityOf(url.hostname);
    if (!this.allowed.has(locality)) {
      throw authError("discovery", `${what} is on ${DESCRIPTIONS[locality]} (${redactUrl(url)}), and the MCP server is not: not used`);
    }
    return url;
  }
}

function ipv4(host: string): number[] | undefined {
  // `URL` writes every IPv4 form (hex, octal, one number) as four decimal parts.
  if (!/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return undefined;
  const parts = host.split(".").map(Number);
  return parts.every((part) => part <= 255) ? parts : undefined;
}

function ipv4Locality([a = 0, b = 0]: number[]): Locality {
  if (a === 127 || a === 0) return "loopback";
  if (a === 169 && b === 254) return "link-local";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return "private";
  return "public";
}

function ipv6Locality(text: string): Locality {
  const groups = ipv6Groups(text);
  if (groups === undefined) return "public";
  const zeros = (from: number, to: number): boolean => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 7) && (groups[7] === 0 || groups[7] === 1)) return "loopback";
  const embedsIpv4 = (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) || (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6));
  if (embedsIpv4) return ipv4Locality([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]);
  const first = groups[0]!;
  if ((first & 0xffc0) === 0xfe80) return "link-local";
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfec0) return "private";
  return "public";
}

/** The eight groups of an IPv6 address in the form `URL` writes it (hex groups, one `::` at most). */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (half: string | undefined): number[] => (half === undefined || half === "" ? [] : half.split(":").map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16) : NaN)));
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 1 ? 0 : missing).fill(0), ...tail];
  return groups.some(Number.isNaN) ? undefined : groups;
}
