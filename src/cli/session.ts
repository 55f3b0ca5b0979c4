/**
 * One run's Client: the terminal Handler, and the servers named on the command line connected
 * at once (four at a time). A URL target may need OAuth: the code flow through a loopback
 * redirect, with the tokens kept in a file of the user's (`~/.config/conduit/auth.json`, owner
 * only), and the authorization URL shown to the person; without a person it fails as "auth".
 * OAuth is offered to https and loopback servers, the ones it may run for; a plain-http server
 * elsewhere (on the LAN) is reached as it is. A server whose config entry could not be read is
 * one of `failed`, with the reason.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { Client, ClientError, fileStore, loopbackRedirect, type ConfiguredServer, type ConnectAllOptions, type LoopbackRedirect, type ServerHandle, type RemoteTarget, type ServerTarget } from "../node.js";
import type { Asker } from "./asker.js";
import { CliError, EXIT } from "./exit-codes.js";
import { terminalHandler, type TerminalHandler } from "./handler.js";
import type { Output } from "./output.js";
import type { NamedTarget } from "./config-places.js";

/** The loopback port tried first, so that a registered redirect URI stays the same run to run. */
const CALLBACK_PORT = 33418;

/**
 * What a one-shot command's stdio servers are given once the result is written: SIGTERM to their
 * group as their stdin ends (a server that ignores the end of its input would otherwise hold the
 * command for the library's 2 s), and then the library's grace period to exit on it.
 */
export const ONE_SHOT_CLOSE: Readonly<ConnectAllOptions> = Object.freeze({ stdinGracePeriod: 0 });

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
  /** A one-shot command: its servers are ended at once when it is done (`ONE_SHOT_CLOSE`). */
  oneShot: boolean;
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
  if (targets.some((named) => named.target !== undefined && oauthMayRun(named.target))) loopback = await loopbackRedirect({ port: CALLBACK_PORT }).catch(() => loopbackRedirect());
  const set = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value);
  const store = fileStore(join(set(options.env.XDG_CONFIG_HOME) ?? join(set(options.env.HOME) ?? homedir(), ".config"), "conduit", "auth.json"));
  const servers = targets.map((named): ConfiguredServer => {
    const { id, target } = named;
    if (target === undefined) return { id, error: named.error };
    if (loopback === undefined || !("url" in target) || !oauthMayRun(target)) return { id, target };
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
  const { ready, failed } = await client.connectAll(servers, connectOptionsOf(options));
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

/** What each server's connect is given: a one-shot command's stdio servers end at once. */
export function connectOptionsOf(options: Pick<SessionOptions, "connectTimeout" | "oneShot">): ConnectAllOptions {
  return options.oneShot ? { connectTimeout: options.connectTimeout, ...ONE_SHOT_CLOSE } : { connectTimeout: options.connectTimeout };
}

/**
 * A URL server that conduit offers OAuth to: every one whose config sets no \`auth\` of its own.
 * The library runs a flow only when the server asks, and only over https or on loopback (a
 * plain-http server off loopback that asks is refused, naming why); one that asks for nothing is
 * reached as it is.
 */
function oauthMayRun(target: ServerTarget): boolean {
  return "url" in target && target.auth === undefined;
}
