/**
 * Connecting many servers at once: a config's servers, a few at a time (four by default), each
 * within its own `connectTimeout`. One that fails is reported and does not stop the others, so
 * that thirteen servers take the time of the slowest few, not of all of them in a row. With
 * `lazy: true` each is only registered (its target checked) and connects on its first use.
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { CONNECT_KEYS, type ConnectOptions } from "../options.js";
import { knownKeys } from "../util/arguments.js";

const CONNECT_ALL_KEYS: ReadonlySet<string> = new Set([...CONNECT_KEYS, "concurrency"]);
import type { ServerHandle } from "../server.js";
import type { ConfiguredServer } from "./config.js";

export interface ConnectAllOptions extends ConnectOptions {
  /** Connects in progress at once (default 4). */
  concurrency?: number | undefined;
}

export interface ConnectAllResult {
  /** The servers connected, in the config's order. */
  readonly ready: ServerHandle[];
  /** With `lazy: true`: the servers registered, each to connect on its first use. */
  readonly lazy: ServerHandle[];
  /** The servers that could not be, each with why. */
  readonly failed: Array<{ readonly id: string; readonly error: ClientError }>;
}

/** What `connectAll` needs of a client: its `connect`. */
export interface Connector {
  connect(id: string, target: ConfiguredServer["target"], options?: ConnectOptions): Promise<ServerHandle>;
}

export async function connectAll(client: Connector, servers: readonly ConfiguredServer[], options: ConnectAllOptions = {}): Promise<ConnectAllResult> {
  // A misspelt option is the caller's mistake, not a failure of every server.
  knownKeys("connectAll options", options, CONNECT_ALL_KEYS);
  const { concurrency = 4, ...connect } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new InvalidArgumentError("connectAll's concurrency must be a whole number of at least 1");
  const given: unknown = servers;
  if (!Array.isArray(given)) throw new InvalidArgumentError("connectAll needs a list of servers (see loadServerConfig)");
  type Outcome = { handle: ServerHandle } | { id: string; error: ClientError };
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < servers.length) {
      const index = next++;
      const { id, target } = servers[index]!;
      try {
        outcomes[index] = { handle: await client.connect(id, target, connect) };
      } catch (error) {
        outcomes[index] = { id, error: error instanceof ClientError ? error : new ClientError("transport", String(error), { serverId: id, cause: error }) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, servers.length) }, worker));
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
