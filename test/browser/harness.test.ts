// The browser harness itself: a page on its own origin loads Conduit's web entry, and the CORS
// front lets through what its policy allows and nothing else (the browser's own verdict).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBrowser, type BrowserHarness } from "../helpers/chromium.js";
import { startCorsFront, type CorsFront } from "../helpers/cors-front.js";
import { startRawHttp, type RawHttpServer } from "../helpers/raw-http.js";
import { needs } from "../helpers/system-tools.js";

describe("the Chromium harness", needs("chromium-headless-shell"), () => {
  let browser: BrowserHarness;
  let raw: RawHttpServer;
  let front: CorsFront;

  beforeAll(async () => {
    [browser, raw] = await Promise.all([startBrowser(), startRawHttp()]);
    front = await startCorsFront(raw.url);
  });

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await raw?.close();
  });

  it("serves a page on a loopback origin with Conduit's web entry loaded", async () => {
    const { page, origin, errors } = await browser.openPage({ html: "<p id=here>x</p>", script: "globalThis.ran = typeof Conduit.Client;" });
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await page.evaluate(() => [(globalThis as unknown as { origin: string }).origin, typeof Conduit.Client, typeof Conduit.ClientError])).toEqual([origin, "function", "function"]);
    await page.waitForFunction(() => (globalThis as { ran?: string }).ran === "function");
    expect(errors).toEqual([]);
  });

  it("the CORS front passes what its policy allows and the browser refuses the rest", async () => {
    const { page, origin } = await browser.openPage();
    const post = (headers: Record<string, string>) =>
      page.evaluate(
        async ({ url, headers }) => {
          try {
            const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "p", version: "1" } } }) });
            return { status: response.status, session: response.headers.get("mcp-session-id") };
          } catch (error) {
            return { thrown: (error as Error).name };
          }
        },
        { url: front.url, headers },
      );
    expect(await post({ "mcp-protocol-version": "2025-11-25" })).toEqual({ status: 200, session: raw.sessionId });
    front.policy.allowHeaders = ["content-type", "accept"];
    expect(await post({ "mcp-protocol-version": "2025-11-25" })).toEqual({ thrown: "TypeError" });
    expect(front.preflights.at(-1)).toMatchObject({ origin, method: "POST", headers: ["content-type", "mcp-protocol-version"], allowed: false });
    front.policy.allowHeaders = "*";
    front.policy.exposeHeaders = [];
    expect(await post({})).toEqual({ status: 200, session: null });
    front.policy.allowOrigins = ["http://elsewhere.example"];
    expect(await post({})).toEqual({ thrown: "TypeError" });
  });
});
