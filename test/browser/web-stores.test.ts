// The browser's stores as full Stores, in Chromium: TTLs (gone once they must have expired,
// wall-clock expiries the next page reads), setIfAbsent once per key, values of before TTLs still
// read; Web Storage's claim atomic within a page, IndexedDB's across two tabs of one origin.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBrowser, type BrowserHarness } from "../helpers/chromium.js";
import { needs } from "../helpers/system-tools.js";

describe("the browser's stores as Stores, in Chromium", needs("chromium-headless-shell"), () => {
  let browser: BrowserHarness;

  beforeAll(async () => {
    browser = await startBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  for (const kind of ["webStorage", "indexedDb"] as const) {
    it(`${kind}Store: TTLs, setIfAbsent once (also from 20 callers at once), and a plain value of before TTLs`, async () => {
      const { page } = await browser.openPage();
      const seen = await page.evaluate(async (which) => {
        const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
        const store = which === "webStorage" ? Conduit.webStorageStore(localStorage, { prefix: "t/" }) : Conduit.indexedDbStore({ database: "stores-test" });
        // What a version of before TTLs left: a plain string.
        if (which === "webStorage") localStorage.setItem("t/old", "plain");
        else await store.set("old", "plain");
        await store.set("short", "s", { ttlMs: 30 });
        await store.set("long", "l", { ttlMs: 3_600_000 });
        await store.set("looks-wrapped", "\u0000{\"value\":\"x\"}");
        const first = await store.setIfAbsent("claim", "one", { ttlMs: 30 });
        const second = await store.setIfAbsent("claim", "two");
        await wait(150);
        const afterExpiry = await store.setIfAbsent("claim", "three");
        const many = await Promise.all(Array.from({ length: 20 }, (_, i) => store.setIfAbsent("race", `caller-${i}`)));
        return {
          old: await store.get("old"),
          short: await store.get("short"),
          long: await store.get("long"),
          looksWrapped: await store.get("looks-wrapped"),
          claims: [first, second, afterExpiry, await store.get("claim")],
          winners: many.filter(Boolean).length,
          badTtl: await store.set("bad", "x", { ttlMs: 0 }).then(() => "written", (error: Error) => error.name),
        };
      }, kind);
      expect(seen).toEqual({ old: "plain", short: undefined, long: "l", looksWrapped: "\u0000{\"value\":\"x\"}", claims: [true, false, true, "three"], winners: 1, badTtl: "TypeError" });
    });
  }

  it("indexedDbStore: two tabs of one origin racing setIfAbsent on the same keys win each key once", async () => {
    // A second tab in the first one's browser context: the same origin's storage (openPage makes a
    // context per page, whose databases the other would not see).
    const first = await browser.openPage();
    const second = await first.context.newPage();
    await second.goto(first.url);
    await second.evaluate(() => globalThis.conduitReady);
    const tabs = [first, { page: second }];
    const KEYS = 10;
    const won = await Promise.all(
      tabs.map(({ page }, t) =>
        page.evaluate(
          async ([tab, keys]) => {
            const store = Conduit.indexedDbStore({ database: "stores-race" });
            const results = await Promise.all(Array.from({ length: keys * 3 }, (_, i) => store.setIfAbsent(`claim-${i % keys}`, `tab-${tab}`)));
            return results.flatMap((ok, i) => (ok ? [`claim-${i % keys}`] : []));
          },
          [t, KEYS] as const,
        ),
      ),
    );
    expect(won.flat().sort()).toEqual(Array.from({ length: KEYS }, (_, k) => `claim-${k}`).sort());
  });
});
