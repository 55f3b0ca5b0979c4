// OAuth in a real browser: a page on a loopback origin runs Conduit's web entry against a
// Streamable HTTP server on another origin that asks for OAuth, with a local authorization
// server (test/helpers/oauth-server.ts, answering CORS). The popup helper opens the page's
// second window on the authorization server, which approves and redirects to the callback page
// (`completeAuthorization()`), which hands the redirect back over BroadcastChannel or storage;
// the page then lists tools. Also: the full-page redirect, resumed when the page comes back; a
// blocked popup reported and opened again from a click; a state no flow waits for refused.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { startBrowser, type BrowserHarness } from "../helpers/chromium.js";
import { startOAuthServers } from "../helpers/oauth-server.js";
import { needs } from "../helpers/system-tools.js";

/**
 * Resolves once the popup `opened` gives has closed. The close is listened for as soon as the
 * popup opens, and a popup already closed counts: the flow may finish (and close it) before the
 * test's next line runs, and a `waitForEvent("close")` made after that waits for ever.
 */
function closedPopup(opened: Promise<Page>): Promise<void> {
  return opened.then((popup) => (popup.isClosed() ? undefined : popup.waitForEvent("close").then(() => undefined)));
}

/** The host's callback page: Conduit's web entry, and the helper. */
const CALLBACK_PAGE = `<!doctype html><meta charset="utf-8"><title>callback</title>
<script type="module">const { completeAuthorization } = await import("/conduit.js"); globalThis.outcome = completeAuthorization();</script>`;

/** A callback page that first makes the redirect carry a state no flow waits for (as a hostile or broken authorization server would). */
const FORGING_CALLBACK_PAGE = `<!doctype html><meta charset="utf-8"><title>callback</title>
<script type="module">const url = new URL(location.href); url.searchParams.set("state", "forged"); history.replaceState(null, "", url.href);
const { completeAuthorization } = await import("/conduit.js"); globalThis.outcome = completeAuthorization();</script>`;

/** A consent page in front of the authorization server: the person approves with a click, and is sent on to its authorization endpoint. */
function consentPage(authorizationEndpoint: string): string {
  return `<!doctype html><meta charset="utf-8"><title>consent</title>
<button id="approve">Approve</button>
<script>document.getElementById("approve").onclick = () => { location.href = ${JSON.stringify(authorizationEndpoint)} + location.search; };</script>`;
}

declare global {
  var oauthListed: Promise<string[]> | undefined;
  var oauthFailure: Promise<{ kind: string; message: string; blocked: boolean } | undefined> | undefined;
  var oauthBlockedReason: string | undefined;
  var oauthClient: InstanceType<typeof Conduit.Client> | undefined;
}

describe("OAuth in Chromium", needs("chromium-headless-shell"), () => {
  let browser: BrowserHarness;

  beforeAll(async () => {
    browser = await startBrowser();
    browser.serve("/callback", { body: CALLBACK_PAGE });
    browser.serve("/forging-callback", { body: FORGING_CALLBACK_PAGE });
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Starts a connect with the popup helper in the page; its listing, or its failure, is kept on the page. */
  async function connectWithPopup(page: Page, url: string, redirectUri: string, withOnBlocked = false, timeoutMs?: number): Promise<void> {
    await page.evaluate(
      ({ url, redirectUri, withOnBlocked, timeoutMs }) => {
        // Bounds past the popup's own: what a test of that bound reads is the popup's.
        const client = new Conduit.Client({ name: "page", version: "1", requestTimeout: 3_600_000 });
        globalThis.oauthClient = client;
        const popup = Conduit.browserPopup({
          redirectUri,
          timeoutMs,
          onBlocked: withOnBlocked
            ? (blocked) => {
                globalThis.oauthBlockedReason = (blocked.error.data as { reason: string }).reason;
                const button = document.createElement("button");
                button.id = "authorize";
                button.textContent = "Authorize";
                button.onclick = () => blocked.open();
                document.body.append(button);
              }
            : undefined,
        });
        const connected = client.connect("p", { url, auth: { ...popup } }, { connectTimeout: 3_600_000 });
        globalThis.oauthListed = connected.then(async (server) => (await server.listTools()).map((tool) => tool.name));
        globalThis.oauthFailure = globalThis.oauthListed.then(
          () => undefined,
          (error: InstanceType<typeof Conduit.ClientError>) => ({ kind: error.kind, message: error.message, blocked: Conduit.isPopupBlocked(error) }),
        );
      },
      { url, redirectUri, withOnBlocked, timeoutMs },
    );
  }

  it("connects through the popup: the second window goes through consent to the callback page, which completes the flow, and the page lists tools", async () => {
    const servers = await startOAuthServers({ cors: true });
    const { page, context, origin, errors } = await browser.openPage();
    const closed = closedPopup(context.waitForEvent("page"));
    await connectWithPopup(page, servers.resourceUrl, `${origin}/callback`);
    await closed;
    expect(await page.evaluate(() => globalThis.oauthListed)).toEqual(["whoami"]);
    expect(servers.authorizations).toHaveLength(1);
    expect(servers.authorizations[0]!.get("redirect_uri")).toBe(`${origin}/callback`);
    expect(servers.registrations).toEqual([expect.objectContaining({ redirect_uris: [`${origin}/callback`], application_type: "native" })]);
    expect(servers.grants).toEqual(["authorization_code"]);
    expect(servers.seenTokens.at(-1)).toBe("Bearer tok-1");
    // The opener's waiting left nothing in the origin's storage: the code is not kept there.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("conduit-oauth:")))).toEqual([]);
    // The browser logs each 401 and 405 it was answered (the challenge, the refused GET stream); nothing else went wrong.
    expect(errors.filter((error) => !/^Failed to load resource: the server responded with a status of (401|405)\b/.test(error))).toEqual([]);
  });

  it("completes through localStorage where the page has no BroadcastChannel", async () => {
    const servers = await startOAuthServers({ cors: true });
    const { page, context, origin } = await browser.openPage();
    await page.evaluate(() => {
      // As a browser without it (or whose message was lost): the storage event and the reads carry the redirect.
      delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
    });
    const closed = closedPopup(context.waitForEvent("page"));
    await connectWithPopup(page, servers.resourceUrl, `${origin}/callback`);
    await closed;
    expect(await page.evaluate(() => globalThis.oauthListed)).toEqual(["whoami"]);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("conduit-oauth:")))).toEqual([]);
  });

  it("reports a blocked popup as an error the host can catch, and opens it from a click when the host asks to", async () => {
    const servers = await startOAuthServers({ cors: true });
    const { page, context, origin } = await browser.openPage();
    // chromium-headless-shell has no popup blocker (window.open without a click opens): null is what a blocking browser gives.
    await page.evaluate(() => {
      const open = window.open.bind(window);
      (globalThis as { realOpen?: typeof open }).realOpen = open;
      window.open = () => null;
    });
    await connectWithPopup(page, servers.resourceUrl, `${origin}/callback`);
    expect(await page.evaluate(() => globalThis.oauthFailure)).toEqual({ kind: "auth", message: expect.stringContaining("blocked the authorization popup"), blocked: true });

    await connectWithPopup(page, servers.resourceUrl, `${origin}/callback`, true);
    await page.waitForSelector("#authorize");
    expect(await page.evaluate(() => globalThis.oauthBlockedReason)).toBe("popup_blocked");
    await page.evaluate(() => {
      window.open = (globalThis as { realOpen?: typeof window.open }).realOpen!;
    });
    const closed = closedPopup(context.waitForEvent("page"));
    await page.click("#authorize");
    await closed;
    expect(await page.evaluate(() => globalThis.oauthListed)).toEqual(["whoami"]);
    expect(servers.authorizations).toHaveLength(1);
  });

  it("refuses a redirect whose state no flow waits for, without redeeming its code", async () => {
    const servers = await startOAuthServers({ cors: true });
    const { page, context, origin } = await browser.openPage();
    const closed = closedPopup(context.waitForEvent("page"));
    await connectWithPopup(page, servers.resourceUrl, `${origin}/forging-callback`);
    await closed;
    const failure = await page.evaluate(() => globalThis.oauthFailure);
    expect(failure).toMatchObject({ kind: "auth", blocked: false });
    expect(failure!.message).toContain("at authorization");
    expect(failure!.message).toMatch(/state/);
    expect(servers.grants).toEqual([]);
    for (const secret of servers.secrets) expect(failure!.message).not.toContain(secret);
  });

  it("ends the wait at its bound (timeoutMs) when the person never approves: the popup is closed and the connect fails", async () => {
    const servers = await startOAuthServers({ cors: true });
    const { page, context, origin } = await browser.openPage();
    browser.serve("/consent", { body: consentPage(`${servers.issuer}/authorize`) });
    servers.metadata = { authorization_endpoint: `${origin}/consent` };
    const opened = context.waitForEvent("page");
    // The person never clicks: the wait can only end at its bound.
    await connectWithPopup(page, servers.resourceUrl, `${origin}/callback`, false, 1_000);
    const popup = await opened;
    const failure = await page.evaluate(() => globalThis.oauthFailure);
    expect(failure).toMatchObject({ kind: "auth", blocked: false });
    expect(failure!.message).toContain("no redirect came back within 1000 ms");
    await vi.waitFor(() => expect(popup.isClosed()).toBe(true));
    expect(servers.authorizations).toHaveLength(0);
  });

  it("closes the popup when the connection ends while the person is at the consent page", async () => {
    const servers = await startOAuthServers({ cors: true });
    const { page, context, origin } = await browser.openPage();
    browser.serve("/consent", { body: consentPage(`${servers.issuer}/authorize`) });
    servers.metadata = { authorization_endpoint: `${origin}/consent` };
    const opened = context.waitForEvent("page");
    await connectWithPopup(page, servers.resourceUrl, `${origin}/callback`);
    const popup = await opened;
    await popup.waitForSelector("#approve");
    const closed = popup.waitForEvent("close");
    await page.evaluate(() => globalThis.oauthClient!.close());
    await closed;
    expect(await page.evaluate(() => globalThis.oauthFailure)).toMatchObject({ kind: expect.stringMatching(/^(closed|auth)$/) });
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("conduit-oauth:")))).toEqual([]);
  });

  it("completes after the person approves with a click at the consent page", async () => {
    const servers = await startOAuthServers({ cors: true });
    const { page, context, origin } = await browser.openPage();
    browser.serve("/consent", { body: consentPage(`${servers.issuer}/authorize`) });
    servers.metadata = { authorization_endpoint: `${origin}/consent` };
    const opened = context.waitForEvent("page");
    await connectWithPopup(page, servers.resourceUrl, `${origin}/callback`);
    const popup = await opened;
    const closed = popup.waitForEvent("close");
    await popup.click("#approve");
    await closed;
    expect(await page.evaluate(() => globalThis.oauthListed)).toEqual(["whoami"]);
  });

  it("survives a full-page redirect: the flow's state kept in sessionStorage, resumed when the page comes back and connects", async () => {
    const servers = await startOAuthServers({ cors: true });
    const { page, origin, url } = await browser.openPage();
    const back = `${url}?back=1`;
    const connect = (resourceUrl: string, redirectUri: string, returnTo: string): Promise<string[]> =>
      page.evaluate(
        async ({ resourceUrl, redirectUri, returnTo }) => {
          const client = new Conduit.Client({ name: "page", version: "1" });
          const server = await client.connect("p", { url: resourceUrl, auth: { ...Conduit.browserRedirect({ redirectUri, returnTo }) } });
          return (await server.listTools()).map((tool) => tool.name);
        },
        { resourceUrl, redirectUri, returnTo },
      );
    // The page leaves for the authorization server: what it was evaluating goes with it.
    const left = connect(servers.resourceUrl, `${origin}/callback`, back).catch(() => "left");
    await page.waitForURL(back);
    expect(await left).toBe("left");
    await page.evaluate(() => globalThis.conduitReady);
    expect(await connect(servers.resourceUrl, `${origin}/callback`, back)).toEqual(["whoami"]);
    expect(servers.authorizations).toHaveLength(1);
    expect(servers.grants).toEqual(["authorization_code"]);
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("conduit-oauth:")))).toEqual([]);
  });
});
