/**
 * `open <tool>` (and `conduit call … --open`): calls a tool that has an app and serves the app
 * to the person's browser on two loopback origins (`app-pages.ts`), with the view's session
 * here, in the terminal: what the view asks is judged by `AppSession`, and a call it makes of a
 * tool the model may also call is asked of the person first. `conduit` prints the URL and never
 * opens a browser itself.
 */
import { readFile } from "node:fs/promises";
import { appsToolMeta, type CallToolResult, type ServerHandle, type Tool } from "../node.js";
import { AppSession, readAppResource, type AppRequest } from "../apps/index.js";
import { sandboxProxyPage } from "../apps/bridge/proxy.js";
import { serveAppPages } from "./app-pages.js";
import type { Asker } from "./asker.js";
import { CliError, EXIT } from "./exit-codes.js";
import type { Output } from "./output.js";
import { shown, shownLine } from "./output.js";

export interface OpenedApp {
  readonly url: string;
  /** Tells the view the tool's result (or that the call failed), once. */
  result(result: CallToolResult): void;
  cancelled(reason: string): void;
  /** Tears the view's session down (waiting for the view's answer, bounded), then stops serving. */
  close(): Promise<void>;
}

/** The browser bundle of the bridge, built beside this file (`dist/cli/apps-bridge.js`). */
const BRIDGE = new URL("./apps-bridge.js", import.meta.url);

/** The app's view URI of `tool`, or a usage error naming the tool. */
export function appOf(server: ServerHandle, tool: Tool): string {
  const uri = appsToolMeta(tool).resourceUri;
  if (uri === undefined) throw new CliError(`tool "${shownLine(tool.name, 100)}" of ${server.id} has no app`, EXIT.usage);
  return uri;
}

/**
 * Reads the tool's app, starts serving it and prints where. The tool's arguments go to the view
 * at once (the session holds them until the view is ready); its result goes with `result`.
 */
export async function openApp(server: ServerHandle, tool: Tool, args: Record<string, unknown>, out: Output, asker: Asker, signal: AbortSignal): Promise<OpenedApp> {
  const uri = appOf(server, tool);
  const [resource, bridgeScript] = await Promise.all([readAppResource(server, uri, { signal }), readFile(BRIDGE, "utf8")]);
  // The page's messages reach the session made next (none comes before its URL is printed).
  const view: { session?: AppSession } = {};
  const pages = await serveAppPages({
    bridgeScript,
    sandboxPage: (hostOrigin) => sandboxProxyPage({ hostOrigin }),
    resource,
    title: tool.name,
    receive: (message) => view.session?.receive(message),
  });
  const c = out.err;
  const session = new AppSession({
    server,
    tool,
    send: (message) => pages.send(message),
    hostInfo: { name: "conduit", version: "0.1.0" },
    consent: (ask) => consent(ask, asker, signal),
    onOpenLink: (link) => {
      out.note(`\n${c.bold(c.cyan(`the app of ${shownLine(tool.name, 64)} asks you to open a link:`))} ${link.url}`);
      out.note(c.dim(`  host: ${link.host}${link.idn ? " (punycode: it may imitate another name)" : ""}; conduit never opens it`));
      return true;
    },
    onMessage: (message) => {
      out.note(`\n${c.bold(c.cyan(`the app of ${shownLine(tool.name, 64)} says:`))} ${shown(JSON.stringify(message.content), 2_000)}`);
      return true;
    },
    logger: server.logger,
  });
  view.session = session;
  session.toolInput(args);
  out.note(`${c.bold("the app of")} ${shownLine(tool.name, 64)} ${c.bold("is served at")} ${pages.url}`);
  out.note(c.dim("  open it in your browser; conduit does not open one itself"));
  return {
    url: pages.url,
    result: (result) => session.toolResult(result),
    cancelled: (reason) => session.toolCancelled(reason),
    close: async () => {
      await session.teardown();
      await pages.close();
    },
  };
}

/**
 * What the view may do beyond its own plumbing: a call of a tool the model may call is asked of
 * the person (nobody to ask: refused).
 */
async function consent(ask: AppRequest, asker: Asker, signal: AbortSignal): Promise<boolean> {
  // The app's own plumbing (a tool only its view may call, a ui:// read of its server, both
  // checked by the session) needs no question, as in the session's own default.
  if (ask.method === "resources/read" || !ask.visibility.includes("model")) return true;
  if (asker.confirm === undefined) return false;
  const what = `call the tool "${shownLine(ask.target.name, 64)}" with ${shownLine(JSON.stringify(ask.arguments ?? {}), 300)}`;
  return asker.confirm(`the app of ${shownLine(ask.tool, 64)} (${ask.serverId}) asks to ${what}. Allow?`, signal);
}
