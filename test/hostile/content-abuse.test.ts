// Content abuse over stdio in the legacy era: what a malicious server may put in what it asks of
// the user (phishing URLs for URL elicitation, sampling budgets, text with escape sequences) and
// what it gets back from the host (roots). Each case asserts the exact outcome: the JSON-RPC error
// the server receives and the Handler not called, or what the Handler sees (clamped, vetted,
// cleaned), or what the server receives.
//
// What Conduit cleans itself, and what it leaves to the host's `sanitize` (src/index.ts):
// - cleaned: a log entry's `data` (every string, object keys included) and `logger`, through
//   `safeText`/`safeValue` before `handleLog` and `onNotification` see them;
// - not cleaned: an elicitation's `message` and its form fields' `title` and `description`
//   reach `handleElicitation` exactly as the server wrote them: the host runs `sanitize` on them
//   before it shows them (the last case shows that it does clean them);
// - URLs are vetted, not cleaned: `ctx.url` is the parser's `href` (percent-encoded, punycode
//   hosts) with `ctx.host`, `ctx.idn` and `ctx.originMismatch` for the host to show.
//
// A URL of 1 MB (found by this battery: it once reached the Handler whole) is refused past
// MAX_URL_LENGTH; one at the bound is shown.
import { describe, expect, it } from "vitest";
import { MAX_URL_LENGTH } from "../../src/input/elicitation.js";
import {
  Client,
  sanitize,
  type ClientOptions,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitationContext,
  type ElicitFormParams,
  type ElicitUrlParams,
  type Handler,
  type LogParams,
} from "../../src/node.js";
import { startRawStdio, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger } from "../helpers/logger.js";
import { MB } from "./probe.js";
import { count, safetyRow } from "./safety.js";

async function setup(handler: Handler, options: Partial<ClientOptions> = {}, connect: Parameters<Client["connect"]>[2] = {}) {
  const raw = track(await startRawStdio());
  raw.autoInitialize();
  raw.handle("ping", () => ({}));
  const logger = capturingLogger();
  const client = track(new Client({ name: "host", version: "1", handler, logger, ...options }));
  const server = await client.connect("srv", raw.target, connect);
  await raw.next("notifications/initialized");
  return { raw, client, server, logger };
}

let nextId = 1;

/** The server asks; resolves with the client's response. */
async function ask(raw: RawStdioServer, method: string, params?: Record<string, unknown>): Promise<RpcMessage> {
  const id = `abuse-${nextId++}`;
  await raw.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
  return raw.next((m) => m.id === id && !("method" in m));
}

const ANSI = "\u001b[31mred\u001b[0m";
const BIDI = "\u202eevil\u202c";
const ZERO_WIDTH = "zero\u200bwidth";
const NASTY = `${ANSI} ${BIDI} ${ZERO_WIDTH}`;
const CLEAN = "red evil zerowidth";
/** A URL far past MAX_URL_LENGTH; the length of its prefix `https://example.com/`. */
const HUGE_URL_PATH = MB;
const URL_PREFIX = "https://example.com/".length;
/** The client's sampling bound, and a request far past it. */
const MAX_TOKENS = 1000;
const HUGE_MAX_TOKENS = 1e9;

describe("URL elicitation phishing forms", () => {
  type Seen = { params: ElicitFormParams | ElicitUrlParams; ctx: ElicitationContext };
  const urlHandler = (seen: Seen[]): Handler => ({
    elicitationModes: ["form", "url"],
    handleElicitation: (params, ctx) => {
      seen.push({ params, ctx });
      return { action: "decline" };
    },
  });
  const elicitUrl = (raw: RawStdioServer, url: unknown) =>
    ask(raw, "elicitation/create", { mode: "url", message: "Sign in", url, elicitationId: "e1" });

  it.for<[string, string, string]>([
    ["javascript:alert(1)", "javascript:alert(1)", "url must use https, not javascript:"],
    ["http://example.com", "http://example.com", "url must use https, not http:"],
    ["https://user:pass@example.com", "https://user:pass@example.com", "url must not carry a user name or password"],
    // The last "@" ends the userinfo: the host is evil.com, "example.com%2F" is a user name.
    ["https://example.com%2F@evil.com/", "https://example.com%2F@evil.com/", "url must not carry a user name or password"],
    [`a URL of ${count(HUGE_URL_PATH / MB)} MiB`, `https://example.com/${"a".repeat(HUGE_URL_PATH)}`, `url must be at most ${MAX_URL_LENGTH} characters (it has ${HUGE_URL_PATH + URL_PREFIX})`],
    [`a URL of ${count(MAX_URL_LENGTH + 1)} characters, one past the bound`, `https://example.com/${"a".repeat(MAX_URL_LENGTH - URL_PREFIX + 1)}`, `url must be at most ${MAX_URL_LENGTH} characters`],
    // Within the bound as sent, past it once the parser has percent-encoded the "<"s.
    [`a URL of ${count(MAX_URL_LENGTH)} characters, past the bound once parsed`, `https://example.com/${"<".repeat(MAX_URL_LENGTH - URL_PREFIX)}`, "once parsed"],
  ])("refuses %s with -32602 before the Handler runs", async ([label, url, message], context) => {
    const seen: Seen[] = [];
    const { raw, server } = await setup(urlHandler(seen));
    const answer = await elicitUrl(raw, url);
    expect(answer.error).toMatchObject({ code: -32602, message: expect.stringContaining(message) });
    expect(seen).toEqual([]);
    await server.ping();
    const shown = label.startsWith("a URL") ? label : `\`${label}\``;
    safetyRow(context, { area: "Content abuse", tried: `URL elicitation of ${shown}`, over: "stdio", outcome: `refused with \`-32602\` before the Handler runs ("${message}")` });
  });

  it("accepts https://good.com.evil.com/ but shows the host good.com.evil.com, an origin mismatch", async (context) => {
    const seen: Seen[] = [];
    const { raw } = await setup(urlHandler(seen), {}, { elicitation: { origin: "https://good.com" } });
    expect((await elicitUrl(raw, "https://good.com.evil.com/")).result).toEqual({ action: "decline" });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.ctx).toMatchObject({ mode: "url", url: "https://good.com.evil.com/", host: "good.com.evil.com", idn: false, originMismatch: true });
    safetyRow(context, { area: "Content abuse", tried: "URL elicitation of `https://good.com.evil.com/` from a server of `https://good.com`", over: "stdio", outcome: "reaches the Handler with `host` good.com.evil.com and `originMismatch` true, to show" });
  });

  it("accepts a punycode lookalike with idn true", async (context) => {
    const seen: Seen[] = [];
    const { raw } = await setup(urlHandler(seen));
    expect((await elicitUrl(raw, "https://xn--pple-43d.com/")).result).toEqual({ action: "decline" });
    expect(seen[0]!.ctx).toMatchObject({ mode: "url", url: "https://xn--pple-43d.com/", host: "xn--pple-43d.com", idn: true, originMismatch: true });
    safetyRow(context, { area: "Content abuse", tried: "URL elicitation of a punycode lookalike (`xn--pple-43d.com`)", over: "stdio", outcome: "reaches the Handler with `idn` true and `originMismatch` true, to warn of" });
  });

  it("resolves percent-encoded dot segments: the Handler sees the parsed href, not the server's text", async (context) => {
    const seen: Seen[] = [];
    const { raw } = await setup(urlHandler(seen));
    expect((await elicitUrl(raw, "https://evil.com/%2e%2e/")).result).toEqual({ action: "decline" });
    expect(seen[0]!.ctx).toMatchObject({ mode: "url", url: "https://evil.com/", host: "evil.com", idn: false, originMismatch: true });
    // params are the server's own: ctx.url is what to show.
    expect((seen[0]!.params as ElicitUrlParams).url).toBe("https://evil.com/%2e%2e/");
    safetyRow(context, { area: "Content abuse", tried: "URL elicitation with percent-encoded dot segments (`/%2e%2e/`)", over: "stdio", outcome: "`ctx.url` is the parsed href (`https://evil.com/`): what the Handler shows is where the browser goes" });
  });
});

describe("sampling maxTokens", () => {
  const sampled: CreateMessageResult = { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
  const params = (maxTokens: unknown) => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens });

  it("clamps a maxTokens far past the client's sampling.maxTokens: the Handler sees the bound", async (context) => {
    const seen: CreateMessageParams[] = [];
    const { raw } = await setup({ handleSampling: (p) => (seen.push(p), sampled) }, { sampling: { allowIdle: true, maxTokens: MAX_TOKENS } });
    expect((await ask(raw, "sampling/createMessage", params(HUGE_MAX_TOKENS))).result).toMatchObject({ model: "m" });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.maxTokens).toBe(MAX_TOKENS);
    safetyRow(context, { area: "Content abuse", tried: `sampling with \`maxTokens\` of ${count(HUGE_MAX_TOKENS)}`, over: "stdio", outcome: `clamped to \`sampling.maxTokens\` (${count(MAX_TOKENS)} here) before the Handler sees it` });
  });

  it.for([[-1], [1.5], ["100"]])("refuses maxTokens %j with -32602 before the Handler runs", async ([maxTokens], context) => {
    let calls = 0;
    const { raw, server } = await setup({ handleSampling: () => (calls++, sampled) }, { sampling: { allowIdle: true, maxTokens: MAX_TOKENS } });
    expect((await ask(raw, "sampling/createMessage", params(maxTokens))).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("maxTokens must be a positive integer"),
    });
    expect(calls).toBe(0);
    await server.ping();
    safetyRow(context, { area: "Content abuse", tried: `sampling with \`maxTokens\` of ${JSON.stringify(maxTokens)}`, over: "stdio", outcome: "refused with `-32602` (\"maxTokens must be a positive integer\") before the Handler runs" });
  });
});

describe("roots answers", () => {
  it("sends traversal resolved, and drops a remote host and a non-file URI", async (context) => {
    const { raw, logger } = await setup({
      listRoots: () => ({
        roots: [{ uri: "file:///a/../etc", name: "t" }, { uri: "file://evil.com/share", name: "remote" }, { uri: "http://x", name: "web" }],
      }),
    });
    // The URL parser resolves "..": what is sent is the normalised path, never a "..".
    expect((await ask(raw, "roots/list")).result).toEqual({ roots: [{ uri: "file:///etc", name: "t" }] });
    expect(logger.warnings("root was not shared")).toHaveLength(2);
    safetyRow(context, { area: "Content abuse", tried: "roots answered with `file:///a/../etc`, `file://evil.com/share`, `http://x`", over: "stdio", outcome: "the traversal is sent resolved (`file:///etc`); the remote host and the non-file URI are dropped, each logged" });
  });
});

describe("escape, bidi and zero-width characters", () => {
  it("cleans a log entry's data and logger before handleLog sees it", async (context) => {
    const logs: LogParams[] = [];
    const { raw, client, server } = await setup({ handleLog: (_level, params) => void logs.push(params) });
    await raw.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "warning", logger: NASTY, data: { [NASTY]: NASTY, list: [NASTY] } } });
    await server.ping();
    await client.notificationsSettled();
    expect(logs).toEqual([{ level: "warning", logger: CLEAN, data: { [CLEAN]: CLEAN, list: [CLEAN] } }]);
    safetyRow(context, { area: "Content abuse", tried: "escape, bidi and zero-width characters in a log entry's `logger`, `data` keys and values", over: "stdio", outcome: "`handleLog` gets them cleaned" });
  });

  it("leaves an elicitation's message and field titles as sent: the host's sanitize cleans them", async (context) => {
    const seen: ElicitFormParams[] = [];
    const { raw } = await setup({ handleElicitation: (p) => (seen.push(p as ElicitFormParams), { action: "decline" }) });
    const requestedSchema = { type: "object", properties: { name: { type: "string", title: NASTY, description: NASTY } } };
    expect((await ask(raw, "elicitation/create", { message: NASTY, requestedSchema })).result).toEqual({ action: "decline" });
    expect(seen).toHaveLength(1);
    const params = seen[0]!;
    expect(params.message).toBe(NASTY);
    const field = params.requestedSchema.properties["name"] as { title: string; description: string };
    expect(field.title).toBe(NASTY);
    expect(field.description).toBe(NASTY);
    expect([params.message, field.title, field.description].map((text) => sanitize(text))).toEqual([CLEAN, CLEAN, CLEAN]);
    safetyRow(context, { area: "Content abuse", tried: "escape, bidi and zero-width characters in an elicitation's message and a field's title and description", over: "stdio", outcome: "the Handler gets them as sent (bounded in length); `sanitize` cleans each" });
  });
});
