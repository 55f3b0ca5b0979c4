/**
 * Connecting many servers at once: a config's servers, a few at a time (four by default), each
 * within its own `connectTimeout`. One that fails is reported and does not stop the others, so
 * that thirteen servers take the time of the slowest few, not of all of them in a row. A server
 * the config could not read (an unset variable) is reported with its reason, never connected.
 * With `lazy: true` each is only registered (its target checked) and connects on its first use.
 * What is given is checked before the first connect (`connect-all-checks.ts`).
 */
import { ClientError } from "../util/errors.js";
import type { ConnectOptions } from "../options.js";
import type { ServerHandle } from "../server.js";
import type { ConfiguredServer } from "./config.js";
import { checkConnectAllOptions, checkServers } from "./connect-all-checks.js";

export interface ConnectAllOptions extends ConnectOptions {
  /** Connects in progress at once (default 4). */
  concurrency?: number | undefined;
}

export interface ConnectAllResult {
  /** The servers connected, in the config's order. */
  readonly ready: ServerHandle[];
  /** With `lazy: true`: the servers registered, each to connect on its first use. */
  readonly lazy: ServerHandle[];
  /** The servers that could not be, each with why, in the config's order. */
  readonly failed: Array<{ readonly id: string; readonly error: ClientError }>;
}

/** What `connectAll` needs of a client: its `connect`. */
export interface Connector {
  connect(id: string, target: NonNullable<ConfiguredServer["target"]>, options?: ConnectOptions): Promise<ServerHandle>;
}

type Outcome = { handle: ServerHandle } | { id: string; error: ClientError };

export async function connectAll(client: Connector, servers: readonly ConfiguredServer[], options: ConnectAllOptions = {}): Promise<ConnectAllResult> {
  checkConnectAllOptions(options);
  const { concurrency = 4, ...connect } = options;
  const checked = checkServers(servers);
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < checked.length) {
      const index = next++;
      const server = checked[index]!;
      if (server.error !== undefined) {
        outcomes[index] = { id: server.id, error: server.error };
        continue;
      }
      try {
        outcomes[index] = { handle: await client.connect(server.id, server.target, connect) };
      } catch (error) {
        outcomes[index] = { id: server.id, error: asClientError(server.id, error) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, checked.length) }, worker));
  const ready: ServerHandle[] = [];
  const lazy: ServerHandle[] = [];
  const failed: Array<{ id: string; error: ClientError }> = [];
  for (const outcome of outcomes) {
    if (!("handle" in outcome)) failed.push(outcome);
    else if (outcome.handle.state === "idle") lazy.push(outcome.handle);
    else ready.push(outcome.handle);
  }
  return { ready, lazy, failed };
}

/** A connect's refusal of what it was given is a usage error; anything else, a transport one. */
function asClientError(id: string, error: unknown): ClientError {
  if (error instanceof ClientError) return error;
  const kind = error instanceof TypeError ? "usage" : "transport";
  return new ClientError(kind, error instanceof Error ? error.message : String(error), { serverId: id, cause: error });
}
