/**
 * What `connectAll` is given, checked before the first connect: a bad option value or a target
 * that no connect could take is the caller's mistake (a `TypeError`, or `"usage"` for a pinned
 * version), not each server's failure. A server that a config could not read (it comes with
 * `error`) passes: it is reported in `failed` without a connect.
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { knownKeys } from "../util/arguments.js";
import { CONNECT_KEYS, checkConnectOptions, type ConnectOptions } from "../options.js";
import { checkPin } from "../protocol/versions.js";
import { checkTarget } from "../targets.js";
import { restartPolicy } from "../restart-policy.js";
import type { ConfiguredServer } from "./config.js";

export const CONNECT_ALL_KEYS: ReadonlySet<string> = new Set([...CONNECT_KEYS, "concurrency"]);

/** The options every connect will be given, as `connect` itself checks them. */
export function checkConnectAllOptions(options: ConnectOptions & { concurrency?: unknown }): void {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("connectAll options must be an object");
  // A misspelt option is the caller's mistake, not a failure of every server.
  knownKeys("connectAll options", options, CONNECT_ALL_KEYS);
  const { concurrency = 4, ...connect } = options;
  if (!Number.isInteger(concurrency) || (concurrency as number) < 1) throw new InvalidArgumentError("connectAll's concurrency must be a whole number of at least 1");
  checkConnectOptions(connect);
  checkPin(connect.protocolVersion);
  restartPolicy(connect.restart);
  if (connect.lazy !== undefined && typeof connect.lazy !== "boolean") throw new InvalidArgumentError("connect option `lazy` must be a boolean");
}

/** The list of servers: each an id used once, and a target a connect can take (or a config's error). */
export function checkServers(given: unknown): readonly ConfiguredServer[] {
  if (!Array.isArray(given)) throw new InvalidArgumentError("connectAll needs a list of servers (see loadServerConfig)");
  const servers = given as unknown[];
  const ids = new Set<string>();
  servers.forEach((server, i) => {
    if (typeof server !== "object" || server === null) throw new InvalidArgumentError(`connectAll's server [${i}] must be an object { id, target }`);
    const { id, target, error } = server as Record<string, unknown>;
    if (typeof id !== "string" || id === "") throw new InvalidArgumentError(`connectAll's server [${i}] needs a non-empty string id`);
    if (ids.has(id)) throw new InvalidArgumentError(`connectAll was given the server id ${JSON.stringify(id)} twice`);
    ids.add(id);
    if (error !== undefined) {
      if (!(error instanceof ClientError)) throw new InvalidArgumentError(`connectAll's server "${id}": \`error\` must be a ClientError (as loadServerConfig gives)`);
      return;
    }
    checkServerTarget(id, target);
  });
  return servers as readonly ConfiguredServer[];
}

function checkServerTarget(id: string, target: unknown): void {
  try {
    checkTarget(target);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new InvalidArgumentError(`connectAll's server "${id}": ${error.message}`);
    throw error;
  }
}
