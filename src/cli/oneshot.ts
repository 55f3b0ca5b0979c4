/**
 * One command and out: `list`, `call`, `read`, `prompt`. The result goes to stdout (as text,
 * or with `--format json` as one JSON document); what the person should know to stderr.
 */
import { appsToolMeta, isTask, type CallToolResult, type ServerHandle, type Tool } from "../node.js";
import { openApp } from "./app-open.js";
import { nobody, type Asker } from "./asker.js";
import { CliError, EXIT, type ExitCode } from "./exit-codes.js";
import type { Output } from "./output.js";
import { shownLine } from "./output.js";
import { noteTask } from "./notices.js";
import { progressBar } from "./progress.js";
import { printList, printPrompt, printResource, printToolResult } from "./render.js";
import { toolArguments } from "./tool-args.js";

export type OneShot = "list" | "call" | "read" | "prompt";

const LIST_KINDS = ["tools", "resources", "templates", "prompts"] as const;

export interface OneShotOptions {
  /** `call … --open`: the tool's app is served until Ctrl-C. */
  open?: boolean;
  /** Who answers an app's requests to act. */
  asker?: Asker;
}

export async function runOneShot(command: OneShot, server: ServerHandle, words: readonly string[], out: Output, signal: AbortSignal, options: OneShotOptions = {}): Promise<ExitCode> {
  switch (command) {
    case "list": {
      const kind = words[0] ?? "tools";
      if (!(LIST_KINDS as readonly string[]).includes(kind) || words.length > 1) throw new CliError(`conduit list <server> [${LIST_KINDS.join("|")}]`, EXIT.usage);
      const options = { signal };
      const items =
        kind === "tools"
          ? await server.listTools(options)
          : kind === "resources"
            ? await server.listResources(options)
            : kind === "templates"
              ? await server.listResourceTemplates(options)
              : await server.listPrompts(options);
      if (out.json) out.document(items);
      else printList(out, kind, items, server.id);
      return EXIT.ok;
    }
    case "call": {
      const [name, ...rest] = words;
      if (name === undefined) throw new CliError("conduit call <server> <tool> [json | key=value …]", EXIT.usage);
      if (options.open === true) return callWithApp(server, name, rest, out, options.asker ?? nobody, signal);
      const result = await callTool(server, name, rest, out, signal, undefined, "--open serves it to your browser");
      if (out.json) out.document(result);
      else printToolResult(out, result);
      return result.isError === true ? EXIT.toolError : EXIT.ok;
    }
    case "read": {
      const [uri, ...rest] = words;
      if (uri === undefined || rest.length > 0) throw new CliError("conduit read <server> <uri>", EXIT.usage);
      const result = await server.readResource(uri, { signal });
      if (out.json) out.document(result);
      else printResource(out, result);
      return EXIT.ok;
    }
    case "prompt": {
      const [name, ...rest] = words;
      if (name === undefined) throw new CliError("conduit prompt <server> <name> [key=value …]", EXIT.usage);
      const args: Record<string, string> = {};
      for (const [key, value] of Object.entries(toolArguments(rest, { properties: {} }))) args[key] = typeof value === "string" ? value : JSON.stringify(value);
      const result = await server.getPrompt(name, args, { signal });
      if (out.json) out.document(result);
      else printPrompt(out, result);
      return EXIT.ok;
    }
  }
}

/** The tool of that name the server lists now, or a usage error naming those it has. */
export async function toolNamed(server: ServerHandle, name: string, signal: AbortSignal): Promise<Tool> {
  const tools = await server.listTools({ signal });
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new CliError(`server "${server.id}" has no tool "${shownLine(name, 100)}"; it has: ${tools.map((candidate) => shownLine(candidate.name, 64)).join(", ") || "none"}`, EXIT.usage);
  return tool;
}

/**
 * `call … --open`: the app is served first (its view learns the arguments at once), then the
 * tool is called and its result printed and told to the view; the app stays until Ctrl-C.
 */
async function callWithApp(server: ServerHandle, name: string, words: readonly string[], out: Output, asker: Asker, signal: AbortSignal): Promise<ExitCode> {
  const tool = await toolNamed(server, name, signal);
  const args = toolArguments(words, tool.inputSchema);
  const app = await openApp(server, tool, args, out, asker, signal);
  try {
    let result: CallToolResult;
    try {
      result = await callTool(server, name, words, out, signal, args);
    } catch (error) {
      app.cancelled(error instanceof Error ? error.message : String(error));
      throw error;
    }
    app.result(result);
    if (out.json) out.document(result);
    else printToolResult(out, result);
    out.note(out.err.dim("the app stays served until Ctrl-C"));
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    return result.isError === true ? EXIT.toolError : EXIT.ok;
  } finally {
    await app.close();
  }
}

/**
 * Calls a tool: its schema types the `key=value` arguments; progress is drawn; a tool that runs
 * as a task is followed, each status told.
 */
export async function callTool(
  server: ServerHandle,
  name: string,
  words: readonly string[],
  out: Output,
  signal: AbortSignal,
  given?: Record<string, unknown>,
  appHint?: string,
): Promise<CallToolResult> {
  const tool = await toolNamed(server, name, signal);
  const args = given ?? toolArguments(words, tool.inputSchema);
  const app = appsToolMeta(tool).resourceUri;
  if (app !== undefined && appHint !== undefined) out.note(out.err.dim(`${shownLine(name, 64)} has an app (${shownLine(app, 200)}): ${appHint}`));
  const bar = progressBar(out, shownLine(name, 40));
  try {
    const support = tool.execution?.taskSupport;
    if (support !== "optional" && support !== "required") {
      // A server may still make a task of it (2026-07-28): the call follows it.
      return await server.callTool(name, args, { signal, onProgress: bar.onProgress, onTask: (task) => noteTask(out, server.id, task) });
    }
    const outcome = await server.callTool(name, args, { task: true, signal, onProgress: bar.onProgress });
    if (!isTask(outcome)) return outcome;
    noteTask(out, server.id, outcome);
    return await server.awaitTask(outcome, { signal, onStatus: (task) => noteTask(out, server.id, task) });
  } finally {
    bar.done();
  }
}
