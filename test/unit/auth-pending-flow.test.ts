// The code flow that leaves the page and finishes when it comes back (a full-page redirect), in
// Node against the local OAuth servers: the first client's flow keeps its state and "navigates
// away" (its client is closed while the person is asked), the redirect is approved as a browser
// would, and a second client with the same pending-flow store finishes the flow without asking
// again, with the authorization server pinned and `state` checked. The browser's own store of
// pending flows (sessionStorage) is proved in test/browser/oauth-popup.test.ts.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Client, memoryStore, type AuthOptions } from "../../src/index.js";
import type { PendingFlow, PendingFlowStore } from "../../src/auth/pending-flow.js";
import { pendingFlowOf } from "../../src/auth/pending-flow.js";
import { capturingLogger } from "../helpers/logger.js";
import { approve, startOAuthServers, type OAuthServers } from "../helpers/oauth-server.js";
import { track } from "../helpers/cleanup.js";

const REDIRECT = "http://127.0.0.1:7777/callback";

/** A tab's sessionStorage, in effect: the kept flows, and the redirects that came back by state. */
function tabStore(): PendingFlowStore & { flows: Map<string, PendingFlow>; returned: Map<string, string> } {
  const flows = new Map<string, PendingFlow>();
  const returned = new Map<string, string>();
  return {
    flows,
    returned,
    save: (key, flow) => {
      flows.set(key, structuredClone(flow));
      return Promise.resolve();
    },
    take: (key) => {
      const flow = flows.get(key);
      flows.delete(key);
      if (flow === undefined) return Promise.resolve(undefined);
      const back = returned.get(flow.state);
      returned.delete(flow.state);
      return Promise.resolve({ flow, returned: back });
    },
  };
}

function client(): Client {
  return track(new Client({ name: "host", version: "1", logger: capturingLogger(), requestTimeout: 5_000 }));
}

/** Connects until the flow asks the person; closes the client there (the page navigates away) and gives the authorization URL. */
async function leaveForAuthorization(servers: OAuthServers, pendingFlow: PendingFlowStore): Promise<URL> {
  let asked: (url: URL) => void = () => {};
  const url = new Promise<URL>((resolve) => (asked = resolve));
  const host = client();
  const auth: AuthOptions = { redirectUri: REDIRECT, pendingFlow, authorize: (authorizationUrl) => (asked(authorizationUrl), new Promise<URL>(() => {})) };
  const connecting = host.connect("p", { url: servers.resourceUrl, auth }).catch((e: unknown) => e);
  const authorizationUrl = await url;
  await host.close();
  expect(await connecting).toMatchObject({ kind: "closed" });
  return authorizationUrl;
}

describe("a code flow kept across a full-page redirect", () => {
  it("is finished by the next connect with the redirect that came back: the person is not asked again", async () => {
    const servers = await startOAuthServers();
    const tab = tabStore();
    const url = await leaveForAuthorization(servers, tab);
    const [kept] = [...tab.flows.values()];
    expect(pendingFlowOf(kept)).toMatchObject({ state: url.searchParams.get("state"), issuer: servers.issuer, redirectUri: REDIRECT, clientId: "client-1", resource: servers.resourceUrl });
    tab.returned.set(kept!.state, await approve(url));

    let askedAgain = 0;
    const back = await client().connect("p", {
      url: servers.resourceUrl,
      auth: { redirectUri: REDIRECT, pendingFlow: tab, authorize: () => (askedAgain++, new Promise<URL>(() => {})) },
    });
    expect((await back.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-1" }]);
    expect(askedAgain).toBe(0);
    expect(servers.grants).toEqual(["authorization_code"]);
    expect(servers.registrations).toHaveLength(1);
    expect(tab.flows.size).toBe(0);
  });

  it("keeps the registration the flow began with for the page that came back, so that its refreshes work", async () => {
    const servers = await startOAuthServers();
    const tab = tabStore();
    const url = await leaveForAuthorization(servers, tab);
    tab.returned.set([...tab.flows.values()][0]!.state, await approve(url));
    const store = memoryStore();
    const back = await client().connect("p", { url: servers.resourceUrl, auth: { redirectUri: REDIRECT, pendingFlow: tab, store, authorize: () => new Promise<URL>(() => {}) } });
    servers.revokeAll();
    expect((await back.callTool("whoami", {})).content).toEqual([{ type: "text", text: "tok-2" }]);
    expect(servers.grants).toEqual(["authorization_code", "refresh_token"]);
  });

  it("is refused when the server now names another authorization server than the one the flow began with", async () => {
    const servers = await startOAuthServers();
    const other = await startOAuthServers();
    const tab = tabStore();
    const url = await leaveForAuthorization(servers, tab);
    tab.returned.set([...tab.flows.values()][0]!.state, await approve(url));
    servers.authorizationServers = [other.issuer];
    const error = await client()
      .connect("p", { url: servers.resourceUrl, auth: { redirectUri: REDIRECT, pendingFlow: tab, authorize: () => new Promise<URL>(() => {}) } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "auth" });
    expect((error as Error).message).toContain(`the flow began with the authorization server ${servers.issuer}`);
    // Neither server was asked for a token with the code.
    expect([...servers.grants, ...other.grants]).toEqual([]);
    const shown = inspect(error, { depth: 20 });
    for (const secret of servers.secrets) expect(shown).not.toContain(secret);
  });

  it("is refused when the redirect that came back carries another state", async () => {
    const servers = await startOAuthServers();
    const tab = tabStore();
    const url = await leaveForAuthorization(servers, tab);
    const returned = new URL(await approve(url));
    returned.searchParams.set("state", "forged");
    tab.returned.set([...tab.flows.values()][0]!.state, returned.href);
    const error = await client()
      .connect("p", { url: servers.resourceUrl, auth: { redirectUri: REDIRECT, pendingFlow: tab, authorize: () => new Promise<URL>(() => {}) } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "auth" });
    expect((error as Error).message).toContain("at authorization");
    expect((error as Error).message).toMatch(/state/);
    expect(servers.grants).toEqual([]);
  });

  it("begins anew when the page came back without a redirect (the person went back)", async () => {
    const servers = await startOAuthServers();
    const tab = tabStore();
    const first = await leaveForAuthorization(servers, tab);
    const second = await leaveForAuthorization(servers, tab);
    expect(second.searchParams.get("state")).not.toBe(first.searchParams.get("state"));
    expect([...tab.flows.values()].map((flow) => flow.state)).toEqual([second.searchParams.get("state")]);
  });

  it("refuses a pendingFlow that is no store of flows, as the connect's misuse", async () => {
    const servers = await startOAuthServers();
    const error = await client()
      .connect("p", { url: servers.resourceUrl, auth: { redirectUri: REDIRECT, pendingFlow: {} as PendingFlowStore, authorize: () => new Promise<URL>(() => {}) } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain("auth.pendingFlow");
  });
});
