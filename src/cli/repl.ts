/**
 * The interactive mode: a prompt with history and completion (commands, servers, tools,
 * resources, prompts, task ids) in which a person lists, describes and calls what the servers
 * offer, while the terminal Handler puts every server request in front of them. Ctrl-C stops
 * the command under way; Ctrl-D or `quit` leaves.
 */
import { createInterface, type AsyncCompleter, type CompleterResult, type Interface } from "node:readline";
import type { CallToolResult, ServerHandle, Tool } from "../node.js";
import { CliError, EXIT, exitCodeOf, type ExitCode } from "./exit-codes.js";
import { fieldsOf } from "./fields.js";
import { callTool } from "./oneshot.js";
import { appOf, openApp, type OpenedApp } from "./app-open.js";
import type { Output } from "./output.js";
import { shown, shownLine } from "./output.js";
import { printList, printPrompt, printResource, printTool, printToolResult } from "./render.js";
import type { Session } from "./session.js";
import type { Asker } from "./asker.js";
import { TtyAsker } from "./tty-asker.js";
import { noteTask } from "./notices.js";
import { toolArguments } from "./tool-args.js";
import { splitWords } from "./words.js";

const COMMANDS: Record<string, string> = {
  help: "this list",
  servers: "the servers, with their era and version",
  use: "use <server>: the server later commands go to",
  info: "info [server]: its version, capabilities and instructions",
  tools: "tools [server]: its tools",
  resources: "resources [server]: its resources",
  templates: "templates [server]: its resource templates",
  prompts: "prompts [server]: its prompts",
  describe: "describe <tool>: what it does, and its arguments",
  call: "call <tool> [json | key=value …]: without arguments, asked one by one",
  open: "open <tool> [json | key=value …]: call a tool that has an app, and serve the app to your browser",
  read: "read <uri>: a resource",
  prompt: "prompt <name> [key=value …]: a prompt's messages",
  complete: "complete <prompt | template> <argument> [prefix]: the server's suggestions",
  tasks: "tasks: the server's tasks (2025-11-25)",
  task: "task <id>: follow a task to its end",
  cancel: "cancel <id>: cancel a task",
  quit: "leave (also Ctrl-D)",
};

/** The prompt gave way to a server's question: read again once it is answered. */
const SUSPENDED = Symbol("suspended");

interface Names {
  tools: string[];
  resources: string[];
  prompts: string[];
}

export class Repl {
  private current: ServerHandle;
  private history: string[] = [];
  private readonly names = new Map<string, Names>();
  /** The listing under way for each server's names: completion waits for it. */
  private readonly learning = new Map<string, Promise<void>>();
  /** Servers whose names are to be learnt again once the listing under way ends. */
  private readonly relearn = new Set<string>();
  private readonly tasks = new Set<string>();
  private running: AbortController | undefined;
  /** The app `open` serves (one at a time), and what ends its requests to the person. */
  private app: { opened: OpenedApp; life: AbortController } | undefined;
  /** The prompt being read, if one is. */
  private prompt: Interface | undefined;
  /** The prompt was closed for a server's question, not by the person. */
  private suspending = false;

  constructor(
    private readonly session: Session,
    private readonly out: Output,
    private readonly asker: Asker,
  ) {
    this.current = session.ready[0]!;
    // A server may ask while the prompt waits for a command: the question takes the terminal.
    if (asker instanceof TtyAsker) {
      asker.onTakeTerminal = () => {
        if (this.prompt === undefined) return;
        this.suspending = true;
        this.prompt.close();
      };
    }
  }

  /** A server said a list changed: its names are learnt again. */
  listChanged(serverId: string): void {
    const server = this.session.client.server(serverId);
    if (server !== undefined) this.learn(server);
  }

  async run(): Promise<ExitCode> {
    for (const server of this.session.ready) this.learn(server);
    this.greet();
    const onSigint = (): void => {
      if (this.running !== undefined) this.running.abort(new CliError("stopped with Ctrl-C", EXIT.interrupted));
    };
    process.on("SIGINT", onSigint);
    try {
      for (;;) {
        const line = await this.readLine();
        if (line === SUSPENDED) {
          if (this.asker instanceof TtyAsker) await this.asker.idle();
          continue;
        }
        if (line === undefined) break;
        const trimmed = line.trim();
        if (trimmed === "") continue;
        if (trimmed === "quit" || trimmed === "exit") break;
        this.running = new AbortController();
        this.out.notices.settle();
        try {
          await this.dispatch(trimmed, this.running.signal);
        } catch (error) {
          this.report(error);
        } finally {
          this.running = undefined;
          this.out.endDrawing();
        }
      }
    } finally {
      await this.closeApp();
      process.off("SIGINT", onSigint);
      // The prompts leave stdin open; the session's end must not wait for a key.
      process.stdin.pause();
      process.stdin.unref();
    }
    return EXIT.ok;
  }

  private greet(): void {
    const c = this.out.err;
    for (const server of this.session.ready) this.out.note(`${c.green("●")} ${c.bold(server.id)}  ${shownLine(server.serverInfo?.name ?? "", 80)} ${shownLine(server.serverInfo?.version ?? "", 40)}  ${c.dim(`${server.protocolVersion}, ${server.era} era`)}`);
    for (const { id, error } of this.session.failed) this.out.note(`${c.red("●")} ${c.bold(id)}  ${c.red(shownLine(error.message, 300))}`);
    this.out.note(c.dim(`type help for the commands, Tab to complete; commands go to ${this.current.id} (use <server> to change)`));
  }

  private readLine(): Promise<string | typeof SUSPENDED | undefined> {
    return new Promise((resolve) => {
      const rl = createInterface({
        input: process.stdin,
        output: process.stderr,
        completer: this.completer,
        history: this.history,
        historySize: 500,
        removeHistoryDuplicates: true,
        terminal: true,
      });
      this.prompt = rl;
      let answered = false;
      rl.on("SIGINT", () => {
        this.out.note(this.out.err.dim("\n(quit or Ctrl-D to leave)"));
        answered = true;
        rl.close();
        resolve("");
      });
      rl.on("close", () => {
        this.prompt = undefined;
        this.history = (rl as unknown as { history: string[] }).history ?? this.history;
        if (this.suspending) {
          this.suspending = false;
          process.stderr.write("\n");
          resolve(SUSPENDED);
        } else if (!answered) resolve(undefined);
      });
      rl.question(`${this.out.err.cyan(this.current.id)}${this.out.err.dim(">")} `, (line) => {
        answered = true;
        rl.close();
        resolve(line);
      });
    });
  }

  /** Completion, once the names of the server in use are known (their listing may still run). */
  private readonly completer: AsyncCompleter = (line, callback) => {
    const learning = this.learning.get(this.current.id) ?? Promise.resolve();
    void learning.then(() => callback(null, this.complete(line)));
  };

  private complete(line: string): CompleterResult {
    const words = line.split(/\s+/);
    const last = words[words.length - 1] ?? "";
    let candidates: string[];
    if (words.length <= 1) candidates = [...Object.keys(COMMANDS), "exit"];
    else {
      const names = this.names.get(this.current.id) ?? { tools: [], resources: [], prompts: [] };
      switch (words[0]) {
        case "call":
        case "open":
        case "describe":
          candidates = words.length === 2 ? [...names.tools, ...this.qualified("tools")] : [];
          break;
        case "read":
          candidates = words.length === 2 ? names.resources : [];
          break;
        case "prompt":
        case "complete":
          candidates = words.length === 2 ? names.prompts : [];
          break;
        case "use":
        case "info":
        case "tools":
        case "resources":
        case "templates":
        case "prompts":
          candidates = words.length === 2 ? this.session.client.servers().map((server) => server.id) : [];
          break;
        case "task":
        case "cancel":
          candidates = [...this.tasks];
          break;
        default:
          candidates = [];
      }
    }
    // Readline prints candidates as they are: a name with control characters is not offered.
    const hits = candidates.filter((candidate) => candidate.startsWith(last) && shownLine(candidate, 500) === candidate);
    return [hits, last];
  }

  /** `server:tool` names of the other servers. */
  private qualified(kind: keyof Names): string[] {
    const names: string[] = [];
    for (const [id, known] of this.names) if (id !== this.current.id) for (const name of known[kind]) names.push(`${id}:${name}`);
    return names;
  }

  /**
   * Learns the server's names again: one listing at a time, and of the changes told while one
   * runs (a server may tell five as it starts), one more listing after it, not one each.
   */
  private learn(server: ServerHandle): void {
    if (this.relearn.has(server.id)) return;
    const running = this.learning.get(server.id);
    if (running === undefined) {
      this.learning.set(server.id, this.list(server));
      return;
    }
    this.relearn.add(server.id);
    this.learning.set(
      server.id,
      running.then(() => {
        this.relearn.delete(server.id);
        return this.list(server);
      }),
    );
  }

  private async list(server: ServerHandle): Promise<void> {
    const caps = server.serverCapabilities ?? {};
    const names: Names = { tools: [], resources: [], prompts: [] };
    try {
      if (caps.tools !== undefined) names.tools = (await server.listTools()).map((tool) => tool.name);
      if (caps.resources !== undefined) names.resources = (await server.listResources()).map((resource) => resource.uri);
      if (caps.prompts !== undefined) names.prompts = (await server.listPrompts()).map((prompt) => prompt.name);
    } catch {
      // Completion is a convenience: a server that cannot list now just completes less.
    }
    this.names.set(server.id, names);
  }

  private server(id: string | undefined): ServerHandle {
    if (id === undefined) return this.current;
    const server = this.session.client.server(id);
    if (server === undefined) throw new CliError(`no server "${id}"; servers: ${this.session.client.servers().map((s) => s.id).join(", ")}`, EXIT.usage);
    return server;
  }

  /** `tool` on the current server, or `server:tool`. */
  private addressed(name: string): { server: ServerHandle; name: string } {
    const at = name.indexOf(":");
    if (at > 0 && this.session.client.server(name.slice(0, at)) !== undefined) return { server: this.server(name.slice(0, at)), name: name.slice(at + 1) };
    return { server: this.current, name };
  }

  private async dispatch(line: string, signal: AbortSignal): Promise<void> {
    const words = splitWords(line);
    const [command, ...rest] = words;
    const out = this.out;
    switch (command) {
      case "help":
      case "?":
        for (const [name, text] of Object.entries(COMMANDS)) out.line(`  ${out.out.bold(name.padEnd(10))} ${text}`);
        return;
      case "servers":
        for (const server of this.session.client.servers()) out.line(`  ${out.out.bold(server.id)}${server === this.current ? out.out.cyan(" (in use)") : ""}  ${shownLine(server.serverInfo?.name ?? "", 80)}  ${server.protocolVersion}, ${server.era} era, ${server.state}`);
        return;
      case "use":
        this.current = this.server(rest[0] ?? this.current.id);
        return;
      case "info": {
        const server = this.server(rest[0]);
        out.line(`${out.out.bold(server.id)}: ${shownLine(server.serverInfo?.name ?? "", 80)} ${shownLine(server.serverInfo?.version ?? "", 40)}`);
        out.line(`  protocol ${server.protocolVersion} (${server.era} era)`);
        out.line(`  capabilities: ${shown(JSON.stringify(server.serverCapabilities))}`);
        if (server.instructions !== undefined) out.line(`  instructions: ${shown(server.instructions)}`);
        return;
      }
      case "tools":
        return printList(out, "tools", await this.server(rest[0]).listTools({ signal }));
      case "resources":
        return printList(out, "resources", await this.server(rest[0]).listResources({ signal }));
      case "templates":
        return printList(out, "resource templates", await this.server(rest[0]).listResourceTemplates({ signal }));
      case "prompts":
        return printList(out, "prompts", await this.server(rest[0]).listPrompts({ signal }));
      case "describe": {
        const { server, name } = this.addressed(need(rest[0], "describe <tool>"));
        return printTool(out, await this.tool(server, name, signal));
      }
      case "call":
        return this.call(line, rest, signal);
      case "open":
        return this.open(line, rest, signal);
      case "read":
        return printResource(out, await this.current.readResource(need(rest[0], "read <uri>"), { signal }));
      case "prompt": {
        const name = need(rest[0], "prompt <name> [key=value …]");
        const args: Record<string, string> = {};
        for (const [key, value] of Object.entries(toolArguments(rest.slice(1), { properties: {} }))) args[key] = typeof value === "string" ? value : JSON.stringify(value);
        return printPrompt(out, await this.current.getPrompt(name, args, { signal }));
      }
      case "complete": {
        const ref = need(rest[0], "complete <prompt | template> <argument> [prefix]");
        const argument = need(rest[1], "complete <prompt | template> <argument> [prefix]");
        const result = await this.current.complete({ ref: ref.includes("://") || ref.includes("{") ? { type: "ref/resource", uri: ref } : { type: "ref/prompt", name: ref }, argument: { name: argument, value: rest[2] ?? "" } }, { signal });
        for (const value of result.completion.values) out.line(`  ${shownLine(value, 200)}`);
        if (result.completion.hasMore === true) out.line(out.out.dim("  … and more"));
        return;
      }
      case "tasks":
        for (const task of await this.current.listTasks()) {
          this.tasks.add(task.taskId);
          out.line(`  ${shownLine(task.taskId, 100)}  ${task.status}${task.statusMessage === undefined ? "" : `  ${shownLine(task.statusMessage, 200)}`}`);
        }
        return;
      case "task": {
        const id = need(rest[0], "task <id>");
        const server = this.current;
        const result = await server.awaitTask(id, { signal, onStatus: (task) => noteTask(out, server.id, task) });
        return printToolResult(out, result);
      }
      case "cancel":
        await this.current.cancelTask(need(rest[0], "cancel <id>"));
        out.note(out.err.dim("asked the server to cancel it"));
        return;
      default:
        throw new CliError(`unknown command "${shownLine(command, 40)}" (help lists them)`, EXIT.usage);
    }
  }

  private async tool(server: ServerHandle, name: string, signal: AbortSignal): Promise<Tool> {
    const tool = (await server.listTools({ signal })).find((candidate) => candidate.name === name);
    if (tool === undefined) throw new CliError(`server "${server.id}" has no tool "${shownLine(name, 100)}"`, EXIT.usage);
    return tool;
  }

  private async call(line: string, rest: string[], signal: AbortSignal): Promise<void> {
    const { server, name } = this.addressed(need(rest[0], "call <tool> [json | key=value …]"));
    // A JSON object is taken as typed: splitting it into words would eat its quotes.
    const brace = line.indexOf("{");
    const words = brace >= 0 ? [line.slice(brace)] : rest.slice(1);
    let given: Record<string, unknown> | undefined;
    if (words.length === 0) {
      const tool = await this.tool(server, name, signal);
      const fields = fieldsOf(tool.inputSchema);
      if (fields.length > 0) {
        if (this.asker.values === undefined) throw new CliError("give the arguments: call <tool> json | key=value …", EXIT.usage);
        const values = await this.asker.values(`arguments of ${shownLine(name, 64)}:`, fields, signal);
        if (values === undefined) return;
        given = {};
        for (const [key, value] of values) if (value !== undefined) Object.defineProperty(given, key, { value, enumerable: true, writable: true, configurable: true });
      }
    }
    const result: CallToolResult = await callTool(server, name, words, this.out, signal, given, "open serves it to your browser");
    printToolResult(this.out, result);
  }

  /**
   * `open`: the app is served (the one served before is closed), then the tool is called as
   * `call` does; the app stays while the session lasts, or until the next `open`.
   */
  private async open(line: string, rest: string[], signal: AbortSignal): Promise<void> {
    const { server, name } = this.addressed(need(rest[0], "open <tool> [json | key=value …]"));
    const brace = line.indexOf("{");
    const words = brace >= 0 ? [line.slice(brace)] : rest.slice(1);
    const tool = await this.tool(server, name, signal);
    appOf(server, tool);
    const args = toolArguments(words, tool.inputSchema);
    await this.closeApp();
    const life = new AbortController();
    const opened = await openApp(server, tool, args, this.out, this.asker, life.signal);
    this.app = { opened, life };
    let result: CallToolResult;
    try {
      result = await callTool(server, name, words, this.out, signal, args);
    } catch (error) {
      opened.cancelled(error instanceof Error ? error.message : String(error));
      throw error;
    }
    opened.result(result);
    printToolResult(this.out, result);
  }

  private async closeApp(): Promise<void> {
    const app = this.app;
    this.app = undefined;
    if (app === undefined) return;
    app.life.abort();
    await app.opened.close();
  }

  private report(error: unknown): void {
    const code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    this.out.error(code === EXIT.interrupted ? "stopped" : shownLine(message, 1_000));
  }
}

function need(word: string | undefined, usage: string): string {
  if (word === undefined) throw new CliError(`usage: ${usage}`, EXIT.usage);
  return word;
}
