// Which addresses a URL names, as OAuth sorts them (src/auth/url-policy.ts), and which a
// resource may send the client to. Hosts go through `URL` first, as they do in the client, so
// that every spelling of an address (hex, octal, one number, IPv4 in IPv6) is the parser's.
import { describe, expect, it } from "vitest";
import { localityOf, UrlPolicy } from "../../src/auth/url-policy.js";

const hostOf = (url: string): string => new URL(url).hostname;

describe("localityOf", () => {
  const cases: Array<[string, ReturnType<typeof localityOf>]> = [
    ["http://localhost/", "loopback"],
    ["http://LOCALHOST./", "loopback"],
    ["http://app.localhost/", "loopback"],
    ["http://127.0.0.1/", "loopback"],
    ["http://127.255.0.9/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://0.0.0.0/", "loopback"],
    ["http://[::1]/", "loopback"],
    ["http://[::]/", "loopback"],
    ["http://[0:0:0:0:0:0:0:1]/", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::127.0.0.1]/", "loopback"],
    ["http://[64:ff9b::7f00:1]/", "loopback"],
    ["http://169.254.169.254/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://[::ffff:169.254.169.254]/", "link-local"],
    ["http://10.1.2.3/", "private"],
    ["http://172.16.0.1/", "private"],
    ["http://172.31.255.255/", "private"],
    ["http://192.168.0.1/", "private"],
    ["http://100.64.0.1/", "private"],
    ["http://[fc00::1]/", "private"],
    ["http://[fd12:3456::1]/", "private"],
    ["http://[::ffff:10.0.0.1]/", "private"],
    ["http://172.32.0.1/", "public"],
    ["http://172.15.0.1/", "public"],
    ["http://100.128.0.1/", "public"],
    ["http://8.8.8.8/", "public"],
    ["http://[2001:db8::1]/", "public"],
    ["http://[::ffff:8.8.8.8]/", "public"],
    ["http://example.com/", "public"],
    ["http://localhost.example.com/", "public"],
    ["http://127.0.0.1.nip.io/", "public"],
  ];
  for (const [url, expected] of cases) {
    it(`${url} is ${expected}`, () => expect(localityOf(hostOf(url))).toBe(expected));
  }
});

describe("UrlPolicy", () => {
  const allowed = (resource: string, target: string, issuer?: string): boolean => {
    try {
      new UrlPolicy(new URL(resource), issuer === undefined ? undefined : new URL(issuer)).check(target, "the URL");
      return true;
    } catch {
      return false;
    }
  };

  it("lets a resource on the internet name public URLs only", () => {
    expect(allowed("https://mcp.example.com/mcp", "https://as.example.com/")).toBe(true);
    expect(allowed("https://mcp.example.com/mcp", "http://127.0.0.1:2375/")).toBe(false);
    expect(allowed("https://mcp.example.com/mcp", "https://127.0.0.1/")).toBe(false);
    expect(allowed("https://mcp.example.com/mcp", "https://169.254.169.254/latest/meta-data/")).toBe(false);
    expect(allowed("https://mcp.example.com/mcp", "https://10.0.0.5/")).toBe(false);
    expect(allowed("https://mcp.example.com/mcp", "http://as.example.com/")).toBe(false);
  });

  it("lets a resource on loopback name anything secure", () => {
    expect(allowed("http://127.0.0.1:3000/mcp", "http://localhost:9000/")).toBe(true);
    expect(allowed("http://127.0.0.1:3000/mcp", "https://10.0.0.5/")).toBe(true);
    expect(allowed("http://127.0.0.1:3000/mcp", "https://as.example.com/")).toBe(true);
    expect(allowed("http://127.0.0.1:3000/mcp", "http://10.0.0.5/")).toBe(false);
  });

  it("lets a resource at a private address name private and public URLs, not loopback or link-local ones", () => {
    expect(allowed("https://10.0.0.2/mcp", "https://10.0.0.5/")).toBe(true);
    expect(allowed("https://10.0.0.2/mcp", "https://as.example.com/")).toBe(true);
    expect(allowed("https://10.0.0.2/mcp", "https://127.0.0.1/")).toBe(false);
    expect(allowed("https://10.0.0.2/mcp", "https://169.254.169.254/")).toBe(false);
  });

  it("trusts the kind of address of the authorization server the host named, and that kind alone", () => {
    expect(allowed("https://mcp.example.com/mcp", "http://127.0.0.1:9000/token", "http://127.0.0.1:9000")).toBe(true);
    expect(allowed("https://mcp.example.com/mcp", "https://169.254.169.254/", "http://127.0.0.1:9000")).toBe(false);
  });

  it("refuses what is not a URL", () => {
    expect(allowed("https://mcp.example.com/mcp", "not a url")).toBe(false);
  });
});
