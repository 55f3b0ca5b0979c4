// Elicitation checks around the handler callback (src/input/elicitation.ts) and URL vetting
// (src/input/elicitation-url.ts): the seed's "Elicitation" bullet and digest §3.3.
import { describe, expect, it } from "vitest";
import { checkElicitation, checkElicitResult, looksSensitive, type ElicitationRequest } from "../../src/input/elicitation.js";
import type { Field, FieldKind } from "../../src/input/form-schema.js";
import { vetUrl } from "../../src/input/elicitation.js";
import { declaredModes, type ElicitationMode } from "../../src/protocol/versions.js";
import type { ProtocolVersion } from "../../src/protocol/versions.js";

const INVALID_PARAMS = -32602;
const ORIGIN = "https://mcp.example.com";

/** The modes a handler declaring `modes` ends up with in `version` (as the pipeline computes). */
const modesFor = (modes: ElicitationMode[], version: ProtocolVersion) =>
  declaredModes({ sampling: false, elicitationModes: modes, roots: false }, version);

const formParams = (extra: Record<string, unknown> = {}) => ({
  message: "Who are you?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1 },
      password: { type: "string", title: "Password" },
      age: { type: "integer", minimum: 0, default: 30 },
      newsletter: { type: "boolean", default: false },
    },
    required: ["name"],
  },
  ...extra,
});

const urlParams = (url: unknown = "https://mcp.example.com/consent?x=1", extra: Record<string, unknown> = {}) => ({
  mode: "url",
  message: "Please sign in",
  url,
  elicitationId: "e-1",
  ...extra,
});

function request(params: Record<string, unknown>, version: ProtocolVersion = "2025-11-25", modes: ElicitationMode[] = ["form", "url"]): ElicitationRequest {
  const verdict = checkElicitation(params, modesFor(modes, version), version, ORIGIN);
  if (!verdict.ok) throw new Error(verdict.refusal.message);
  return verdict.value;
}

describe("vetUrl: accepted URLs and their context", () => {
  it("accepts an absolute https URL and reports url, host, idn and origin match", () => {
    expect(vetUrl("https://mcp.example.com/consent?x=1#top", ORIGIN)).toEqual({
      ok: true,
      value: { url: "https://mcp.example.com/consent?x=1#top", host: "mcp.example.com", idn: false, originMismatch: false },
    });
  });

  it("gives the parsed href, normalised", () => {
    expect(vetUrl("HTTPS://MCP.Example.COM:443/a/../b", ORIGIN)).toEqual({
      ok: true,
      value: { url: "https://mcp.example.com/b", host: "mcp.example.com", idn: false, originMismatch: false },
    });
    const noSlashes = vetUrl("https:evil.example/x", ORIGIN);
    expect(noSlashes.ok && noSlashes.value.url).toBe("https://evil.example/x");
  });

  it("reports the host a browser would open, backslash tricks included", () => {
    const verdict = vetUrl("https:\\\\evil.example\\@mcp.example.com", ORIGIN);
    expect(verdict).toEqual({
      ok: true,
      value: { url: "https://evil.example/@mcp.example.com", host: "evil.example", idn: false, originMismatch: true },
    });
  });

  it("includes the port in host, and a different port is a different origin", () => {
    expect(vetUrl("https://mcp.example.com:8443/x", ORIGIN)).toEqual({
      ok: true,
      value: { url: "https://mcp.example.com:8443/x", host: "mcp.example.com:8443", idn: false, originMismatch: true },
    });
    expect(vetUrl("https://mcp.example.com:8443/x", "https://mcp.example.com:8443")).toMatchObject({ ok: true, value: { originMismatch: false } });
    expect(vetUrl("https://[::1]:9000/", "https://[::1]:9000")).toEqual({
      ok: true,
      value: { url: "https://[::1]:9000/", host: "[::1]:9000", idn: false, originMismatch: false },
    });
  });

  it("flags an origin mismatch for another host, a subdomain, and whenever the server origin is unknown", () => {
    expect(vetUrl("https://example.com/", ORIGIN)).toMatchObject({ ok: true, value: { originMismatch: true } });
    expect(vetUrl("https://login.mcp.example.com/", ORIGIN)).toMatchObject({ ok: true, value: { originMismatch: true } });
    expect(vetUrl("https://mcp.example.com/", "http://mcp.example.com")).toMatchObject({ ok: true, value: { originMismatch: true } });
    expect(vetUrl("https://mcp.example.com/", undefined)).toMatchObject({ ok: true, value: { originMismatch: true } });
  });

  it("flags a punycode label anywhere in the host", () => {
    expect(vetUrl("https://xn--bcher-kva.example/", ORIGIN)).toMatchObject({ ok: true, value: { idn: true, host: "xn--bcher-kva.example" } });
    expect(vetUrl("https://login.xn--80ak6aa92e.com/", ORIGIN)).toMatchObject({ ok: true, value: { idn: true } });
    expect(vetUrl("https://shop.example.xn--p1ai/", ORIGIN)).toMatchObject({ ok: true, value: { idn: true } });
    expect(vetUrl("https://xn-not-puny.example/", ORIGIN)).toMatchObject({ ok: true, value: { idn: false } });
  });

  it("flags a Unicode host, which the URL parser turns into punycode", () => {
    expect(vetUrl("https://bücher.example/buy", ORIGIN)).toEqual({
      ok: true,
      value: { url: "https://xn--bcher-kva.example/buy", host: "xn--bcher-kva.example", idn: true, originMismatch: true },
    });
    // Cyrillic "а" in place of the Latin one.
    expect(vetUrl("https://pаypal.com/", ORIGIN)).toMatchObject({ ok: true, value: { idn: true } });
  });
});

describe("vetUrl: refusals (-32602)", () => {
  const refused = (raw: unknown) => {
    const verdict = vetUrl(raw, ORIGIN);
    if (verdict.ok) throw new Error(`accepted ${String(raw)}`);
    expect(verdict.refusal.code).toBe(INVALID_PARAMS);
    return verdict.refusal.message;
  };

  it("refuses every scheme but https", () => {
    expect(refused("http://mcp.example.com/consent")).toBe("url must use https, not http:");
    expect(refused("javascript:alert(document.cookie)")).toBe("url must use https, not javascript:");
    expect(refused("JavaScript:alert(1)")).toBe("url must use https, not javascript:");
    expect(refused("file:///etc/passwd")).toBe("url must use https, not file:");
    expect(refused("data:text/html,<script>alert(1)</script>")).toBe("url must use https, not data:");
    expect(refused("ftp://files.example.com/x")).toBe("url must use https, not ftp:");
    expect(refused("wss://mcp.example.com/")).toBe("url must use https, not wss:");
  });

  it("refuses relative and malformed URLs", () => {
    for (const raw of ["/consent", "consent", "mcp.example.com/consent", "//mcp.example.com/consent", "", "https://", "https://exa mple.com/"]) {
      expect(refused(raw), raw).toBe("url must be an absolute URL");
    }
  });

  it("refuses userinfo, which can disguise the real host", () => {
    expect(refused("https://user@mcp.example.com/")).toBe("url must not carry a user name or password");
    expect(refused("https://user:pw@mcp.example.com/")).toBe("url must not carry a user name or password");
    expect(refused("https://:pw@mcp.example.com/")).toBe("url must not carry a user name or password");
    expect(refused("https://mcp.example.com@evil.example/")).toBe("url must not carry a user name or password");
  });

  it("refuses what is not a string", () => {
    for (const raw of [undefined, null, 42, { href: "https://mcp.example.com/" }, new URL("https://mcp.example.com/")]) {
      expect(refused(raw)).toBe("url must be a string");
    }
  });
});

describe("checkElicitation: modes", () => {
  it("refuses url mode when only form is declared, with -32602", () => {
    for (const version of ["2025-11-25", "2026-07-28"] as const) {
      expect(checkElicitation(urlParams(), modesFor(["form"], version), version, ORIGIN)).toEqual({
        ok: false,
        refusal: { code: INVALID_PARAMS, message: 'elicitation mode "url" was not declared by this client' },
      });
    }
  });

  it("refuses url mode in 2025-06-18, where the declared modes are just form", () => {
    expect(modesFor(["form", "url"], "2025-06-18")).toEqual(["form"]);
    expect(checkElicitation(urlParams(), modesFor(["form", "url"], "2025-06-18"), "2025-06-18", ORIGIN)).toEqual({
      ok: false,
      refusal: { code: INVALID_PARAMS, message: 'elicitation mode "url" was not declared by this client' },
    });
  });

  it("refuses form mode, explicit or implied, when only url is declared", () => {
    const refusal = { code: INVALID_PARAMS, message: 'elicitation mode "form" was not declared by this client' };
    const modes = modesFor(["url"], "2025-11-25");
    expect(checkElicitation(formParams(), modes, "2025-11-25", ORIGIN)).toEqual({ ok: false, refusal });
    expect(checkElicitation(formParams({ mode: "form" }), modes, "2025-11-25", ORIGIN)).toEqual({ ok: false, refusal });
  });

  it("refuses an unknown mode", () => {
    expect(checkElicitation(formParams({ mode: "popup" }), ["form", "url"], "2025-11-25", ORIGIN)).toEqual({
      ok: false,
      refusal: { code: INVALID_PARAMS, message: 'unknown elicitation mode "popup"' },
    });
  });

  it("treats a missing mode as form", () => {
    expect(request(formParams()).mode).toBe("form");
    expect(request(formParams(), "2025-06-18", ["form"]).mode).toBe("form");
  });

  it("needs a string message in both modes", () => {
    const refusal = { code: INVALID_PARAMS, message: "message must be a string" };
    expect(checkElicitation(formParams({ message: undefined }), ["form"], "2025-11-25", ORIGIN)).toEqual({ ok: false, refusal });
    expect(checkElicitation(formParams({ message: 42 }), ["form"], "2025-11-25", ORIGIN)).toEqual({ ok: false, refusal });
    expect(checkElicitation(urlParams("https://mcp.example.com/", { message: ["x"] }), ["url"], "2025-11-25", ORIGIN)).toEqual({ ok: false, refusal });
  });
});

describe("checkElicitation: url mode", () => {
  it("carries the vetted URL for the context", () => {
    const params = urlParams("https://bücher.example/pay");
    const verdict = checkElicitation(params, ["url"], "2025-11-25", ORIGIN);
    expect(verdict).toEqual({
      ok: true,
      value: {
        mode: "url",
        params,
        vetted: { url: "https://xn--bcher-kva.example/pay", host: "xn--bcher-kva.example", idn: true, originMismatch: true },
      },
    });
  });

  it("reports the server origin match, and a mismatch when the origin is unknown", () => {
    expect(checkElicitation(urlParams(), ["url"], "2026-07-28", ORIGIN)).toMatchObject({ ok: true, value: { vetted: { originMismatch: false } } });
    expect(checkElicitation(urlParams(), ["url"], "2026-07-28", undefined)).toMatchObject({ ok: true, value: { vetted: { originMismatch: true } } });
  });

  it("passes on the URL refusals", () => {
    expect(checkElicitation(urlParams("http://mcp.example.com/"), ["url"], "2025-11-25", ORIGIN)).toEqual({
      ok: false,
      refusal: { code: INVALID_PARAMS, message: "url must use https, not http:" },
    });
    expect(checkElicitation(urlParams("javascript:alert(1)"), ["url"], "2025-11-25", ORIGIN)).toMatchObject({ ok: false, refusal: { code: INVALID_PARAMS } });
    expect(checkElicitation({ mode: "url", message: "Please sign in", elicitationId: "e" }, ["url"], "2025-11-25", ORIGIN)).toEqual({
      ok: false,
      refusal: { code: INVALID_PARAMS, message: "url must be a string" },
    });
  });

  it("needs an elicitationId in 2025-11-25, and none in 2026-07-28", () => {
    const { elicitationId: _id, ...withoutId } = urlParams();
    expect(checkElicitation(withoutId, ["url"], "2025-11-25", ORIGIN)).toEqual({
      ok: false,
      refusal: { code: INVALID_PARAMS, message: "a URL elicitation needs an elicitationId" },
    });
    expect(checkElicitation(withoutId, ["url"], "2026-07-28", ORIGIN)).toMatchObject({ ok: true });
  });
});

describe("checkElicitation: form mode", () => {
  it("carries the form and a sensitiveSuspected flag per field", () => {
    const params = formParams();
    const verdict = checkElicitation(params, ["form"], "2025-11-25", ORIGIN);
    if (!verdict.ok || verdict.value.mode !== "form") throw new Error("expected a form");
    expect(verdict.value.params).toBe(params);
    expect(verdict.value.form.fields.map((f) => f.name)).toEqual(["name", "password", "age", "newsletter"]);
    expect(verdict.value.form.required).toEqual(["name"]);
    expect(verdict.value.fields).toEqual({
      name: { sensitiveSuspected: false },
      password: { sensitiveSuspected: true },
      age: { sensitiveSuspected: false },
      newsletter: { sensitiveSuspected: false },
    });
  });

  it("flags a field by its name or its title, not by its description", () => {
    const params = formParams({
      requestedSchema: {
        type: "object",
        properties: {
          k: { type: "string", title: "API key" },
          n: { type: "string", title: "Your social security number" },
          c: { type: "string", title: "Colour" },
          where: { type: "string", title: "Meeting point", description: "Drop the pin on the map where we meet" },
          note: { type: "string", description: "We will never ask for your password or a token here" },
        },
      },
    });
    const verdict = request(params);
    expect(verdict.mode === "form" && verdict.fields).toEqual({
      k: { sensitiveSuspected: true },
      n: { sensitiveSuspected: true },
      c: { sensitiveSuspected: false },
      where: { sensitiveSuspected: false },
      note: { sensitiveSuspected: false },
    });
  });

  it("refuses a schema that is not flat, with -32602", () => {
    const nested = formParams({
      requestedSchema: { type: "object", properties: { address: { type: "object", properties: { street: { type: "string" } } } } },
    });
    expect(checkElicitation(nested, ["form"], "2025-11-25", ORIGIN)).toEqual({
      ok: false,
      refusal: { code: INVALID_PARAMS, message: 'requestedSchema property "address": nested schemas are not allowed' },
    });
    expect(checkElicitation(formParams({ requestedSchema: undefined }), ["form"], "2025-11-25", ORIGIN)).toEqual({
      ok: false,
      refusal: { code: INVALID_PARAMS, message: 'requestedSchema must be an object schema with type "object"' },
    });
  });

  it("applies the schema rules of the version", () => {
    const multi = formParams({
      requestedSchema: { type: "object", properties: { tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } } },
    });
    expect(checkElicitation(multi, ["form"], "2025-06-18", ORIGIN)).toEqual({
      ok: false,
      refusal: { code: INVALID_PARAMS, message: 'requestedSchema property "tags": arrays are not allowed in 2025-06-18 forms' },
    });
    expect(checkElicitation(multi, ["form"], "2025-11-25", ORIGIN).ok).toBe(true);
    expect(checkElicitation(multi, ["form"], "2026-07-28", ORIGIN).ok).toBe(true);
  });
});

describe("checkElicitResult", () => {
  const form = request(formParams());
  const url = request(urlParams());

  it("refuses an answer that is not an object or whose action is not accept, decline or cancel", () => {
    const reason = 'action must be "accept", "decline" or "cancel"';
    expect(checkElicitResult(null, form, "2025-11-25")).toEqual({ ok: false, reason: "the answer must be an object" });
    expect(checkElicitResult("accept", form, "2025-11-25")).toEqual({ ok: false, reason: "the answer must be an object" });
    for (const action of [undefined, "ok", "Accept", "DECLINE", "dismiss", true]) {
      expect(checkElicitResult({ action, content: { name: "Ada" } }, form, "2025-11-25"), String(action)).toEqual({ ok: false, reason });
      expect(checkElicitResult({ action }, url, "2025-11-25"), String(action)).toEqual({ ok: false, reason });
    }
  });

  it("sends decline and cancel without content, even when the handler added some", () => {
    for (const action of ["decline", "cancel"] as const) {
      for (const version of ["2025-06-18", "2025-11-25", "2026-07-28"] as const) {
        expect(checkElicitResult({ action, content: { name: "Ada", password: "hunter2" } }, form, version)).toEqual({ ok: true, result: { action } });
        expect(checkElicitResult({ action, content: { bogus: 1 } }, form, version)).toEqual({ ok: true, result: { action } });
      }
      expect(checkElicitResult({ action, content: { x: 1 } }, url, "2025-11-25")).toEqual({ ok: true, result: { action } });
    }
  });

  it("refuses a URL-mode accept with content, and sends one without", () => {
    expect(checkElicitResult({ action: "accept", content: { done: true } }, url, "2025-11-25")).toEqual({
      ok: false,
      reason: "a URL-mode accept carries no content",
    });
    expect(checkElicitResult({ action: "accept", content: {} }, url, "2025-11-25")).toEqual({ ok: false, reason: "a URL-mode accept carries no content" });
    expect(checkElicitResult({ action: "accept" }, url, "2025-11-25")).toEqual({ ok: true, result: { action: "accept" } });
    expect(checkElicitResult({ action: "accept" }, url, "2026-07-28")).toEqual({ ok: true, result: { action: "accept" } });
  });

  it("validates a form accept and fills in defaults (2025-11-25)", () => {
    expect(checkElicitResult({ action: "accept", content: { name: "Ada", password: "pw" } }, form, "2025-11-25")).toEqual({
      ok: true,
      result: { action: "accept", content: { name: "Ada", password: "pw", age: 30, newsletter: false } },
    });
  });

  it("does not fill in defaults in 2025-06-18", () => {
    const legacy = request(formParams(), "2025-06-18", ["form"]);
    expect(checkElicitResult({ action: "accept", content: { name: "Ada" } }, legacy, "2025-06-18")).toEqual({
      ok: true,
      result: { action: "accept", content: { name: "Ada" } },
    });
  });

  it("refuses a form accept that does not fit the schema", () => {
    expect(checkElicitResult({ action: "accept", content: { name: "Ada", age: 1.5 } }, form, "2025-11-25")).toEqual({
      ok: false,
      reason: '"age" must be an integer',
    });
    expect(checkElicitResult({ action: "accept", content: { age: 3 } }, form, "2025-11-25")).toEqual({
      ok: false,
      reason: 'the required field "name" is missing',
    });
    expect(checkElicitResult({ action: "accept" }, form, "2025-11-25")).toEqual({ ok: false, reason: 'the required field "name" is missing' });
    expect(checkElicitResult({ action: "accept", content: { name: "Ada", role: "admin" } }, form, "2025-11-25")).toEqual({
      ok: false,
      reason: '"role" is not a field of the form',
    });
    expect(checkElicitResult({ action: "accept", content: { name: "" } }, form, "2025-11-25")).toEqual({
      ok: false,
      reason: '"name" must have at least 1 characters',
    });
  });

  it("keeps _meta in the legacy versions and sends a bare answer in 2026-07-28", () => {
    const _meta = { "example.com/trace": "t-1" };
    expect(checkElicitResult({ action: "decline", _meta }, form, "2025-11-25")).toEqual({ ok: true, result: { action: "decline", _meta } });
    expect(checkElicitResult({ action: "accept", _meta }, url, "2025-06-18")).toEqual({ ok: true, result: { action: "accept", _meta } });
    const modern = request(formParams(), "2026-07-28");
    const sent = checkElicitResult({ action: "accept", content: { name: "Ada" }, _meta, resultType: "complete" }, modern, "2026-07-28");
    expect(sent).toEqual({ ok: true, result: { action: "accept", content: { name: "Ada", age: 30, newsletter: false } } });
    expect(sent.ok && Object.keys(sent.result).sort()).toEqual(["action", "content"]);
    expect(checkElicitResult({ action: "cancel", _meta }, modern, "2026-07-28")).toEqual({ ok: true, result: { action: "cancel" } });
  });

  it("sends nothing but action, content and _meta", () => {
    expect(checkElicitResult({ action: "decline", reason: "no", resultType: "complete", _meta: "not an object" }, form, "2025-11-25")).toEqual({
      ok: true,
      result: { action: "decline" },
    });
  });
});

describe("a form field named __proto__", () => {
  it("stays an own member of ctx.fields, flagged like any other", () => {
    const verdict = checkElicitation(
      { message: "?", requestedSchema: { type: "object", properties: JSON.parse('{"__proto__": {"type": "string", "title": "Password"}}') as Record<string, unknown> } },
      ["form"],
      "2025-11-25",
      undefined,
    );
    if (!verdict.ok || verdict.value.mode !== "form") throw new Error("expected a form");
    expect(Object.hasOwn(verdict.value.fields, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(verdict.value.fields, "__proto__")?.value).toEqual({ sensitiveSuspected: true });
  });
});

// ---- the secret-field guess ----------------------------------------------------------------------

function field(name: string, schema: Record<string, unknown> = {}, kind: FieldKind = { type: "string" }): Field {
  return { name, kind, schema: { type: "string", ...schema } };
}
const NUMBER: FieldKind = { type: "number", integer: true };

describe("looksSensitive", () => {
  it("flags a name that names a secret, in any case and any of the ways names are joined", () => {
    const names = [
      "password", "Password", "PASSWORD", "passwd", "passphrase", "pass", "dbPass", "smtp_pass", "confirmPassword", "new-password",
      "apiKey", "api_key", "API_KEY", "API-KEY", "x-api-key", "APIKey", "apikey", "ApiKey", "openai.apiKey", "api key",
      "secret", "clientSecret", "CLIENT_SECRET", "token", "accessToken", "refresh_token", "GITHUB_TOKEN", "bearer",
      "pin", "PIN", "pinCode", "PINCode", "userPIN", "pin_code", "pincode", "passcode",
      "otp", "OTP", "totp", "otpCode", "cvv", "CVV", "cvv2", "cvc", "ssn", "SSN", "iban", "cardNumber", "card_no",
      "credentials", "credential", "privateKey", "accessKey", "AWS_ACCESS_KEY", "authCode", "sessionId", "mfaCode", "2faCode",
    ];
    for (const name of names) expect(looksSensitive(field(name)), name).toBe(true);
  });

  it("flags a title that names a secret", () => {
    const titles = ["Your API key", "Credit card", "Enter your PIN", "The one-time password we sent", "Social security number", "CVV", "Verification code", "Bank account number"];
    for (const title of titles) expect(looksSensitive(field("value", { title })), title).toBe(true);
  });

  it("does not flag a word that only contains a secret word, nor an ordinary field", () => {
    const names = [
      "name", "email", "age", "description", "spinner", "pinned", "isPinned", "pinnacle", "pinpoint", "opinion", "pinyin", "shipping",
      "keyboard", "keyName", "monkey", "hotkey", "passage", "passenger", "passport", "compass", "bypass", "tokenizer", "tokens",
      "maxTokens", "max_tokens", "secretary", "otpauthority", "topic", "cvvs", "accountName", "cardholder", "session",
      "key", "code", "number", "id",
    ];
    for (const name of names) expect(looksSensitive(field(name)), name).toBe(false);
    for (const title of ["About you", "Pinned items", "Map pins", "Tokens to generate", "Boarding gate"]) expect(looksSensitive(field("value", { title })), title).toBe(false);
  });

  it("does not read the description, which is prose", () => {
    expect(looksSensitive(field("location", { description: "the pin on the map" }))).toBe(false);
    expect(looksSensitive(field("code", { description: "The CVV on the back of your card" }))).toBe(false);
    expect(looksSensitive(field("bio", { title: "About you", description: "Never put your password or an API key here" }))).toBe(false);
  });

  it("never flags a field whose answer is chosen, and flags a number only for a secret that is a number", () => {
    expect(looksSensitive(field("rememberPassword", { type: "boolean" }, { type: "boolean" }))).toBe(false);
    expect(looksSensitive(field("tokenKind", { enum: ["a", "b"] }, { type: "string", options: ["a", "b"] }))).toBe(false);
    expect(looksSensitive(field("secrets", {}, { type: "multi", options: ["a", "b"] }))).toBe(false);
    for (const name of ["pin", "cvv", "otp", "ssn", "cardNumber", "accountNumber"]) expect(looksSensitive(field(name, { type: "integer" }, NUMBER)), name).toBe(true);
    expect(looksSensitive(field("n", { type: "integer", title: "Your PIN" }, NUMBER))).toBe(true);
    for (const name of ["tokenLimit", "maxTokens", "passwordLength", "secretCount"]) expect(looksSensitive(field(name, { type: "integer" }, NUMBER)), name).toBe(false);
  });

  it("reads a long title's start, and gives the same answer the second time from what it remembers", () => {
    const long = `${"a ".repeat(5000)}password`;
    expect(looksSensitive(field("value", { title: long }))).toBe(false);
    expect(looksSensitive(field("value", { title: `password ${"a ".repeat(5000)}` }))).toBe(true);
    for (let i = 0; i < 2; i++) expect(looksSensitive(field("apiKey"))).toBe(true);
  });
});
