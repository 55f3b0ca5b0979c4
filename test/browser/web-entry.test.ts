// Conduit's web entry in a real Chromium: a page on one loopback origin runs it against
// Streamable HTTP servers on another, each behind a CORS front (test/helpers/cors-front.ts):
// both eras, HTTP+SSE, the Handler in the page, MRTR, a task, a session renewal, and what the browser
// refuses (a header or an origin the server does not allow, a redirect it hides).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBrowser, type BrowserHarness, type OpenedPage } from "../helpers/chromium.js";
import { mcpPolicy, startCorsFront, type CorsFront } from "../helpers/cors-front.js";
import { done, elicitName, scriptTasks, TASKS_EXTENSION } from "../helpers/modern-tasks.js";
import { officialHttp, spawnHttpServer, type HttpServerProcess } from "../helpers/official.js";
import { startRawHttp, type RawHttpServer } from "../helpers/raw-http.js";
import { needs } from "../helpers/system-tools.js";
import type { ElicitResult, ServerHandle } from "../../src/index.js";

/** The 2024-11-05 SDK's HTTP+SSE server (GET /sse, POST /messages). */
const OLD_SERVER = new URL("../fixtures/old-sdk-server.mjs", import.meta.url).pathname;

/** What a page's code returns for a failed promise: the ClientError's fields, as plain data. */
interface Failure {
  name: string;
  kind: string;
  message: string;
  data: { reason?: string; origin?: string; method?: string; headers?: string[]; expose?: string[] } | undefined;
}

const SECRET = "tok-3f9a-secret";

describe("the web entry in Chromium", needs("chromium-headless-shell"), () => {
  let browser: BrowserHarness;
  let both: HttpServerProcess;
  let legacy: HttpServerProcess;
  let bothFront: CorsFront;
  let legacyFront: CorsFront;
  let opened: OpenedPage | undefined;
  const closing: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    [browser, both, legacy] = await Promise.all([startBrowser(), officialHttp("both"), officialHttp("legacy")]);
    [bothFront, legacyFront] = await Promise.all([startCorsFront(both.url), startCorsFront(legacy.url)]);
  });

  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    for (const close of closing.splice(0).reverse()) await close();
    bothFront.policy = mcpPolicy();
    legacyFront.policy = mcpPolicy();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([bothFront?.close(), legacyFront?.close()]);
    await Promise.all([both?.close(), legacy?.close()]);
  });

  /** A page whose `page.evaluate` code finds Conduit, and `failure(promise)` to read an error. */
  async function page(): Promise<OpenedPage> {
    opened = await browser.openPage({
      script: `globalThis.failure = (promise) => promise.then(
        () => { throw new Error("expected a failure"); },
        (error) => ({ name: error.name, kind: error.kind, message: error.message, data: error.data }));`,
    });
    return opened;
  }

  /** A raw scripted server behind a front of its own, closed after the test. */
  async function rawBehindFront(options: Parameters<typeof startRawHttp>[0] = {}): Promise<{ raw: RawHttpServer; front: CorsFront }> {
    const raw = await startRawHttp(options);
    const front = await startCorsFront(raw.url);
    closing.push(() => raw.close(), () => front.close());
    raw.handle("tools/list", () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }));
    raw.handle("tools/call", (message) => ({ content: [{ type: "text", text: `echo ${String((message.params?.["arguments"] as { text?: unknown } | undefined)?.text)}` }] }));
    return { raw, front };
  }

  it("speaks the modern era: lists, calls, and answers an elicitation, a sampling and MRTR rounds through a Handler in the page", async () => {
    const { page: tab } = await page();
    const outcome = await tab.evaluate(async (url) => {
      const asked: string[] = [];
      const client = new Conduit.Client({
        name: "page",
        version: "1.0.0",
        handler: {
          handleElicitation: (params, ctx): ElicitResult => {
            asked.push(`${ctx.era}:${params.message}`);
            return params.message.startsWith("Round") ? { action: "accept", content: { answer: params.message.toLowerCase() } } : { action: "accept", content: { name: "Ada", age: 36 } };
          },
          handleSampling: (params, ctx) => {
            asked.push(`${ctx.era}:sampling`);
            const first = params.messages[0]!.content as { text: string };
            return { role: "assistant", model: "page-model", content: { type: "text", text: `sampled: ${first.text}` } };
          },
        },
      });
      const server = await client.connect("official", { url });
      const tools = (await server.listTools()).map((tool) => tool.name);
      const echo = await server.callTool("echo", { text: "from a page" });
      const form = await server.callTool("elicit-form", {});
      const sample = await server.callTool("sample", { prompt: "hi" });
      const rounds = await server.callTool("multi-round", { rounds: 2 });
      const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
      await client.close();
      return { era: server.era, version: server.protocolVersion, tools, echo: text(echo), form: JSON.parse(text(form)) as unknown, sample: text(sample), rounds: JSON.parse(text(rounds)) as unknown, asked };
    }, bothFront.url);
    expect(outcome).toMatchObject({ era: "modern", version: "2026-07-28", echo: "from a page", sample: "sampled: hi" });
    expect(outcome.tools).toEqual(expect.arrayContaining(["echo", "elicit-form", "sample", "multi-round"]));
    // `subscribe` is the schema's default, which the server fills in.
    expect(outcome.form).toEqual({ action: "accept", content: { name: "Ada", age: 36, subscribe: true } });
    expect(outcome.rounds).toEqual([
      { action: "accept", content: { answer: "round 1 of 2" } },
      { action: "accept", content: { answer: "round 2 of 2" } },
    ]);
    expect(outcome.asked).toEqual(["modern:Please tell us about yourself", "modern:sampling", "modern:Round 1 of 2", "modern:Round 2 of 2"]);
    // Every request crossed origins: the browser asked first, for the modern era's headers.
    expect(bothFront.requests.every((request) => request.origin === opened!.origin)).toBe(true);
    expect(bothFront.preflights.find((preflight) => preflight.headers.includes("mcp-name"))).toBeDefined();
  });

  it.each(["2025-11-25", "2025-06-18"] as const)("speaks the legacy era (%s): a session, and server requests on the stream answered by the page's Handler", async (version) => {
    const before = legacyFront.requests.length;
    const { page: tab } = await page();
    const outcome = await tab.evaluate(
      async ({ url, version }) => {
        const client = new Conduit.Client({
          name: "page",
          version: "1.0.0",
          handler: {
            handleElicitation: (_params, ctx) => ({ action: "accept", content: { name: `Ada (${ctx.era})` } }),
            handleSampling: () => ({ role: "assistant", model: "page-model", content: { type: "text", text: "sampled in the page" } }),
          },
        });
        const server = await client.connect("official", { url }, { protocolVersion: version });
        const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
        const echo = text(await server.callTool("echo", { text: "legacy" }));
        const form = JSON.parse(text(await server.callTool("elicit-form", {}))) as unknown;
        const sample = text(await server.callTool("sample", { prompt: "hi" }));
        await client.close();
        return { era: server.era, version: server.protocolVersion, echo, form, sample };
      },
      { url: legacyFront.url, version },
    );
    expect(outcome).toEqual({ era: "legacy", version, echo: "legacy", form: { action: "accept", content: { name: "Ada (legacy)", ...(version === "2025-11-25" ? { subscribe: true } : {}) } }, sample: "sampled in the page" });
    // (A schema's defaults are filled in from 2025-11-25 on.) The session id was read (exposed) and sent back, and the session DELETEd at the close.
    const sessions = legacyFront.requests.slice(before).map((request) => request.headers["mcp-session-id"]).filter((id) => id !== undefined);
    expect(sessions.length).toBeGreaterThan(3);
    expect(legacyFront.requests.at(-1)).toMatchObject({ method: "DELETE", headers: { "mcp-session-id": sessions[0] } });
  });

  it("follows a task of 2026-07-28 to its result, its input asked in the page", async () => {
    const { raw, front } = await rawBehindFront({ session: false, strictSession: false });
    raw.handle("server/discover", () => ({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw-tasks", version: "1" } },
    }));
    const script = scriptTasks(raw, [{ status: "input_required", inputRequests: { name: elicitName } }, { status: "working" }, done("task done")]);
    const { page: tab } = await page();
    const outcome = await tab.evaluate(async (url) => {
      const client = new Conduit.Client({ name: "page", version: "1.0.0", handler: { handleElicitation: () => ({ action: "accept", content: { name: "Ada" } }) } });
      const server = await client.connect("tasks", { url });
      const result = await server.callTool("long", {});
      await client.close();
      return { era: server.era, text: (result.content[0] as { text: string }).text };
    }, front.url);
    expect(outcome).toEqual({ era: "modern", text: "task done" });
    expect(script.calls).toHaveLength(1);
    expect(script.updates).toHaveLength(1);
    expect(script.updates[0]!.params?.["inputResponses"]).toMatchObject({ name: { action: "accept", content: { name: "Ada" } } });
    expect(front.requests.filter((request) => request.headers["mcp-method"] === "tasks/get").every((request) => request.headers["mcp-name"] === "task-1")).toBe(true);
  });

  it("speaks HTTP+SSE to a 2024-11-05 server: the event stream over fetch, the endpoint it names, a list and a call", async () => {
    const old = await spawnHttpServer([OLD_SERVER, "2024", "sse"]);
    const front = await startCorsFront(old.url);
    closing.push(() => old.close(), () => front.close());
    const { page: tab } = await page();
    const seen = await tab.evaluate(async (url) => {
      const client = new Conduit.Client({ name: "page", version: "1.0.0" });
      try {
        const server = await client.connect("old", { url, transport: "sse" });
        const tools = (await server.listTools()).map((tool) => tool.name);
        const echoed = await server.callTool("echo", { text: "over sse" });
        return { version: server.protocolVersion, tools, echoed: echoed.content };
      } finally {
        await client.close();
      }
    }, front.url);
    expect(seen.version).toBe("2024-11-05");
    expect(seen.tools).toContain("echo");
    expect(seen.echoed).toEqual([{ type: "text", text: "over sse" }]);
    // The stream and the messages both went through the front, from the page's origin.
    expect(front.requests.some((request) => request.method === "GET")).toBe(true);
    expect(front.requests.some((request) => request.method === "POST")).toBe(true);
  });

  it("renews a session the server forgot (404): the page's client initializes again and the call goes through", async () => {
    const { raw, front } = await rawBehindFront();
    const { page: tab } = await page();
    await tab.evaluate(async (url) => {
      const client = new Conduit.Client({ name: "page", version: "1.0.0" });
      (globalThis as { renewing?: unknown }).renewing = await client.connect("raw", { url });
    }, front.url);
    const call = () => tab.evaluate(async () => ((await (globalThis as unknown as { renewing: ServerHandle }).renewing.callTool("echo", { text: "again" })).content[0] as { text: string }).text);
    expect(await call()).toBe("echo again");
    const first = raw.sessionId;
    raw.expireSession();
    expect(await call()).toBe("echo again");
    expect(raw.sessionId).not.toBe(first);
    const initializes = raw.requests.filter((request) => (request.json as { method?: string } | undefined)?.method === "initialize");
    expect(initializes).toHaveLength(2);
    const calls = front.requests.filter((request) => request.method === "POST" && request.headers["mcp-session-id"] !== undefined).map((request) => request.headers["mcp-session-id"]);
    expect(calls.at(-1)).toBe(raw.sessionId);
  });

  it("a header the server does not allow: the call fails with a CORS error naming what to allow, no header value in it, and the connection goes on", async () => {
    const { raw, front } = await rawBehindFront();
    const { page: tab, origin } = await page();
    await tab.evaluate(
      async ({ url, secret }) => {
        const client = new Conduit.Client({ name: "page", version: "1.0.0" });
        (globalThis as { refused?: unknown }).refused = await client.connect("raw", { url, headers: { Authorization: `Bearer ${secret}` } });
      },
      { url: front.url, secret: SECRET },
    );
    front.policy.allowHeaders = ["content-type", "accept", "authorization", "mcp-session-id"];
    const failure = await tab.evaluate(() => globalThis.failure((globalThis as unknown as { refused: ServerHandle }).refused.callTool("echo", { text: "x" })));
    expect(failure).toMatchObject({ name: "ClientError", kind: "transport", data: { reason: "cors", origin, method: "POST", expose: ["Mcp-Session-Id"] } });
    expect(failure.data!.headers!.sort()).toEqual(["Authorization", "Content-Type", "MCP-Protocol-Version", "Mcp-Session-Id"]);
    expect(failure.message).toContain(`the server did not allow this page's origin (${origin}) to send this request (CORS)`);
    expect(failure.message).toContain("MCP-Protocol-Version");
    expect(failure.message).toContain("to expose Mcp-Session-Id (Access-Control-Expose-Headers)");
    expect(failure.message).not.toContain(SECRET);
    expect(failure.message).not.toContain(raw.sessionId!);
    expect(front.preflights.at(-1)).toMatchObject({ allowed: false });
    front.policy = mcpPolicy();
    expect(await tab.evaluate(async () => ((await (globalThis as unknown as { refused: ServerHandle }).refused.callTool("echo", { text: "back" })).content[0] as { text: string }).text)).toBe("echo back");
  });

  it("a server that does not allow Last-Event-ID: the page's event stream, cut, opens anew without resuming, and what the server sends comes again", async () => {
    const { raw, front } = await rawBehindFront({ getStream: true });
    front.policy.allowHeaders = (mcpPolicy().allowHeaders as string[]).filter((name) => name !== "last-event-id");
    const { page: tab } = await page();
    await tab.evaluate(async (url) => {
      const state = { seen: [] as unknown[], warnings: [] as string[] };
      (globalThis as { streamState?: unknown }).streamState = state;
      const quiet = (): void => {};
      const client = new Conduit.Client({ name: "page", version: "1.0.0", logger: { debug: quiet, info: quiet, error: quiet, warn: (message) => state.warnings.push(message) } });
      client.onNotification(({ method, params }) => {
        if (method === "notifications/custom/tick") state.seen.push(params?.["n"]);
      });
      await client.connect("raw", { url });
    }, front.url);
    const seen = (count: number) => tab.waitForFunction((n) => (globalThis as unknown as { streamState: { seen: unknown[] } }).streamState.seen.length >= n, count);
    const first = await raw.nextGetStream();
    raw.pushGet({ jsonrpc: "2.0", method: "notifications/custom/tick", params: { n: 1 } }, { id: "1" });
    await seen(1);
    first.end();
    // The resumption (Last-Event-ID: 1) is refused by the browser; a new stream is opened.
    await raw.nextGetStream(15_000);
    raw.pushGet({ jsonrpc: "2.0", method: "notifications/custom/tick", params: { n: 2 } }, { id: "2" });
    await seen(2);
    const state = await tab.evaluate(() => (globalThis as unknown as { streamState: { seen: unknown[]; warnings: string[] } }).streamState);
    expect(state.seen).toEqual([1, 2]);
    expect(front.preflights.some((preflight) => preflight.method === "GET" && preflight.headers.includes("last-event-id") && !preflight.allowed)).toBe(true);
    const gets = front.requests.filter((request) => request.method === "GET");
    expect(gets.at(-1)!.headers["last-event-id"]).toBeUndefined();
    expect(state.warnings.filter((message) => message.includes("does not allow this page to resume its event stream"))).toHaveLength(1);
  });

  it("an origin the server does not allow: connect fails with the CORS error of the legacy handshake it fell back to", async () => {
    legacyFront.policy.allowOrigins = ["http://elsewhere.example"];
    const before = legacyFront.requests.length;
    const { page: tab, origin } = await page();
    const failure = await tab.evaluate((url) => globalThis.failure(new Conduit.Client({ name: "page", version: "1.0.0" }).connect("official", { url })), legacyFront.url);
    expect(failure).toMatchObject({ kind: "transport", data: { reason: "cors", origin, method: "POST", headers: ["Content-Type", "MCP-Protocol-Version", "Mcp-Method"] } });
    expect(failure.message).toContain(`Access-Control-Allow-Origin for ${origin}`);
    expect(failure.message).toContain("the legacy initialize tried next failed too");
    // Refused at each preflight: what reached the server is the two probes (no-cors HEADs, no credentials, no headers of ours).
    expect(legacyFront.requests.slice(before).map((request) => [request.method, request.headers["mcp-method"], request.headers["cookie"]])).toEqual([
      ["HEAD", undefined, undefined],
      ["HEAD", undefined, undefined],
    ]);
  });

  it("degrades to the legacy era where the server does not allow the modern era's headers (Mcp-Method, Mcp-Name)", async () => {
    bothFront.policy.allowHeaders = ["content-type", "accept", "mcp-protocol-version", "mcp-session-id", "last-event-id"];
    const { page: tab } = await page();
    const outcome = await tab.evaluate(async (url) => {
      const client = new Conduit.Client({ name: "page", version: "1.0.0" });
      const server = await client.connect("official", { url });
      const text = ((await server.callTool("echo", { text: "degraded" })).content[0] as { text: string }).text;
      await client.close();
      return { era: server.era, version: server.protocolVersion, text };
    }, bothFront.url);
    expect(outcome).toEqual({ era: "legacy", version: "2025-11-25", text: "degraded" });
    expect(bothFront.preflights.filter((preflight) => !preflight.allowed).map((preflight) => preflight.headers)).toEqual([["content-type", "mcp-method", "mcp-protocol-version"]]);
  });

  it("a session id the server did not expose: the 400 that follows says to expose Mcp-Session-Id", async () => {
    const { front } = await rawBehindFront();
    front.policy.exposeHeaders = [];
    const { page: tab } = await page();
    const failure = await tab.evaluate(async (url) => {
      const client = new Conduit.Client({ name: "page", version: "1.0.0" });
      const server = await client.connect("raw", { url });
      return globalThis.failure(server.callTool("echo", { text: "x" }));
    }, front.url);
    expect(failure.message).toMatch(/^HTTP 400: .*; no Mcp-Session-Id could be read from the answer to initialize: if the server sent one, it must expose it to this page \(Access-Control-Expose-Headers: Mcp-Session-Id\)$/);
  });

  it("a redirect is not followed: the browser hides where it leads", async () => {
    const elsewhere = http.createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/mcp`;
    const { raw, front } = await rawBehindFront();
    raw.route((_req, res) => void res.writeHead(307, { location: target }).end());
    const { page: tab } = await page();
    const failure = await tab.evaluate((url) => globalThis.failure(new Conduit.Client({ name: "page", version: "1.0.0" }).connect("raw", { url })), front.url);
    expect(failure).toMatchObject({ kind: "transport", data: { reason: "redirect" } });
    expect(failure.message).toBe(`POST ${front.url} answered with a redirect, which was not followed: the browser hides where it leads, and a request goes to no origin but the one the host named`);
    expect(raw.requests).toHaveLength(1);
  });

  it("a server nothing answers for is unreachable, not a CORS refusal", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/mcp`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { page: tab } = await page();
    const failure = await tab.evaluate((url) => globalThis.failure(new Conduit.Client({ name: "page", version: "1.0.0" }).connect("gone", { url })), url);
    expect(failure).toMatchObject({ kind: "transport", data: { reason: "unreachable" } });
    expect(failure.message).toBe(`POST ${url} failed: the server could not be reached from this page (the network failed, or the page's Content-Security-Policy does not allow the URL)`);
  });

  it("credentials: the page's cookies go to another origin only with \"include\", and never with the default", async () => {
    const { front } = await rawBehindFront();
    front.policy.allowCredentials = true;
    const { page: tab } = await page();
    const cookies = await tab.evaluate(async (url) => {
      // A cookie of the page's host: ports do not separate cookies, so the front's origin gets it when asked to.
      (globalThis as unknown as { document: { cookie: string } }).document.cookie = "conduit-test=page-cookie; path=/; SameSite=Lax";
      const seen: string[] = [(globalThis as unknown as { document: { cookie: string } }).document.cookie];
      for (const credentials of [undefined, "omit", "include"] as const) {
        const client = new Conduit.Client({ name: "page", version: "1.0.0" });
        await client.connect("raw", { url, ...(credentials === undefined ? {} : { credentials }) });
        await client.close();
        seen.push(credentials ?? "default");
      }
      return seen;
    }, front.url);
    expect(cookies).toEqual(["conduit-test=page-cookie", "default", "omit", "include"]);
    const initializes = front.requests.filter((request) => request.method === "POST" && request.headers["mcp-method"] === undefined && request.headers["mcp-session-id"] === undefined);
    expect(initializes.map((request) => request.headers["cookie"])).toEqual([undefined, undefined, "conduit-test=page-cookie"]);
  });
});

declare global {
  /** Set by the page's script: a failed promise's ClientError as plain data. */
  var failure: (promise: Promise<unknown>) => Promise<Failure>;
}
