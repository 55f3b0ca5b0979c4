/**
 * One run's Client: the terminal Handler, and the servers named on the command line connected
 * at once (four at a time). A URL target may need OAuth: the code flow through a loopback
 * redirect, with the tokens kept in a file of the user's (`~/.config/conduit/auth.json`, owner
 * only), and the authorization URL shown to the person; without a person it fails as "auth".
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { Client, fileStore, loopbackRedirect, type LoopbackRedirect, type ServerHandle, type ClientError, type RemoteTarget } from "../index.js";
import type { Asker } from "./asker.js";
import { CliError, EXIT } from "./exit-codes.js";
import { terminalHandler, type TerminalHandler } from "./handler.js";
import type { Output } from "./output.js";
import type { NamedTarget } from "./targets.js";

/** The loopback port tried first, so that a registered redirect URI stays the same run to run. */
const CALLBACK_PORT = 33418;

export interface SessionOptions {
  out: Output;
  asker: Asker;
  roots: readonly string[];
  samplingCommand?: string | undefined;
  connectTimeout: number;
  requestTimeout: number;
  /** Someone can open an authorization URL now (a terminal). */
  person: boolean;
  env: NodeJS.ProcessEnv;
  /** Show list changes and other notifications as they come. */
  notices: boolean;
  onListChanged?: ((serverId: string, kind: string) => void) | undefined;
}

export interface Session {
  readonly client: Client;
  readonly handler: TerminalHandler;
  readonly ready: ServerHandle[];
  readonly failed: Array<{ id: string; error: ClientError }>;
  close(): Promise<void>;
}

export async function openSession(targets: readonly NamedTarget[], options: SessionOptions): Promise<Session> {
  const handler = terminalHandler({ asker: options.asker, out: options.out, roots: options.roots, samplingCommand: options.samplingCommand, notices: options.notices, onListChanged: options.onListChanged });
  const client = new Client({
    name: "conduit",
    version: "0.1.0",
    handler,
    requestTimeout: options.requestTimeout,
    // The library's own warnings are the person's to see, shortly.
    logger: {
      debug: () => {},
      info: () => {},
      warn: (message) => options.out.note(options.out.err.dim(`conduit: ${message}`)),
      error: (message) => options.out.note(options.out.err.red(`conduit: ${message}`)),
    },
  });
  let loopback: LoopbackRedirect | undefined;
  const remote = targets.filter((named) => "url" in named.target && named.target.auth === undefined);
  if (remote.length > 0) loopback = await loopbackRedirect({ port: CALLBACK_PORT }).catch(() => loopbackRedirect());
  const set = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value);
  const store = fileStore(join(set(options.env.XDG_CONFIG_HOME) ?? join(set(options.env.HOME) ?? homedir(), ".config"), "conduit", "auth.json"));
  const servers = targets.map(({ id, target }) => {
    if (loopback === undefined || !("url" in target) || target.auth !== undefined) return { id, target };
    const open = loopback;
    const withAuth: RemoteTarget = {
      ...target,
      auth: {
        redirectUri: open.redirectUri,
        store,
        authorize: async (url, context) => {
          if (!options.person) throw new CliError(`server "${id}" needs an authorization, and there is no terminal to show its URL on: run conduit in a terminal once (the tokens are kept)`, EXIT.auth);
          return open.authorize((shownUrl) => {
            options.out.note(`\n${options.out.err.bold(`server "${id}" needs your authorization.`)} Open this URL in a browser:`);
            options.out.note(`  ${shownUrl.href}`);
            options.out.note(options.out.err.dim("  waiting for the browser to come back…"));
          })(url, context);
        },
      },
    };
    return { id, target: withAuth };
  });
  const { ready, failed } = await client.connectAll(servers, { connectTimeout: options.connectTimeout });
  return {
    client,
    handler,
    ready,
    failed,
    close: async () => {
      await client.close();
      await loopback?.close();
    },
  };
}
