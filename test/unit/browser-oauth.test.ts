// What of the browser's OAuth helpers Node can check: the vetting of the authorization URL, the
// Web Storage store over a Storage of the test's (the real ones are proved in Chromium, in
// test/browser/oauth-popup.test.ts), the options each helper refuses, and a clear refusal where
// there is no window, no storage, no IndexedDB.
import { describe, expect, it } from "vitest";
import { AuthRecords } from "../../src/auth/auth-records.js";
import { browserPopup } from "../../src/auth/browser-popup.js";
import { browserRedirect } from "../../src/auth/browser-redirect.js";
import { completeAuthorization } from "../../src/auth/browser-callback.js";
import { vetAuthorizationUrl } from "../../src/auth/browser-url.js";
import { pendingFlowOf } from "../../src/auth/pending-flow.js";
import { indexedDbStore } from "../../src/stores/indexeddb-store.js";
import { webStorageStore, type WebStorage } from "../../src/stores/web-storage-store.js";
import { ClientError, InvalidArgumentError } from "../../src/util/errors.js";

const PUBLIC_SERVER = new URL("https://mcp.example.com/mcp");
const LOOPBACK_SERVER = new URL("http://127.0.0.1:3000/mcp");

function refusal(work: () => unknown): ClientError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ClientError);
    return error as ClientError;
  }
  throw new Error("not refused");
}

describe("the authorization URL a browser helper opens", () => {
  it("is https, or http on loopback for a server on loopback", () => {
    expect(vetAuthorizationUrl("https://as.example.com/authorize?state=s", PUBLIC_SERVER).href).toBe("https://as.example.com/authorize?state=s");
    expect(vetAuthorizationUrl("http://127.0.0.1:9000/authorize", LOOPBACK_SERVER).host).toBe("127.0.0.1:9000");
    expect(vetAuthorizationUrl("http://localhost:9000/authorize", LOOPBACK_SERVER).hostname).toBe("localhost");
  });

  it("refuses http on loopback for a server that is not (or not known), http elsewhere, and every other scheme", () => {
    for (const [url, server] of [
      ["http://127.0.0.1:9000/authorize", PUBLIC_SERVER],
      ["http://127.0.0.1:9000/authorize", undefined],
      ["http://as.example.com/authorize", PUBLIC_SERVER],
      ["http://192.168.1.2/authorize", LOOPBACK_SERVER],
      ["javascript:alert(document.domain)//https://as.example.com/", PUBLIC_SERVER],
      ["data:text/html,<script>alert(1)</script>", PUBLIC_SERVER],
      ["blob:https://as.example.com/8d1c", PUBLIC_SERVER],
      ["file:///etc/passwd", LOOPBACK_SERVER],
      ["https://user:pass@as.example.com/authorize", PUBLIC_SERVER],
      ["not a url", PUBLIC_SERVER],
    ] as const) {
      const error = refusal(() => vetAuthorizationUrl(url, server));
      expect(error.kind, url).toBe("auth");
      expect(error.message, url).toContain("authorization failed at authorization");
    }
  });

  it("names where the URL leads but not its query (the flow's parameters) nor its user info", () => {
    const error = refusal(() => vetAuthorizationUrl("http://as.example.com/authorize?state=the-state&code_challenge=abc", PUBLIC_SERVER));
    expect(error.message).toContain("http://as.example.com/authorize");
    expect(error.message).not.toContain("the-state");
    expect(refusal(() => vetAuthorizationUrl("https://ada:hunter2@as.example.com/", PUBLIC_SERVER)).message).not.toContain("hunter2");
  });
});

/** A Storage of the test's: a Map, and a quota in characters. */
class TestStorage implements WebStorage {
  readonly items = new Map<string, string>();
  constructor(private readonly quota = Infinity) {}
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (key.length + value.length > this.quota) throw new DOMException(`Setting the value of '${key}' exceeded the quota.`, "QuotaExceededError");
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

describe("webStorageStore", () => {
  it("keeps strings under its prefix, reads an absent key as undefined, and deletes", async () => {
    const storage = new TestStorage();
    const store = webStorageStore(storage, { prefix: "app/" });
    expect(await store.get("conduit:tokens:x")).toBeUndefined();
    await store.set("conduit:tokens:x", '{"a":1}');
    expect([...storage.items]).toEqual([["app/conduit:tokens:x", '{"a":1}']]);
    expect(await store.get("conduit:tokens:x")).toBe('{"a":1}');
    await store.delete("conduit:tokens:x");
    expect(storage.items.size).toBe(0);
  });

  it("rejects (never throws) with the browser's error when the quota is full, which OAuth names without the value", async () => {
    const store = webStorageStore(new TestStorage(10));
    const set = store.set("conduit:tokens:x", "SECRET-TOKEN-VALUE");
    await expect(set).rejects.toMatchObject({ name: "QuotaExceededError" });
    const error = await new AuthRecords(store, undefined).write("token", "conduit:tokens:x", { accessToken: "SECRET-TOKEN-VALUE" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "auth" });
    expect((error as Error).message).toContain("QuotaExceededError");
    expect((error as Error).message).not.toContain("SECRET");
  });

  it("is refused where there is no storage to use, and for misused options", () => {
    expect(refusal(() => webStorageStore()).kind).toBe("unsupported");
    expect(() => webStorageStore({} as WebStorage)).toThrow(InvalidArgumentError);
    expect(() => webStorageStore(new TestStorage(), { prefix: 1 as unknown as string })).toThrow(InvalidArgumentError);
    expect(() => webStorageStore(new TestStorage(), { prefx: "a" } as never)).toThrow(/did you mean "prefix"/);
  });
});

describe("indexedDbStore and the helpers, outside a browser", () => {
  it("are refused as unsupported, not left to fail later", () => {
    expect(refusal(() => indexedDbStore()).kind).toBe("unsupported");
    expect(refusal(() => browserPopup({ redirectUri: "https://app.example/callback" })).kind).toBe("unsupported");
    expect(refusal(() => browserRedirect({ redirectUri: "https://app.example/callback" })).kind).toBe("unsupported");
    expect(refusal(() => completeAuthorization()).kind).toBe("unsupported");
  });

  it("refuse misspelt and misused options first", () => {
    expect(() => indexedDbStore({ database: "" })).toThrow(InvalidArgumentError);
    expect(() => indexedDbStore({ objectstore: "x" } as never)).toThrow(/did you mean "objectStore"/);
    expect(() => browserPopup({ redirectUri: "https://app.example/callback", timeout: 5 } as never)).toThrow(/did you mean "timeoutMs"/);
    expect(() => browserRedirect({ redirectUri: "https://app.example/callback", return: "/" } as never)).toThrow(/did you mean "returnTo"/);
    expect(() => completeAuthorization({ prefix: "" })).toThrow(InvalidArgumentError);
  });
});

describe("a kept flow read back", () => {
  const flow = { state: "s", verifier: "v", issuer: "https://as.example", redirectUri: "https://app.example/cb", clientId: "c" };

  it("is taken only whole", () => {
    expect(pendingFlowOf(flow)).toEqual(flow);
    expect(pendingFlowOf({ ...flow, scope: "a b", resource: "https://mcp.example/mcp" })).toMatchObject({ scope: "a b" });
    for (const broken of [undefined, null, "text", [], { ...flow, state: "" }, { ...flow, verifier: 1 }, { ...flow, scope: 2 }, { ...flow, issuer: undefined }]) {
      expect(pendingFlowOf(broken)).toBeUndefined();
    }
  });
});
