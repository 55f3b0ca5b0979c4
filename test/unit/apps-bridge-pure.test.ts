// The pure parts of the apps bridge: the size a view reports, the proxy page's configuration,
// and the wire's names (the proxy's script repeats them in its own body: they must agree).
import { describe, expect, it } from "vitest";
import { MAX_SIDE_PX, reportedSize } from "../../src/apps/bridge/size.js";
import { runSandboxProxy, sandboxProxyPage } from "../../src/apps/bridge/proxy.js";
import { ALLOW_KEY, DEFAULT_INNER_SANDBOX, INNER_SANDBOX_TOKENS, POLICY_KEY, PROXY_READY, RESOURCE_READY, SANDBOX_PREFIX, methodOf } from "../../src/apps/bridge/wire.js";
import { InvalidArgumentError } from "../../src/util/errors.js";

describe("reportedSize (ui/notifications/size-changed)", () => {
  it("takes finite sides of 0 or more, rounded up, and leaves out the rest", () => {
    expect(reportedSize({ width: 300.2, height: 480 })).toEqual({ width: 301, height: 480 });
    expect(reportedSize({ height: 0 })).toEqual({ height: 0 });
    expect(reportedSize({ width: -1, height: 10 })).toEqual({ height: 10 });
    expect(reportedSize({ width: Number.NaN, height: "10" })).toBeUndefined();
    expect(reportedSize({ width: Infinity })).toBeUndefined();
    expect(reportedSize(undefined)).toBeUndefined();
    expect(reportedSize("480")).toBeUndefined();
  });

  it("holds a side at MAX_SIDE_PX, so that a view cannot make its frame cover a page of any length", () => {
    expect(reportedSize({ height: MAX_SIDE_PX + 1 })).toEqual({ height: MAX_SIDE_PX });
    expect(reportedSize({ height: 1e300 })).toEqual({ height: MAX_SIDE_PX });
  });

  it("reads own fields only", () => {
    const inherited = Object.create({ height: 50 }) as object;
    expect(reportedSize(inherited)).toBeUndefined();
  });
});

describe("sandboxProxyPage", () => {
  it("writes the host's origin into the page and the proxy's script after it", () => {
    const page = sandboxProxyPage({ hostOrigin: "https://host.example:8443" });
    expect(page).toContain('({"hostOrigin":"https://host.example:8443"})');
    expect(page).toContain(String(runSandboxProxy));
    expect(page.startsWith("<!doctype html>")).toBe(true);
  });

  it("refuses what is not an origin (a path, a query, another scheme, a trailing slash, no URL at all)", () => {
    for (const hostOrigin of ["https://host.example/", "https://host.example/app", "https://host.example?x", "javascript:alert(1)", "file:///etc", "host.example", "", "https://user@host.example"]) {
      expect(() => sandboxProxyPage({ hostOrigin }), hostOrigin).toThrow(InvalidArgumentError);
    }
  });

  it("cannot be made to close its script: no `<` of the configuration reaches the page", () => {
    // An origin cannot hold `<`; the escape holds should the configuration ever hold text.
    expect(() => sandboxProxyPage({ hostOrigin: "https://a</script><script>alert(1)//" })).toThrow(InvalidArgumentError);
    const page = sandboxProxyPage({ hostOrigin: "http://127.0.0.1:8080" });
    expect(page.match(/<\/script>/g)).toHaveLength(1);
  });
});

describe("the wire's names", () => {
  it("are the spec's, and the proxy's script says the same", () => {
    expect(PROXY_READY).toBe("ui/notifications/sandbox-proxy-ready");
    expect(RESOURCE_READY).toBe("ui/notifications/sandbox-resource-ready");
    expect(PROXY_READY.startsWith(SANDBOX_PREFIX) && RESOURCE_READY.startsWith(SANDBOX_PREFIX)).toBe(true);
    const script = String(runSandboxProxy);
    for (const name of [SANDBOX_PREFIX, PROXY_READY, RESOURCE_READY, POLICY_KEY, ALLOW_KEY, DEFAULT_INNER_SANDBOX, ...INNER_SANDBOX_TOKENS]) expect(script, name).toContain(`"${name}"`);
  });

  it("never let a view's frame navigate the top or the host", () => {
    expect(INNER_SANDBOX_TOKENS.some((token) => token.startsWith("allow-top-navigation"))).toBe(false);
    expect(DEFAULT_INNER_SANDBOX.split(" ")).not.toContain("allow-same-origin");
  });

  it("methodOf reads an own string method and nothing else", () => {
    expect(methodOf({ jsonrpc: "2.0", method: "ping" })).toBe("ping");
    expect(methodOf({ method: 1 })).toBeUndefined();
    expect(methodOf(Object.create({ method: "ping" }))).toBeUndefined();
    expect(methodOf(null)).toBeUndefined();
    expect(methodOf("ping")).toBeUndefined();
  });
});
