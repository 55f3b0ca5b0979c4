// A program written as a user of the published package would write it. scripts/check-package.mjs
// copies it next to an install of the packed tarball, type-checks it there (strict, library
// types checked too), compiles it and runs it: argv[2] is the path of the notes example server.
// It throws on anything unexpected, so node exits non-zero.
import { inspect } from "node:util";
import { Client, ClientError, InvalidArgumentError, type CallToolResult, type Handler, type ServerHandle, type Tool } from "conduit-mcp";
import { toAnthropicToolResult, toOpenAIChatTools, type OpenAIChatTool } from "conduit-mcp/adapters";
import { sandboxProxyPage } from "conduit-mcp/apps-bridge/proxy";
import { appCsp, appUiMeta, type AppUiMeta } from "conduit-mcp/apps";
import { redisStore, type Store } from "conduit-mcp/redis";

const serverScript = process.argv[2];
if (serverScript === undefined) throw new Error("usage: consumer.mjs <notes-server.mjs>");

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`package check failed: ${what}`);
}

function firstText(result: CallToolResult): string {
  const block = result.content[0];
  check(block !== undefined && block.type === "text", `expected a text block, got ${JSON.stringify(result.content)}`);
  return block.text;
}

// Only the members the program uses: the Handler type is the public contract for them.
const handler: Handler = {
  listRoots: () => ({ roots: [] }),
  handleLog: () => undefined,
};

const client = new Client({ name: "package-check", version: "0.0.0", handler, requestTimeout: 10_000 });
try {
  const notes: ServerHandle = await client.connect("notes", { command: process.execPath, args: [serverScript] });
  check(notes.state === "ready", `state after connect is ${notes.state}`);

  const tools: Tool[] = await notes.listTools();
  const names = tools.map((tool) => tool.name).sort();
  check(names.includes("add_note") && names.includes("word_count"), `tools listed: ${names.join(", ")}`);

  const saved: CallToolResult = await notes.callTool("add_note", { title: "check", body: "one two three" });
  check(saved.isError !== true, "add_note reported an error");
  check(firstText(saved).startsWith('saved "check"'), `add_note said ${firstText(saved)}`);

  // The adapters subpath: the catalog as OpenAI tools (strict), a result as Anthropic content.
  const openai = toOpenAIChatTools(await client.tools(), { strict: true });
  const chatTools: OpenAIChatTool[] = openai.tools;
  const addNote = chatTools.find((tool) => tool.function.name === "notes_add_note");
  check(addNote?.function.strict === true && openai.skipped.length === 0, `OpenAI tools: ${JSON.stringify(openai)}`);
  const block = toAnthropicToolResult("toolu_1", saved);
  check(block.type === "tool_result" && block.content[0]?.type === "text", `Anthropic tool result: ${JSON.stringify(block)}`);

  const counted = await notes.callTool("word_count");
  const words = (counted.structuredContent as { words?: unknown } | undefined)?.words;
  check(typeof words === "number" && words >= 3, `word_count returned ${JSON.stringify(counted.structuredContent)}`);

  // The types refuse what the runtime refuses: if they had decayed to `any`, the directive
  // below would itself be an error.
  let refused: unknown;
  try {
    // @ts-expect-error: a tool's arguments are an object, not a string.
    void notes.callTool("add_note", "not an object");
  } catch (error) {
    refused = error;
  }
  check(refused instanceof InvalidArgumentError, `callTool with a string argument threw ${String(refused)}`);
  check(refused.code === "ERR_CONDUIT_INVALID_ARGUMENT", `InvalidArgumentError code ${refused.code}`);

  // The MCP Apps sandbox proxy's page, as a Node host serves it (its types need no DOM).
  const proxyPage: string = sandboxProxyPage({ hostOrigin: "https://host.example" });
  check(proxyPage.includes("ui/notifications/sandbox-proxy-ready") && proxyPage.includes('"https://host.example"'), "the sandbox proxy page names the handshake and its host");
  let notAnOrigin: unknown;
  try {
    sandboxProxyPage({ hostOrigin: "https://host.example/path" });
  } catch (error) {
    notAnOrigin = error;
  }
  check(notAnOrigin instanceof InvalidArgumentError, `a host origin with a path was not refused: ${String(notAnOrigin)}`);

  // An app's policy from conduit-mcp/apps: nothing declared is the restrictive default.
  const ui: AppUiMeta = appUiMeta(undefined);
  check(appCsp(ui).startsWith("default-src 'none'"), `an app's CSP without declarations is ${appCsp(ui)}`);

  // The Redis subpath: a prefix is required, and an error from it is a ClientError of the root's.
  let noPrefix: unknown;
  try {
    redisStore({ status: "ready", call: () => Promise.resolve(null) }, { prefix: "" });
  } catch (error) {
    noPrefix = error;
  }
  check(noPrefix instanceof InvalidArgumentError, `redisStore without a prefix was not refused: ${String(noPrefix)}`);
  const failing: Store = redisStore({ status: "ready", call: () => Promise.reject(new Error("down")) }, { prefix: "check:" });
  const storeFailure = await failing.get("a").then(() => undefined, (error: unknown) => error);
  check(storeFailure instanceof ClientError && storeFailure.kind === "store", `a failing Redis gave ${String(storeFailure)}`);

  await client.close();
  const late = await Promise.resolve().then(() => notes.callTool("word_count")).then(
    () => undefined,
    (error: unknown) => error,
  );
  check(late instanceof ClientError, `a call after close did not fail with a ClientError: ${String(late)}`);
  check(late.kind === "closed", `a call after close failed with kind ${late.kind}`);
  // The bundle keeps class names, so a logged error reads `ClientError: …`.
  check(inspect(late).startsWith("ClientError"), `a logged ClientError begins ${inspect(late).slice(0, 30)}`);
} finally {
  await client.close();
}
console.log("consumer: connected, listed tools, adapted them for OpenAI, called add_note and word_count, wrote an apps sandbox page, closed");
