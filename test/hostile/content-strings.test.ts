// Hostile characters in every string a host might show: ANSI escapes (CSI, OSC 8 hyperlinks,
// OSC 52 clipboard writes, window titles), bidi overrides and isolates, zero-width and tag
// characters, C0 and C1 controls, line and paragraph separators. Each case asserts exactly what the host
// receives — cleaned where the README's "Lifecycle" bounds say Conduit cleans (log entries, what
// its own errors and logs quote), exactly as sent where it leaves the text to the host — and that
// the host's `sanitize` turns what it received into text with none of those characters.
//
// Cleaned by Conduit: a log entry's `logger` and every string of its `data` (keys included); the
// message of a ClientError that quotes a server's JSON-RPC error (its `data` stays as sent); a
// form field's name quoted in an invalid answer's error. Left as sent: tool, resource, prompt
// names, titles and descriptions; schemas; results, resource text, prompt messages; completion
// values; serverInfo and instructions; an elicitation's message and its fields' titles and
// descriptions; sampling requests; progress messages and other notifications' params; the
// messages of URLs a -32042 requires.
//
// Two strings Conduit quoted in its own errors reached the host uncleaned (a server's stderr in
// the error of its exit, a tool's execution.taskSupport): the last two stdio tests.
//
// The bounds on an elicitation's text (MAX_MESSAGE_LENGTH here; the field title and description
// bounds of FORM_BOUNDS in form-schema.test.ts) are crossed at the end, in both eras.
import { describe, expect, it, type TestContext } from "vitest";
import { MAX_MESSAGE_LENGTH } from "../../src/input/elicitation.js";
import {
  Client,
  sanitize,
  type CreateMessageParams,
  type ElicitFormParams,
  type ElicitUrlParams,
  type Handler,
  type LogParams,
  type ServerHandle,
} from "../../src/node.js";
import { DEFAULT_CAPABILITIES, startRawStdio, type JsonObject, type RawStdioServer, type RpcMessage } from "../helpers/raw-stdio.js";
import { NEXT, startRawHttp, viaSse } from "../helpers/raw-http.js";
import { track } from "../helpers/cleanup.js";
import { capturingLogger, type CapturingLogger } from "../helpers/logger.js";
import { MB } from "./probe.js";
import { count, safetyRow } from "./safety.js";

/** `text` in Unicode tag characters (U+E0000 + its ASCII code): invisible, yet a model reads it. */
function tags(text: string): string {
  return [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
}

/** One of each kind, each next to a word that must survive. */
const PARTS = [
  "\u001b[31mred\u001b[0m", // CSI: colour
  "\u001b[2J\u001b[Hcls", // CSI: clear the screen, cursor home
  "\u001b]8;;https://x.example/\u001b\\link\u001b]8;;\u001b\\", // OSC 8: a hyperlink hiding its target
  "\u001b]52;c;cm0gLXJmIH4=\u0007clip", // OSC 52: writes "rm -rf ~" to the clipboard
  "\u001b]0;title\u0007win", // OSC 0: the window's title
  "\u009b31m", // 8-bit CSI: the control goes, its parameters stay as plain text
  "\u202eevil\u202c\u2066iso\u2069\u200fmark\u061c", // bidi override, isolate, marks
  "zero\u200bwid\u200cth\u200d\u2060\ufeff", // zero-width and invisible
  "a\u0000b\u0007c\u0008d\u007fe", // C0 and DEL: NUL, BEL, backspace
  "f\u0085g\u0090h", // C1: NEL (a line break), DCS
  "line\u2028para\u2029end", // line and paragraph separators
  "cr\rlf\ntab\tend", // the line-like C0 controls
  `smug${tags("rm")}gle\u2062\u206a\u180e\ufffa`, // tag characters (ASCII only a model reads), invisible operators
];
const NASTY = PARTS.join(" ");
/** What `sanitize(NASTY)` must be: written out, not computed. */
const CLEAN = "red cls link clip win 31m evilisomark zerowidth abcde f gh line para end cr lf tab end smuggle";
const CLASSES = "escapes (CSI, OSC 8, OSC 52), bidi, zero-width, tag and C0/C1 characters, U+2028/U+2029";

// The characters that must not survive, written out rather than taken from sanitize.ts.
// Tag characters are astral: U+DB40 and a low surrogate of U+DC00–U+DC7F.
const INVISIBLE = String.raw`\u180e\u200b-\u200f\u2060-\u2064\u206a-\u206f\ufeff\ufff9-\ufffb`;
const BIDI = String.raw`\u061c\u202a-\u202e\u2066-\u2069`;
const TAG = String.raw`\udb40[\udc00-\udc7f]`;
const FORBIDDEN = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f\u2028\u2029${BIDI}${INVISIBLE}]|${TAG}`);
const FORBIDDEN_BUT_LF = new RegExp(String.raw`[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029${BIDI}${INVISIBLE}]|${TAG}`);

/** The host's part: `sanitize` makes what it received fit to show, with or without its lines. */
function expectSanitizes(received: string): void {
  expect(received).toMatch(FORBIDDEN);
  expect(sanitize(received)).toBe(CLEAN);
  expect(sanitize(received)).not.toMatch(FORBIDDEN);
  expect(sanitize(received, { lines: true })).not.toMatch(FORBIDDEN_BUT_LF);
}

type Era = "legacy" | "modern";
const VERSION: Record<Era, string> = { legacy: "2025-11-25", modern: "2026-07-28" };

interface Seen {
  elicitations: Array<ElicitFormParams | ElicitUrlParams>;
  samplings: CreateMessageParams[];
  logs: LogParams[];
  notifications: Array<{ method: string; params: unknown }>;
}

interface Setup {
  raw: RawStdioServer;
  client: Client;
  server: ServerHandle;
  logger: CapturingLogger;
  seen: Seen;
  /** A result as the era writes it (2026-07-28: complete, with its cache hints). */
  answer: (result: JsonObject) => JsonObject;
}

function recordingHandler(seen: Seen, overrides: Partial<Handler>): Handler {
  return {
    elicitationModes: ["form", "url"],
    handleElicitation: (params) => (seen.elicitations.push(params), { action: "decline" }),
    handleSampling: (params) => (seen.samplings.push(params), { role: "assistant", content: { type: "text", text: "ok" }, model: "m" }),
    handleLog: (_level, params) => void seen.logs.push(params),
    handleNotification: (method, params) => void seen.notifications.push({ method, params }),
    ...overrides,
  };
}

/** A raw stdio server of `era` whose identity and instructions are NASTY. */
async function setup(era: Era, overrides: Partial<Handler> = {}): Promise<Setup> {
  const raw = track(await startRawStdio());
  const answer = (result: JsonObject): JsonObject => (era === "modern" ? { resultType: "complete", ttlMs: 0, cacheScope: "private", ...result } : result);
  if (era === "legacy") {
    raw.autoInitialize({ protocolVersion: VERSION.legacy, serverInfo: { name: NASTY, title: NASTY, version: NASTY }, instructions: NASTY });
    raw.handle("ping", () => ({}));
  } else {
    raw.handle("server/discover", () =>
      answer({ supportedVersions: [VERSION.modern], capabilities: DEFAULT_CAPABILITIES, instructions: NASTY, _meta: { "io.modelcontextprotocol/serverInfo": { name: NASTY, version: NASTY } } }),
    );
  }
  const seen: Seen = { elicitations: [], samplings: [], logs: [], notifications: [] };
  const logger = capturingLogger();
  const client = track(new Client({ name: "host", version: "1", logger, handler: recordingHandler(seen, overrides), sampling: { allowIdle: true } }));
  const server = await client.connect("srv", raw.target);
  expect(server.era).toBe(era);
  return { raw, client, server, logger, seen, answer };
}

const row = (context: TestContext, tried: string, over: string, outcome: string): void => safetyRow(context, { area: "Content abuse", tried, over, outcome });
const AS_SENT = "given to the host exactly as sent, the host's to clean; `sanitize` leaves none of them";

describe.each<Era>(["legacy", "modern"])("what a host is shown, %s era over stdio", (era) => {
  const over = `stdio (${VERSION[era]})`;

  it("serverInfo and instructions", async (context) => {
    const { server } = await setup(era);
    expect(server.serverInfo).toEqual(era === "legacy" ? { name: NASTY, title: NASTY, version: NASTY } : { name: NASTY, version: NASTY });
    expect(server.instructions).toBe(NASTY);
    for (const text of [server.serverInfo!.name, server.serverInfo!.version, server.instructions!]) expectSanitizes(text);
    row(context, `serverInfo name and version and instructions carrying ${CLASSES}`, over, AS_SENT);
  });

  it("tool names, titles, descriptions and inputSchema property descriptions", async (context) => {
    const { raw, server, answer } = await setup(era);
    const tool = {
      name: NASTY,
      title: NASTY,
      description: NASTY,
      inputSchema: { type: "object", properties: { path: { type: "string", title: NASTY, description: NASTY } } },
      annotations: { title: NASTY },
    };
    raw.handle("tools/list", () => answer({ tools: [tool] }));
    const tools = await server.listTools();
    expect(tools).toEqual([tool]);
    const listed = tools[0]!;
    const property = (listed.inputSchema.properties as Record<string, { title: string; description: string }>)["path"]!;
    for (const text of [listed.name, listed.title!, listed.description!, property.title, property.description, listed.annotations!.title!]) expectSanitizes(text);
    row(context, `a tool whose name, title, description, annotations.title and inputSchema property title and description carry ${CLASSES}`, over, AS_SENT);
  });

  it("resource and template names, titles, descriptions, and resource text", async (context) => {
    const { raw, server, answer } = await setup(era);
    const resource = { uri: "file:///notes.txt", name: NASTY, title: NASTY, description: NASTY, mimeType: "text/plain" };
    const template = { uriTemplate: "file:///{path}", name: NASTY, title: NASTY, description: NASTY };
    raw.handle("resources/list", () => answer({ resources: [resource] }));
    raw.handle("resources/templates/list", () => answer({ resourceTemplates: [template] }));
    raw.handle("resources/read", () => answer({ contents: [{ uri: "file:///notes.txt", mimeType: "text/plain", text: NASTY }] }));
    expect(await server.listResources()).toEqual([resource]);
    expect(await server.listResourceTemplates()).toEqual([template]);
    const read = await server.readResource("file:///notes.txt");
    expect(read.contents).toEqual([{ uri: "file:///notes.txt", mimeType: "text/plain", text: NASTY }]);
    for (const text of [resource.name, resource.description, template.name, (read.contents[0] as { text: string }).text]) expectSanitizes(text);
    row(context, `resource and resource template names, titles and descriptions, and a resource's text, carrying ${CLASSES}`, over, AS_SENT);
  });

  it("prompt names, descriptions, argument descriptions and messages", async (context) => {
    const { raw, server, answer } = await setup(era);
    const prompt = { name: NASTY, title: NASTY, description: NASTY, arguments: [{ name: "topic", title: NASTY, description: NASTY }] };
    const got = { description: NASTY, messages: [{ role: "user", content: { type: "text", text: NASTY } }] };
    raw.handle("prompts/list", () => answer({ prompts: [prompt] }));
    raw.handle("prompts/get", () => answer(got));
    expect(await server.listPrompts()).toEqual([prompt]);
    const result = await server.getPrompt("p", { topic: "x" });
    expect(result).toMatchObject(got);
    for (const text of [prompt.name, prompt.description, prompt.arguments[0]!.description, result.description!, (result.messages[0]!.content as { text: string }).text]) expectSanitizes(text);
    row(context, `prompt names, titles, descriptions, argument descriptions and prompts/get messages carrying ${CLASSES}`, over, AS_SENT);
  });

  it("tool result text, structured content and an isError result", async (context) => {
    const { raw, server, answer } = await setup(era);
    raw.handle("tools/call", (m) =>
      m.params?.["name"] === "fails"
        ? answer({ content: [{ type: "text", text: NASTY }], isError: true })
        : answer({ content: [{ type: "text", text: NASTY }], structuredContent: { [NASTY]: NASTY } }),
    );
    const result = await server.callTool("ok", {});
    expect(result.content).toEqual([{ type: "text", text: NASTY }]);
    expect(result.structuredContent).toEqual({ [NASTY]: NASTY });
    const failed = await server.callTool("fails", {});
    expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: NASTY }] });
    for (const text of [(result.content[0] as { text: string }).text, Object.keys(result.structuredContent!)[0]!]) expectSanitizes(text);
    row(context, `tool results (text content, structuredContent keys and values, an isError result) carrying ${CLASSES}`, over, AS_SENT);
  });

  it("completion values", async (context) => {
    const { raw, server, answer } = await setup(era);
    raw.handle("completion/complete", () => answer({ completion: { values: [NASTY, NASTY], total: 2, hasMore: false } }));
    const completed = await server.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "topic", value: "x" } });
    expect(completed.completion.values).toEqual([NASTY, NASTY]);
    expectSanitizes(completed.completion.values[0]!);
    row(context, `completion values carrying ${CLASSES}`, over, AS_SENT);
  });

  it("a form elicitation's message, field titles, descriptions and choice titles reach the Handler as sent", async (context) => {
    const { raw, server, seen, answer } = await setup(era);
    const params = {
      message: NASTY,
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: NASTY, description: NASTY },
          pick: { type: "string", title: NASTY, oneOf: [{ const: "a", title: NASTY }] },
        },
      },
    };
    await elicit(era, raw, server, answer, params);
    expect(seen.elicitations).toEqual([params]);
    const properties = (seen.elicitations[0] as ElicitFormParams).requestedSchema.properties as Record<string, { title: string; description?: string; oneOf?: Array<{ title: string }> }>;
    for (const text of [seen.elicitations[0]!.message, properties["name"]!.title, properties["name"]!.description!, properties["pick"]!.oneOf![0]!.title]) expectSanitizes(text);
    row(context, `a form elicitation whose message, field titles and descriptions and choice titles carry ${CLASSES}`, over, AS_SENT);
  });

  it("a URL elicitation's message reaches the Handler as sent", async (context) => {
    const { raw, server, seen, answer } = await setup(era);
    const params = { mode: "url", message: NASTY, url: "https://example.com/sign-in", ...(era === "legacy" ? { elicitationId: "e1" } : {}) };
    await elicit(era, raw, server, answer, params);
    expect(seen.elicitations).toEqual([params]);
    expectSanitizes(seen.elicitations[0]!.message);
    row(context, `a URL elicitation whose message carries ${CLASSES}`, over, AS_SENT);
  });

  it("a JSON-RPC error: the ClientError's message quotes it cleaned and bounded, its data is as sent", async (context) => {
    const { raw, server } = await setup(era);
    expect(NASTY.length).toBeLessThanOrEqual(200); // within what an error quotes: the cleaned text is whole
    const data = { detail: NASTY, [NASTY]: [NASTY] };
    raw.handle("tools/call", (m) => ({ error: { code: -32000, message: m.params?.["name"] === "long" ? `${NASTY}${"x".repeat(1024 * 1024)}` : NASTY, data } }));
    const error: unknown = await server.callTool("t", {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "rpc", code: -32000, serverId: "srv", message: `tools/call failed: ${CLEAN} (code -32000)`, data });
    expectSanitizes((error as { data: { detail: string } }).data.detail);
    // A megabyte of message is quoted as 200 characters at most, cleaned.
    const long = (await server.callTool("long", {}).catch((caught: unknown) => caught)) as Error;
    expect(long.message.startsWith(`tools/call failed: ${CLEAN}x`)).toBe(true);
    expect(long.message.length).toBeLessThanOrEqual("tools/call failed: ".length + 200 + " (code -32000)".length);
    expect(long.message).not.toMatch(FORBIDDEN);
    row(
      context,
      `a JSON-RPC error whose message (${CLASSES}; also 1 MiB long) and data carry them`,
      over,
      "the ClientError's message quotes the server's message cleaned, at most 200 characters of it; `data` is as sent, for the host's `sanitize`",
    );
  });

  it("an invalid form answer: the error quotes the server's field name cleaned", async (context) => {
    const name = "\u001b]52;c;eA==\u0007pass\u202eword\u200b";
    const { raw, server, answer, logger } = await setup(era, { handleElicitation: () => ({ action: "accept", content: { [name]: 42 } }) });
    const params = { message: "Sign in", requestedSchema: { type: "object", properties: { [name]: { type: "string" } } } };
    const outcome = await elicit(era, raw, server, answer, params).catch((caught: unknown) => caught);
    const reason = 'invalid elicitation answer: "password" must be a string';
    if (era === "legacy") expect(outcome).toMatchObject({ error: { code: -32603, message: "Internal error: the client produced an invalid answer" } });
    else expect(outcome).toMatchObject({ kind: "input_handler", message: `the handler's answer to input request "form" (elicitation/create) is invalid: ${reason}` });
    expect(logger.warnings("is invalid")).toEqual([`the handler's elicitation answer for server "srv" is invalid: ${reason.slice("invalid elicitation answer: ".length)}`]);
    const result = era === "legacy" ? "the server gets -32603; the log line quotes the field's name cleaned" : "the `input_handler` error and the log line quote the field's name cleaned";
    row(context, "a form field named with OSC 52, bidi and zero-width characters, answered with the wrong type", over, result);
  });
});

/**
 * The server asks for `params`: a legacy server request (resolves with the client's answer), or
 * a 2026-07-28 input request of a tools/call (resolves with the call's result).
 */
async function elicit(era: Era, raw: RawStdioServer, server: ServerHandle, answer: Setup["answer"], params: JsonObject): Promise<unknown> {
  if (era === "legacy") {
    await raw.send({ jsonrpc: "2.0", id: "ask-1", method: "elicitation/create", params });
    return raw.next((m) => m.id === "ask-1" && !("method" in m));
  }
  raw.handle("tools/call", (m) =>
    (m.params as { inputResponses?: unknown }).inputResponses === undefined
      ? { resultType: "input_required", inputRequests: { form: { method: "elicitation/create", params } } }
      : answer({ content: [{ type: "text", text: "answered" }] }),
  );
  return server.callTool("ask", {});
}

describe("legacy era only, over stdio", () => {
  const over = "stdio (2025-11-25)";

  it("log entries: logger and every string of data, keys included, cleaned before handleLog and subscribers", async (context) => {
    const { raw, client, server, seen } = await setup("legacy");
    const heard: unknown[] = [];
    client.onNotification(({ method, params }) => void (method === "notifications/message" && heard.push(params)));
    await raw.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "error", logger: NASTY, data: { [NASTY]: [NASTY, { deep: NASTY }] } } });
    await server.ping();
    await client.notificationsSettled();
    const cleaned = { level: "error", logger: CLEAN, data: { [CLEAN]: [CLEAN, { deep: CLEAN }] } };
    expect(seen.logs).toEqual([cleaned]);
    expect(heard).toEqual([cleaned]);
    row(context, `a log entry whose logger, data keys and data strings carry ${CLASSES}`, over, "cleaned by Conduit before `handleLog` and `onNotification` subscribers see it (asserted equal to `sanitize`'s text)");
  });

  it("a sampling request's system prompt and messages reach the Handler as sent", async (context) => {
    const { raw, seen } = await setup("legacy");
    const params = { systemPrompt: NASTY, messages: [{ role: "user", content: { type: "text", text: NASTY } }], maxTokens: 10 };
    await raw.send({ jsonrpc: "2.0", id: "s-1", method: "sampling/createMessage", params });
    expect((await raw.next((m) => m.id === "s-1" && !("method" in m))).result).toMatchObject({ model: "m" });
    expect(seen.samplings).toHaveLength(1);
    expect(seen.samplings[0]).toMatchObject(params);
    expectSanitizes(seen.samplings[0]!.systemPrompt!);
    row(context, `a sampling request whose systemPrompt and message text carry ${CLASSES}`, over, AS_SENT);
  });

  it("a progress message and another notification's params reach the host as sent", async (context) => {
    const { raw, client, server, seen } = await setup("legacy");
    raw.handle("tools/call", async (m) => {
      const token = (m.params?.["_meta"] as { progressToken: number }).progressToken;
      await raw.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2, message: NASTY } });
      return { content: [] };
    });
    const progress: Array<{ message?: string | undefined }> = [];
    await server.callTool("t", {}, { onProgress: (p) => void progress.push(p) });
    expect(progress).toEqual([{ progress: 1, total: 2, message: NASTY }]);
    await raw.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a", title: NASTY } });
    await server.ping();
    await client.notificationsSettled();
    expect(seen.notifications).toEqual([{ method: "notifications/resources/updated", params: { uri: "file:///a", title: NASTY } }]);
    expectSanitizes(progress[0]!.message!);
    row(context, `a progress message and a resource update notification's params carrying ${CLASSES}`, over, AS_SENT);
  });

  it("a -32042 refusal: the error's message is cleaned, the URLs' messages are as sent", async (context) => {
    const { raw, server } = await setup("legacy");
    const required = { mode: "url", message: NASTY, url: "https://example.com/connect", elicitationId: "e1" };
    raw.handle("tools/call", () => ({ error: { code: -32042, message: NASTY, data: { elicitations: [required] } } }));
    const error: unknown = await server.callTool("t", {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      kind: "url_elicitation_required",
      code: -32042,
      message: `tools/call failed: ${CLEAN} (code -32042): the server requires 1 URL(s) to be visited first`,
      elicitations: [{ elicitationId: "e1", message: NASTY, url: "https://example.com/connect", host: "example.com", refused: undefined }],
    });
    expectSanitizes((error as { elicitations: Array<{ message: string }> }).elicitations[0]!.message);
    row(context, `a -32042 error whose message and required URLs' messages carry ${CLASSES}`, over, "the ClientError's message quotes it cleaned; each URL's `message` is as sent, for the host's `sanitize`");
  });

  // The stderr tail is quoted into the "transport" error's message (which server-life.ts logs):
  // cleaned line by line, the breaks kept; `data.stderr` is as written.
  it("a server that writes escapes to stderr and exits: the error quotes its stderr cleaned", async (context) => {
    const { raw, server } = await setup("legacy");
    await raw.stderr(`${NASTY}\n`);
    await raw.exit(3);
    const error = (await server.closed) as Error & { data: { stderr: string } };
    expect(error).toMatchObject({ kind: "transport" });
    expect(error.data.stderr).toBe(NASTY);
    expect(error.message).not.toMatch(FORBIDDEN_BUT_LF);
    row(context, `a server's stderr carrying ${CLASSES}, then its exit`, "stdio", "the `transport` error's message quotes the stderr tail cleaned line by line; `data.stderr` keeps it as written");
  });

  // A tool's execution.taskSupport quoted into a "usage" error: cleaned and bounded.
  it("a tool whose execution.taskSupport carries escapes: the error quotes it cleaned", async (context) => {
    const raw = track(await startRawStdio());
    raw.autoInitialize({ protocolVersion: VERSION.legacy, capabilities: { ...DEFAULT_CAPABILITIES, tasks: { requests: { tools: { call: {} } } } } });
    raw.handle("tools/list", () => ({ tools: [{ name: "t", inputSchema: { type: "object" }, execution: { taskSupport: NASTY } }] }));
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger() }));
    const server = await client.connect("srv", raw.target);
    const error: unknown = await server.callTool("t", {}, { task: true }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "usage" });
    expect((error as Error).message).not.toMatch(FORBIDDEN);
    row(context, `a tool's \`execution.taskSupport\` carrying ${CLASSES}`, "stdio", "the `usage` error quotes it cleaned");
  });
});

describe("over Streamable HTTP (2025-11-25)", () => {
  it("tools as sent; a log entry on a response's stream cleaned; JSON-RPC errors, in a 200 and in a 400, quoted cleaned", async (context) => {
    const http = track(await startRawHttp({ protocolVersion: VERSION.legacy, serverInfo: { name: NASTY, version: NASTY }, instructions: NASTY }));
    const tool = { name: NASTY, description: NASTY, inputSchema: { type: "object", properties: { p: { type: "string", description: NASTY } } } };
    const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: NASTY, data: NASTY } };
    http.handle("tools/list", () => viaSse({ tools: [tool] }, { before: [log] }));
    http.handle("tools/call", () => ({ error: { code: -32000, message: NASTY, data: { detail: NASTY } } }));
    http.route((req, res) => {
      if ((req.json as RpcMessage | undefined)?.method !== "resources/read") return NEXT;
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: (req.json as RpcMessage).id, error: { code: -32602, message: NASTY, data: { detail: NASTY } } }));
      return undefined;
    });
    const seen: Seen = { elicitations: [], samplings: [], logs: [], notifications: [] };
    const client = track(new Client({ name: "host", version: "1", logger: capturingLogger(), handler: recordingHandler(seen, {}) }));
    const server = await client.connect("web", { url: http.url });
    expect(server.serverInfo).toMatchObject({ name: NASTY, version: NASTY });
    expect(server.instructions).toBe(NASTY);
    expect(await server.listTools()).toEqual([tool]);
    await client.notificationsSettled();
    expect(seen.logs).toEqual([{ level: "info", logger: CLEAN, data: CLEAN }]);
    await expect(server.callTool("t", {})).rejects.toMatchObject({ kind: "rpc", code: -32000, message: `tools/call failed: ${CLEAN} (code -32000)`, data: { detail: NASTY } });
    const refused = (await server.readResource("file:///x").catch((caught: unknown) => caught)) as Error & { data: { detail: string } };
    expect(refused).toMatchObject({ kind: "rpc", code: -32602, data: { detail: NASTY } });
    expect(refused.message).toBe(`HTTP 400: ${CLEAN} (code -32602)`);
    expectSanitizes(refused.data.detail);
    row(
      context,
      `serverInfo, instructions, a tool, a log entry on a response's event stream and JSON-RPC errors (in a 200 and in an HTTP 400) carrying ${CLASSES}`,
      "Streamable HTTP (2025-11-25)",
      "tools, serverInfo, instructions and errors' `data` as sent; the log entry cleaned; each ClientError's message quotes the server's cleaned",
    );
  });
});

describe.each<Era>(["legacy", "modern"])("an elicitation's message past MAX_MESSAGE_LENGTH, %s era", (era) => {
  const over = `stdio (${VERSION[era]})`;
  const form = { type: "object", properties: { name: { type: "string" } } };
  const refusal = (length: number) => `message must be at most ${MAX_MESSAGE_LENGTH} characters (it has ${length})`;

  it.for([
    ["one character past it", MAX_MESSAGE_LENGTH + 1],
    [`of ${count(MB / MB)} MiB`, MB],
  ] as const)("%s is refused with -32602 before the Handler runs, in form and URL mode; at the bound it runs", async ([, length], context) => {
    const { raw, server, seen, answer } = await setup(era);
    for (const mode of ["form", "url"] as const) {
      const shape = mode === "form" ? { requestedSchema: form } : { mode, url: "https://example.com/", ...(era === "legacy" ? { elicitationId: "e1" } : {}) };
      const outcome = await elicit(era, raw, server, answer, { message: "m".repeat(length), ...shape }).catch((caught: unknown) => caught);
      if (era === "legacy") expect(outcome).toEqual({ jsonrpc: "2.0", id: "ask-1", error: { code: -32602, message: refusal(length) } });
      else expect(outcome).toMatchObject({ kind: "input_refused", code: -32602, message: `input request "form" (elicitation/create) was refused: ${refusal(length)}` });
      expect(seen.elicitations).toHaveLength(0);
      const atBound = { message: "m".repeat(MAX_MESSAGE_LENGTH), ...shape };
      await elicit(era, raw, server, answer, atBound);
      expect(seen.elicitations).toEqual([atBound]);
      seen.elicitations.length = 0;
    }
    row(
      context,
      `an elicitation (form and URL mode) whose message has ${length === MB ? `${count(MB / MB)} MiB` : `${count(length)} characters`}`,
      over,
      `refused with -32602${era === "modern" ? " (`input_refused`)" : ""} before the Handler runs; a message of ${count(MAX_MESSAGE_LENGTH)} characters reaches it`,
    );
  });
});

it("MAX_MESSAGE_LENGTH is the documented bound", () => {
  expect(MAX_MESSAGE_LENGTH).toBe(16_384);
});
