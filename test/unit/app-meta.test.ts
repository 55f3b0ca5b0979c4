// An app resource's `_meta.ui` checked field by field (src/apps/app-meta.ts), the `allow`
// attribute from its permissions (src/apps/app-permissions.ts), and its fingerprint
// (src/apps/app-fingerprint.ts): stable under what does not change meaning, sensitive to what does.
import { describe, expect, it } from "vitest";
import { appFingerprint } from "../../src/apps/app-fingerprint.js";
import { appUiMeta, withFallback, type AppUiMeta, type DroppedField } from "../../src/apps/app-meta.js";
import { appAllow } from "../../src/apps/app-permissions.js";

function checked(ui: unknown): { meta: AppUiMeta; dropped: DroppedField[] } {
  const dropped: DroppedField[] = [];
  return { meta: appUiMeta(ui, (problem) => dropped.push(problem)), dropped };
}

describe("appUiMeta", () => {
  it("keeps a well-formed declaration, in canonical form", () => {
    const { meta, dropped } = checked({
      csp: { connectDomains: ["https://API.example.com"], resourceDomains: ["https://cdn.example.com", "https://cdn.example.com/"] },
      permissions: { camera: {}, clipboardWrite: {} },
      domain: "A904794854a047f6.claudemcpcontent.com",
      prefersBorder: true,
    });
    expect(dropped).toEqual([]);
    expect(meta).toEqual({
      csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com"] },
      permissions: { camera: {}, clipboardWrite: {} },
      domain: "a904794854a047f6.claudemcpcontent.com",
      prefersBorder: true,
    });
  });

  it("is empty for nothing, and reports a ui that is not an object", () => {
    expect(checked(undefined)).toEqual({ meta: {}, dropped: [] });
    for (const ui of [null, "csp", 3, ["csp"]]) expect(checked(ui)).toEqual({ meta: {}, dropped: [{ field: "_meta.ui", reason: "not an object" }] });
  });

  it("drops each malformed field and keeps the rest", () => {
    const { meta, dropped } = checked({
      csp: { connectDomains: "https://a.example", resourceDomains: ["https://ok.example", 7], frameDomains: null },
      permissions: { camera: true, microphone: {}, geolocation: "yes", clipboardWrite: [] },
      domain: "https://not-a-host.example/path",
      prefersBorder: "yes",
    });
    expect(meta).toEqual({ csp: { resourceDomains: ["https://ok.example"] }, permissions: { microphone: {} } });
    expect(dropped.map((problem) => problem.field)).toEqual([
      "_meta.ui.csp.connectDomains",
      "_meta.ui.csp.resourceDomains[1]",
      "_meta.ui.csp.frameDomains",
      "_meta.ui.permissions.camera",
      "_meta.ui.permissions.geolocation",
      "_meta.ui.permissions.clipboardWrite",
      "_meta.ui.domain",
      "_meta.ui.prefersBorder",
    ]);
  });

  it("drops a csp or permissions that is not an object", () => {
    expect(checked({ csp: ["https://a.example"], permissions: "camera" })).toEqual({
      meta: {},
      dropped: [
        { field: "_meta.ui.csp", reason: "not an object" },
        { field: "_meta.ui.permissions", reason: "not an object" },
      ],
    });
  });

  it("leaves unknown keys out without a word, and reads own keys only", () => {
    const inherited = Object.create({ csp: { connectDomains: ["https://proto.example"] } }) as object;
    expect(checked(inherited)).toEqual({ meta: {}, dropped: [] });
    expect(checked({ future: 1, permissions: { tools: {}, usb: {} }, csp: { scriptDomains: ["https://x.example"] } })).toEqual({ meta: {}, dropped: [] });
    expect(checked(JSON.parse('{"__proto__": {"prefersBorder": true}}'))).toEqual({ meta: {}, dropped: [] });
  });

  it("takes the listing's field where the content gives none, and the content's where it does", () => {
    const content = appUiMeta({ csp: { connectDomains: ["https://content.example"] } });
    const listed = appUiMeta({ csp: { connectDomains: ["https://listed.example"] }, permissions: { camera: {} }, prefersBorder: false });
    expect(withFallback(content, listed)).toEqual({ csp: { connectDomains: ["https://content.example"] }, permissions: { camera: {} }, prefersBorder: false });
    expect(withFallback({}, {})).toEqual({});
  });
});

describe("appAllow", () => {
  it("is empty when nothing is asked", () => {
    expect(appAllow()).toBe("");
    expect(appAllow({})).toBe("");
    expect(appAllow({ permissions: {} })).toBe("");
  });

  it("names each asked feature once, separated by semicolons, in a fixed order", () => {
    expect(appAllow({ permissions: { clipboardWrite: {}, geolocation: {}, microphone: {}, camera: {} } })).toBe("camera; microphone; geolocation; clipboard-write");
    expect(appAllow({ permissions: { microphone: {} } })).toBe("microphone");
  });

  it("grants nothing beyond the spec's four, nor for values not in the spec's form, nor from a host's raw meta", () => {
    const raw = { permissions: { camera: true, usb: {}, "display-capture": {}, geolocation: {}, "microphone; camera *": {} } } as unknown as AppUiMeta;
    expect(appAllow(raw)).toBe("geolocation");
    expect(appAllow({ permissions: "camera" } as unknown as AppUiMeta)).toBe("");
  });
});

describe("appFingerprint", () => {
  const html = "<!doctype html><html><body><script>1</script></body></html>";
  const meta = appUiMeta({ csp: { connectDomains: ["https://a.example", "https://b.example"], resourceDomains: ["https://cdn.example"] }, permissions: { camera: {}, microphone: {} } });

  it("is sha256: and 64 hex digits, the same on each call", async () => {
    const fingerprint = await appFingerprint({ html, meta });
    expect(fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await appFingerprint({ html, meta })).toBe(fingerprint);
  });

  it("does not change with key order, list order, duplicates, case, a default port or a trailing slash", async () => {
    const base = await appFingerprint({ html, meta });
    const respelt = {
      permissions: { microphone: {}, camera: {} },
      csp: { resourceDomains: ["HTTPS://CDN.example:443/"], connectDomains: ["https://b.example", "https://a.example", "https://b.example"] },
    } as unknown as AppUiMeta;
    expect(await appFingerprint({ html, meta: respelt })).toBe(base);
    expect(await appFingerprint({ html, meta: appUiMeta(respelt) })).toBe(base);
    // Looks and the host's own origin are not the app's code or powers.
    expect(await appFingerprint({ html, meta: { ...meta, prefersBorder: true, domain: "x.example" } })).toBe(base);
    // An entry the sanitiser refuses is not part of the app as rendered.
    const withJunk = { ...meta, csp: { ...meta.csp, connectDomains: [...(meta.csp?.connectDomains ?? []), "'unsafe-eval'"] } };
    expect(await appFingerprint({ html, meta: withJunk })).toBe(base);
  });

  it("is the same for no meta, an empty one, and empty lists", async () => {
    const bare = await appFingerprint({ html });
    expect(await appFingerprint({ html, meta: {} })).toBe(bare);
    expect(await appFingerprint({ html, meta: { csp: { connectDomains: [] }, permissions: {} } })).toBe(bare);
  });

  it("changes with a byte of HTML, an origin, the list an origin is in, or a permission", async () => {
    const base = await appFingerprint({ html, meta });
    const changed = [
      await appFingerprint({ html: html.replace("1", "2"), meta }),
      await appFingerprint({ html: `${html}\n`, meta }),
      await appFingerprint({ html: html.replace("\n", "\r\n").toUpperCase(), meta }),
      await appFingerprint({ html, meta: { ...meta, csp: { ...meta.csp, connectDomains: ["https://a.example"] } } }),
      await appFingerprint({ html, meta: { ...meta, csp: { ...meta.csp, connectDomains: ["https://a.example", "https://b.example", "https://c.example"] } } }),
      await appFingerprint({ html, meta: { ...meta, csp: { connectDomains: ["https://a.example", "https://b.example"], frameDomains: ["https://cdn.example"] } } }),
      await appFingerprint({ html, meta: { ...meta, csp: { ...meta.csp, baseUriDomains: ["https://cdn.example"] } } }),
      await appFingerprint({ html, meta: { ...meta, csp: { ...meta.csp, connectDomains: ["https://a.example:8443", "https://b.example"] } } }),
      await appFingerprint({ html, meta: { ...meta, permissions: { camera: {} } } }),
      await appFingerprint({ html, meta: { ...meta, permissions: { camera: {}, microphone: {}, geolocation: {} } } }),
      await appFingerprint({ html, meta: { csp: meta.csp } }),
    ];
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });

  it("tells a lone surrogate from the replacement character", async () => {
    expect(await appFingerprint({ html: "a\ud800" })).not.toBe(await appFingerprint({ html: "a\ufffd" }));
  });

  it("cannot be made to collide by moving text between the HTML and a list", async () => {
    const one = await appFingerprint({ html: 'x","https://a.example', meta: {} });
    const two = await appFingerprint({ html: "x", meta: { csp: { connectDomains: ["https://a.example"] } } });
    expect(one).not.toBe(two);
  });
});
