/**
 * What `connect` is given to reach a server: a command to spawn (stdio) or a URL (Streamable
 * HTTP); and the transport made from it.
 */
import { HTTP_TARGET_KEYS, HttpTransport, type HttpTarget } from "./transport/http.js";
import type { HttpAgents } from "./transport/http-exchange.js";
import { STDIO_TARGET_KEYS, StdioTransport, type StdioTarget } from "./transport/stdio.js";
import type { Transport } from "./transport/transport.js";
import { knownKeys } from "./util/arguments.js";
import { InvalidArgumentError } from "./util/errors.js";
import type { Logger } from "./util/logger.js";
import { CONNECT_DEFAULTS, type ConnectOptions } from "./options.js";

export type ServerTarget = StdioTarget | HttpTarget;

export function createTransport(target: ServerTarget, options: ConnectOptions, logger: Logger, agents: HttpAgents): Transport {
  if (typeof target !== "object" || target === null) throw new InvalidArgumentError("a server target must be an object");
  const maxMessageBytes = options.maxMessageBytes ?? CONNECT_DEFAULTS.maxMessageBytes;
  if ("command" in target) {
    knownKeys("a stdio target", target, STDIO_TARGET_KEYS);
    return new StdioTransport(target, {
      maxMessageBytes,
      closeGracePeriod: options.closeGracePeriod ?? CONNECT_DEFAULTS.closeGracePeriod,
      stderrTailBytes: CONNECT_DEFAULTS.stderrTailBytes,
      logger,
      onStderr: options.onStderr,
    });
  }
  if ("url" in target) {
    knownKeys("an HTTP target", target, HTTP_TARGET_KEYS);
    return new HttpTransport(target, { logger, maxMessageBytes, agents });
  }
  throw new InvalidArgumentError("a server target needs either `command` (stdio) or `url` (Streamable HTTP)");
}

/** Identifies a target across connects, for remembering the era it speaks. */
export function targetKey(target: ServerTarget): string {
  if ("command" in target) {
    return JSON.stringify(["stdio", target.command, target.args ?? [], target.cwd ?? "", target.env ?? {}, target.inheritEnv === true]);
  }
  return JSON.stringify(["http", String(target.url)]);
}
