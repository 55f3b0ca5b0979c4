// Property tests of an MCP App's policy (src/apps/app-csp.ts) and `allow` attribute: whatever a
// server puts in `_meta.ui`, the header keeps its fixed directives with `default-src 'none'`
// first, holds no character that could start a directive or a second policy, names no keyword
// but the fixed ones, and names no origin that was not declared, in that directive's list.
//
// `FUZZ_SEED=<seed>` replays a failed run (fast-check prints the seed and the counterexample).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appCsp } from "../../src/apps/app-csp.js";
import { appUiMeta, type AppUiMeta } from "../../src/apps/app-meta.js";
import { appAllow } from "../../src/apps/app-permissions.js";
import { appSource } from "../../src/apps/app-sources.js";

const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
fc.configureGlobal(seed === undefined ? {} : { seed });

const FIELDS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
// Which list feeds which directive, written out here rather than taken from the module.
const FED_BY: Readonly<Record<string, (typeof FIELDS)[number] | undefined>> = {
  "default-src": undefined,
  "script-src": "resourceDomains",
  "style-src": "resourceDomains",
  "img-src": "resourceDomains",
  "media-src": "resourceDomains",
  "font-src": "resourceDomains",
  "connect-src": "connectDomains",
  "frame-src": "frameDomains",
  "object-src": undefined,
  "base-uri": "baseUriDomains",
  "form-action": undefined,
};
const FIXED_SOURCES = new Set(["'none'", "'self'", "'unsafe-inline'", "data:"]);
const ORIGIN = /^(https|wss|http|ws):\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/;

/** Pieces of what a hostile server writes into a domain list. */
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(";", ",", "'", '"', " ", "\r", "\n", "\t", "\u0000", "\\", "*", "*.", ":", "/", "?", "#", "@", "[", "]", "%3B") },
  { weight: 4, arbitrary: fc.constantFrom("https://", "wss://", "http://", "data:", "blob:", "javascript:", "'unsafe-eval'", "'unsafe-inline'", "'self'", "'none'", "'nonce-x'", "'strict-dynamic'") },
  { weight: 4, arbitrary: fc.constantFrom("a.example", "example.com", "EXAMPLE.COM", "localhost", "script-src", "default-src *", "connect-src", "frame-ancestors", "xn--bcher-kva", "bücher", "443", "8080", "*") },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 4 }) },
);
const hostileEntry = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(""));
const validEntry = fc
  .tuple(fc.constantFrom("https", "wss", "http", "ws"), fc.boolean(), fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }))
  .map(([scheme, wildcard, domain, port]) => `${scheme}://${wildcard ? "*." : ""}${domain}${port === undefined ? "" : `:${port}`}`);
const entry = fc.oneof({ weight: 3, arbitrary: hostileEntry }, { weight: 1, arbitrary: validEntry }, { weight: 1, arbitrary: fc.anything() });
const list = fc.oneof({ weight: 5, arbitrary: fc.array(entry, { maxLength: 12 }) }, { weight: 1, arbitrary: fc.anything() });
const csp = fc.record(Object.fromEntries(FIELDS.map((field) => [field, list])) as Record<(typeof FIELDS)[number], typeof list>, { requiredKeys: [] });
const permissions = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom("camera", "microphone", "geolocation", "clipboardWrite", "usb", "camera; microphone *", "tools"), fc.string()), fc.oneof(fc.constant({}), fc.anything())),
  fc.anything(),
);
const ui = fc.oneof({ weight: 6, arbitrary: fc.record({ csp, permissions }, { requiredKeys: [] }) }, { weight: 1, arbitrary: fc.anything() });

/** Every canonical source a declared list could stand for. */
function declaredSources(value: unknown): Set<string> {
  const sources = new Set<string>();
  if (!Array.isArray(value)) return sources;
  for (const item of value as unknown[]) {
    const verdict = appSource(item);
    if (verdict.ok) sources.add(verdict.source);
  }
  return sources;
}

function checkPolicy(policy: string, declared: unknown): void {
  expect(policy.startsWith("default-src 'none'; ")).toBe(true);
  // Printable ASCII, tokens split by one space, directives by "; ": nothing to start another.
  expect(policy).toMatch(/^[\x21-\x7e]+(?:(?: |; )[\x21-\x7e]+)*$/);
  expect(policy).not.toMatch(/[,"\\]/);
  const parts = policy.split("; ");
  const names = parts.map((part) => part.split(" ")[0] ?? "");
  expect(new Set(names).size).toBe(names.length);
  expect(names.filter((name) => name !== "font-src")).toEqual(["default-src", "script-src", "style-src", "img-src", "media-src", "connect-src", "frame-src", "object-src", "base-uri", "form-action"]);
  const fields = typeof declared === "object" && declared !== null && !Array.isArray(declared) ? (declared as Record<string, unknown>) : {};
  for (const part of parts) {
    const [name = "", ...sources] = part.split(" ");
    expect(Object.hasOwn(FED_BY, name)).toBe(true);
    expect(sources.length).toBeGreaterThan(0);
    const field = FED_BY[name];
    const allowed = field === undefined || !Object.hasOwn(fields, field) ? new Set<string>() : declaredSources(fields[field]);
    for (const source of sources) {
      if (FIXED_SOURCES.has(source)) continue;
      expect(source).toMatch(ORIGIN);
      expect(allowed.has(source)).toBe(true);
    }
    if (sources.some((source) => source.startsWith("'") && !FIXED_SOURCES.has(source))) throw new Error(`a keyword was smuggled in: ${part}`);
  }
}

describe("fuzz: the policy of an app's frame", () => {
  it("never gains a directive, a forbidden character, a keyword or an undeclared origin, validated or raw", () => {
    fc.assert(
      fc.property(ui, (raw) => {
        const declared = typeof raw === "object" && raw !== null && Object.hasOwn(raw, "csp") ? (raw as { csp: unknown }).csp : undefined;
        checkPolicy(appCsp(appUiMeta(raw)), declared);
        checkPolicy(appCsp(raw as AppUiMeta), declared);
      }),
      { numRuns: 1_000 },
    );
  });

  it("keeps every well-formed declared origin, in the directives its list feeds", () => {
    fc.assert(
      fc.property(fc.array(validEntry, { minLength: 1, maxLength: 5 }), fc.constantFrom(...FIELDS), (entries, field) => {
        const policy = appCsp(appUiMeta({ csp: { [field]: entries } }));
        for (const given of entries) {
          const verdict = appSource(given);
          // A generated domain may still be one the sanitiser refuses (a one-label wildcard base).
          if (!verdict.ok) continue;
          const carrying = policy.split("; ").filter((part) => part.split(" ").includes(verdict.source));
          expect(carrying.map((part) => FED_BY[part.split(" ")[0] ?? ""])).toEqual(carrying.map(() => field));
          expect(carrying.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it("reads an accepted origin back as itself (the canonical form is a fixed point)", () => {
    fc.assert(
      fc.property(fc.oneof(validEntry, hostileEntry), (given) => {
        const verdict = appSource(given);
        if (verdict.ok) expect(appSource(verdict.source)).toEqual(verdict);
      }),
      { numRuns: 1_000 },
    );
  });

  it("the allow attribute names only the four features, each once, whatever the permissions", () => {
    fc.assert(
      fc.property(permissions, (raw) => {
        for (const allow of [appAllow(appUiMeta({ permissions: raw })), appAllow({ permissions: raw } as AppUiMeta)]) {
          if (allow === "") continue;
          const features = allow.split("; ");
          expect(new Set(features).size).toBe(features.length);
          for (const feature of features) expect(["camera", "microphone", "geolocation", "clipboard-write"]).toContain(feature);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
