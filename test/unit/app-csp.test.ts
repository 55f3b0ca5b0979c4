// The policy of an MCP App's frame (src/apps/app-csp.ts) against the spec's CSP section
// (apps.mdx 2026-01-26: "Host Behavior", "Sandbox proxy" item 5, "Security Implications" 4.),
// and the sanitiser of declared origins (src/apps/app-sources.ts), case by case.
import { describe, expect, it } from "vitest";
import { appCsp } from "../../src/apps/app-csp.js";
import { appUiMeta, type AppUiMeta } from "../../src/apps/app-meta.js";
import { appSource, appSources, MAX_SOURCES_PER_LIST } from "../../src/apps/app-sources.js";

/** The policy as a map of directive → sources, and the directives in order. */
function parse(policy: string): { order: string[]; directives: Map<string, string[]> } {
  const order: string[] = [];
  const directives = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name = "", ...sources] = part.trim().split(" ");
    order.push(name);
    directives.set(name, sources);
  }
  return { order, directives };
}

const declared = (csp: Record<string, unknown>): AppUiMeta => appUiMeta({ csp });

describe("the restrictive default (no ui.csp)", () => {
  const policy = parse(appCsp());

  it("is the spec's default, word for word, for each directive it names", () => {
    expect(policy.order[0]).toBe("default-src");
    expect(policy.directives.get("default-src")).toEqual(["'none'"]);
    expect(policy.directives.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.directives.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.directives.get("img-src")).toEqual(["'self'", "data:"]);
    expect(policy.directives.get("media-src")).toEqual(["'self'", "data:"]);
    expect(policy.directives.get("connect-src")).toEqual(["'none'"]);
  });

  it("adds only restrictions: no nested frames, no plug-ins, base URI of its own origin, no form posts, no fonts", () => {
    expect(policy.directives.get("frame-src")).toEqual(["'none'"]);
    expect(policy.directives.get("object-src")).toEqual(["'none'"]);
    expect(policy.directives.get("base-uri")).toEqual(["'self'"]);
    expect(policy.directives.get("form-action")).toEqual(["'none'"]);
    expect(policy.directives.has("font-src")).toBe(false);
    expect([...policy.directives.keys()].sort()).toEqual(["base-uri", "connect-src", "default-src", "form-action", "frame-src", "img-src", "media-src", "object-src", "script-src", "style-src"]);
  });

  it("is the same for no meta, an empty csp, empty lists, and lists whose every entry is refused", () => {
    const same = appCsp();
    expect(appCsp({})).toBe(same);
    expect(appCsp(declared({}))).toBe(same);
    expect(appCsp(declared({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }))).toBe(same);
    expect(appCsp(declared({ connectDomains: ["*"], resourceDomains: ["'unsafe-eval'"], frameDomains: ["https:"], baseUriDomains: ["data:"] }))).toBe(same);
  });

  it("never allows eval, blob: or a wildcard", () => {
    expect(appCsp()).not.toMatch(/unsafe-eval|blob:|\*/);
  });
});

describe("declared domains", () => {
  it("connectDomains go to connect-src, and nowhere else", () => {
    const policy = parse(appCsp(declared({ connectDomains: ["https://api.weather.com", "wss://realtime.service.com"] })));
    expect(policy.directives.get("connect-src")).toEqual(["https://api.weather.com", "wss://realtime.service.com"]);
    for (const [name, sources] of policy.directives) if (name !== "connect-src") expect(sources).not.toContain("https://api.weather.com");
  });

  it("resourceDomains go to script-src, style-src, img-src, font-src and media-src (with a subdomain wildcard)", () => {
    const policy = parse(appCsp(declared({ resourceDomains: ["https://cdn.jsdelivr.net", "https://*.cloudflare.com"] })));
    for (const name of ["script-src", "style-src", "img-src", "font-src", "media-src"]) {
      expect(policy.directives.get(name)).toEqual(expect.arrayContaining(["https://*.cloudflare.com", "https://cdn.jsdelivr.net"]));
    }
    expect(policy.directives.get("script-src")).toEqual(["'self'", "'unsafe-inline'", "https://*.cloudflare.com", "https://cdn.jsdelivr.net"]);
    expect(policy.directives.get("font-src")).toEqual(["'self'", "https://*.cloudflare.com", "https://cdn.jsdelivr.net"]);
    expect(policy.directives.get("connect-src")).toEqual(["'none'"]);
    expect(policy.directives.get("frame-src")).toEqual(["'none'"]);
  });

  it("frameDomains replace frame-src 'none'; baseUriDomains replace base-uri 'self'", () => {
    const policy = parse(appCsp(declared({ frameDomains: ["https://www.youtube.com", "https://player.vimeo.com"], baseUriDomains: ["https://cdn.example.com"] })));
    expect(policy.directives.get("frame-src")).toEqual(["https://player.vimeo.com", "https://www.youtube.com"]);
    expect(policy.directives.get("base-uri")).toEqual(["https://cdn.example.com"]);
    expect(policy.directives.get("object-src")).toEqual(["'none'"]);
  });

  it("keeps default-src 'none' first whatever is declared", () => {
    const all = { connectDomains: ["https://a.example"], resourceDomains: ["https://b.example"], frameDomains: ["https://c.example"], baseUriDomains: ["https://d.example"] };
    expect(appCsp(declared(all)).startsWith("default-src 'none'; ")).toBe(true);
  });

  it("drops a bad entry and keeps the good ones beside it (the policy is never loosened for it)", () => {
    const policy = parse(appCsp(declared({ connectDomains: ["https://ok.example", "https://evil.example; script-src *", "'unsafe-eval'"] })));
    expect(policy.directives.get("connect-src")).toEqual(["https://ok.example"]);
    expect(policy.directives.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("sanitises again what a host hands in without appUiMeta", () => {
    const raw = { csp: { connectDomains: ["https://x.example; frame-src *", "HTTPS://Y.Example:443/"], resourceDomains: "https://z.example" } } as unknown as AppUiMeta;
    const policy = parse(appCsp(raw));
    expect(policy.directives.get("connect-src")).toEqual(["https://y.example"]);
    expect(policy.directives.get("frame-src")).toEqual(["'none'"]);
    expect(policy.directives.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });
});

describe("the sanitiser of a declared origin", () => {
  const accepted: [string, string][] = [
    ["https://api.example.com", "https://api.example.com"],
    ["wss://realtime.example.com", "wss://realtime.example.com"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["ws://127.0.0.1:8080", "ws://127.0.0.1:8080"],
    ["https://*.example.com", "https://*.example.com"],
    ["HTTPS://CDN.Example.COM", "https://cdn.example.com"],
    ["https://cdn.example.com/", "https://cdn.example.com"],
    ["https://cdn.example.com:443", "https://cdn.example.com"],
    ["http://cdn.example.com:80", "http://cdn.example.com"],
    ["https://cdn.example.com:8443", "https://cdn.example.com:8443"],
    ["https://xn--bcher-kva.example", "https://xn--bcher-kva.example"],
  ];
  it.each(accepted)("takes %s as %s", (given, canonical) => {
    expect(appSource(given)).toEqual({ ok: true, source: canonical });
  });

  const refused: [string, unknown, RegExp][] = [
    ["a semicolon (a new directive)", "https://a.example;script-src", /;/],
    ["a comma (a second policy)", "https://a.example,https://b.example", /,/],
    ["a single quote", "https://a.example'", /'/],
    ["a keyword", "'unsafe-eval'", /'/],
    ["a nonce", "'nonce-abc'", /'/],
    ["a double quote", '"https://a.example"', /"/],
    ["a space", "https://a.example https://b.example", /space/],
    ["a CR", "https://a.example\r", /control/],
    ["an LF", "https://a.example\nscript-src *", /control/],
    ["a tab", "https://a.example\t", /control/],
    ["a NUL", "https://a.example\u0000", /control/],
    ["a non-ASCII host", "https://bücher.example", /non-ASCII/],
    ["a bare wildcard", "*", /not an origin/],
    ["a scheme alone", "https:", /not an origin/],
    ["data:", "data:", /not an origin/],
    ["blob:", "blob:", /not an origin/],
    ["a scheme and a wildcard host", "https://*", /two labels/],
    ["a wildcard over a top-level domain", "https://*.com", /two labels/],
    ["a wildcard not leftmost", "https://api.*.example.com", /leftmost/],
    ["a wildcard inside a label", "https://a*.example.com", /leftmost/],
    ["a port wildcard", "https://a.example:*", /port wildcard/],
    ["a port out of range", "https://a.example:70000", /port/],
    ["a port of 0", "https://a.example:0", /port/],
    ["a path", "https://a.example/path", /path/],
    ["a query", "https://a.example?x=1", /path, a query/],
    ["a fragment", "https://a.example#x", /path, a query/],
    ["user information", "https://user@a.example", /user information|host name/],
    ["a scheme-less host", "cdn.example.com", /not an origin/],
    ["javascript:", "javascript://a.example", /scheme/],
    ["file:", "file://a.example", /scheme/],
    ["an IPv6 literal", "https://[::1]", /port|host/],
    ["an underscore", "https://a_b.example", /host name/],
    ["a label starting with a hyphen", "https://-a.example", /host name/],
    ["an empty label", "https://a..example", /host name/],
    ["no host", "https://", /no host/],
    ["a backslash", "https://a.example\\", /\\/],
    ["a number", 42, /not a string/],
    ["null", null, /not a string/],
    ["an object", { toString: () => "https://a.example" }, /not a string/],
    ["a very long entry", `https://${"a".repeat(300)}.example`, /longer/],
  ];
  it.each(refused)("refuses %s", (_what, given, reason) => {
    const verdict = appSource(given);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it("reports each refused entry with its place, merges duplicates, and sorts", () => {
    const dropped: { field: string; reason: string }[] = [];
    const sources = appSources(["https://b.example", "https://A.example", "nope", "https://a.example/", "https://b.example"], "connectDomains", (problem) => dropped.push(problem));
    expect(sources).toEqual(["https://a.example", "https://b.example"]);
    expect(dropped).toEqual([{ field: "connectDomains[2]", reason: expect.stringMatching(/^"nope": it is not an origin/) }]);
  });

  it("refuses a list that is not an array, and reads at most MAX_SOURCES_PER_LIST entries", () => {
    const dropped: string[] = [];
    expect(appSources("https://a.example", "connectDomains", (problem) => dropped.push(problem.reason))).toBeUndefined();
    expect(dropped).toEqual(["not an array of strings"]);
    const many = Array.from({ length: MAX_SOURCES_PER_LIST + 5 }, (_, index) => `https://h${index}.example`);
    const read = appSources(many, "resourceDomains", (problem) => dropped.push(problem.reason));
    expect(read).toHaveLength(MAX_SOURCES_PER_LIST);
    expect(read).not.toContain(`https://h${MAX_SOURCES_PER_LIST}.example`);
    expect(dropped[1]).toMatch(/only the first 32/);
  });
});
