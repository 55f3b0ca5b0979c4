// The browser's stores in Chromium: Web Storage and IndexedDB as the page has them (a reload
// keeps what they hold), IndexedDB's object store added to a database that lacks it, another
// tab's upgrade let through; and a DPoP key kept non-extractable in IndexedDB, so that after a
// reload the page presents its kept DPoP-bound token with proofs of the same key, and the person
// is not asked again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBrowser, type BrowserHarness } from "../helpers/chromium.js";
import { startOAuthServers } from "../helpers/oauth-server.js";
import { needs } from "../helpers/system-tools.js";

const CALLBACK_PAGE = `<!doctype html><meta charset="utf-8"><title>callback</title>
<script type="module">const { completeAuthorization } = await import("/conduit.js"); completeAuthorization();</script>`;

describe("the browser's stores, in Chromium", needs("chromium-headless-shell"), () => {
  let browser: BrowserHarness;

  beforeAll(async () => {
    browser = await startBrowser();
    browser.serve("/callback", { body: CALLBACK_PAGE });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("webStorageStore keeps strings in sessionStorage (the default) or localStorage, under its prefix, across a reload", async () => {
    const { page } = await browser.openPage();
    await page.evaluate(async () => {
      await Conduit.webStorageStore().set("conduit:a", "in the tab");
      await Conduit.webStorageStore(localStorage, { prefix: "app/" }).set("conduit:b", "in the origin");
      await Conduit.webStorageStore(localStorage).set("conduit:gone", "x");
      await Conduit.webStorageStore(localStorage).delete("conduit:gone");
    });
    await page.reload();
    await page.evaluate(() => globalThis.conduitReady);
    expect(
      await page.evaluate(async () => [
        await Conduit.webStorageStore().get("conduit:a"),
        await Conduit.webStorageStore(localStorage, { prefix: "app/" }).get("conduit:b"),
        await Conduit.webStorageStore(localStorage).get("conduit:gone"),
        Object.keys(localStorage).sort(),
      ]),
    ).toEqual(["in the tab", "in the origin", undefined, ["app/conduit:b"]]);
  });

  it("indexedDbStore keeps strings across a reload, adds its object store to a database that lacks it, and lets another tab upgrade", async () => {
    const { page } = await browser.openPage();
    await page.evaluate(async () => {
      // A database of the app's own, at version 1 with another object store.
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.open("shared", 1);
        request.onupgradeneeded = () => request.result.createObjectStore("app");
        request.onsuccess = () => (request.result.close(), resolve());
        request.onerror = () => reject(request.error);
      });
      const store = Conduit.indexedDbStore({ database: "shared", objectStore: "auth" });
      await store.set("conduit:tokens:x", '{"kept":true}');
      store.close();
    });
    await page.reload();
    await page.evaluate(() => globalThis.conduitReady);
    const after = await page.evaluate(async () => {
      const store = Conduit.indexedDbStore({ database: "shared", objectStore: "auth" });
      const kept = await store.get("conduit:tokens:x");
      // Another tab upgrades the database while this store holds it open: the store lets go.
      const upgraded = await new Promise<number>((resolve, reject) => {
        const request = indexedDB.open("shared", 10);
        request.onupgradeneeded = () => request.result.createObjectStore("more");
        request.onsuccess = () => (request.result.close(), resolve(request.result.version));
        request.onblocked = () => reject(new Error("blocked"));
        request.onerror = () => reject(request.error);
      });
      await store.set("conduit:tokens:y", "after the upgrade");
      await store.delete("conduit:tokens:x");
      return { kept, upgraded, y: await store.get("conduit:tokens:y"), x: await store.get("conduit:tokens:x") };
    });
    expect(after).toEqual({ kept: '{"kept":true}', upgraded: 10, y: "after the upgrade", x: undefined });
  });

  it("keeps the DPoP key non-extractable in IndexedDB: after a reload the kept DPoP-bound token is presented with proofs of that key, and the person is not asked", async () => {
    const servers = await startOAuthServers({ cors: true });
    servers.metadata = { dpop_signing_alg_values_supported: ["ES256"] };
    const { page, context, origin } = await browser.openPage();
    const redirectUri = `${origin}/callback`;
    const opened = context.waitForEvent("page");
    const first = page.evaluate(
      async ({ url, redirectUri }) => {
        const client = new Conduit.Client({ name: "page", version: "1" });
        const server = await client.connect("p", { url, auth: { ...Conduit.browserPopup({ redirectUri }), store: Conduit.indexedDbStore() } });
        const result = await server.callTool("whoami", {});
        await client.close();
        return result.content;
      },
      { url: servers.resourceUrl, redirectUri },
    );
    await opened;
    expect(await first).toEqual([{ type: "text", text: "tok-1" }]);
    expect(servers.seenTokens.at(-1)).toBe("DPoP tok-1");

    await page.reload();
    await page.evaluate(() => globalThis.conduitReady);
    const second = await page.evaluate(
      async ({ url, redirectUri }) => {
        const client = new Conduit.Client({ name: "page", version: "1" });
        const store = Conduit.indexedDbStore();
        let asked = 0;
        const server = await client.connect("p", { url, auth: { redirectUri, store, authorize: () => (asked++, Promise.reject(new Error("the person was asked again"))) } });
        const result = await server.callTool("whoami", {});
        await client.close();
        const pair = await store.getKeyPair(`conduit:dpop-key:${new URL(url).origin}${new URL(url).pathname}`);
        const exported = await crypto.subtle.exportKey("jwk", pair!.privateKey).then(
          () => "exported",
          (error: Error) => error.name,
        );
        return { content: result.content, asked, extractable: pair!.privateKey.extractable, exported };
      },
      { url: servers.resourceUrl, redirectUri },
    );
    expect(second).toEqual({ content: [{ type: "text", text: "tok-1" }], asked: 0, extractable: false, exported: "InvalidAccessError" });
    expect(servers.grants).toEqual(["authorization_code"]);
    // The resource took the token only with a proof of the key it is bound to: no refusal after the reload.
    expect(servers.seenTokens.at(-1)).toBe("DPoP tok-1");
  });

  it("does not keep a DPoP-bound token in a store that cannot keep its key: after a reload the person is asked again", async () => {
    const servers = await startOAuthServers({ cors: true });
    servers.metadata = { dpop_signing_alg_values_supported: ["ES256"] };
    const { page, context, origin } = await browser.openPage();
    const redirectUri = `${origin}/callback`;
    const connect = (): Promise<unknown> =>
      page.evaluate(
        async ({ url, redirectUri }) => {
          const client = new Conduit.Client({ name: "page", version: "1" });
          const server = await client.connect("p", { url, auth: { ...Conduit.browserPopup({ redirectUri }), store: Conduit.webStorageStore(localStorage) } });
          const result = await server.callTool("whoami", {});
          await client.close();
          return result.content;
        },
        { url: servers.resourceUrl, redirectUri },
      );
    let opened = context.waitForEvent("page");
    expect(await connect()).toEqual([{ type: "text", text: "tok-1" }]);
    await opened;
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("conduit:tokens:")))).toEqual([]);
    await page.reload();
    await page.evaluate(() => globalThis.conduitReady);
    opened = context.waitForEvent("page");
    expect(await connect()).toEqual([{ type: "text", text: "tok-2" }]);
    await opened;
    expect(servers.authorizations).toHaveLength(2);
  });
});
