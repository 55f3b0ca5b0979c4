/**
 * The modern request envelope (2026-07-28 basic/index, "_meta"): every request carries the
 * protocol version, the client's capabilities and (SHOULD) its identity in `params._meta`,
 * since the server keeps nothing between requests.
 */
import type { ClientCapabilities, Implementation, LoggingLevel } from "./types/index.js";
import { isObject } from "../util/json.js";

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/**
 * The envelope of one connection: the three keys every request carries, in one frozen object
 * shared by every request that adds nothing of its own, so that a request costs one copy of its
 * params and no more.
 */
export class Envelope {
  private readonly base: Readonly<Record<string, unknown>>;
  /** The base with a log level, one frozen object per level asked for. */
  private readonly leveled = new Map<LoggingLevel, Readonly<Record<string, unknown>>>();

  constructor(version: string, clientInfo: Implementation, capabilities: ClientCapabilities) {
    this.base = Object.freeze({
      [META.protocolVersion]: version,
      [META.clientInfo]: clientInfo,
      [META.clientCapabilities]: capabilities,
    });
  }

  /** `params` with the envelope in `_meta`; the caller's own `_meta` keys are kept, ours win. */
  wrap(params: Record<string, unknown> | undefined, logLevel?: LoggingLevel): Record<string, unknown> {
    const given = params?._meta;
    if (given === undefined) {
      const shared = logLevel === undefined ? this.base : this.withLevel(logLevel);
      return params === undefined ? { _meta: shared } : { ...params, _meta: shared };
    }
    const meta: Record<string, unknown> = isObject(given) ? { ...given, ...this.base } : { ...this.base };
    if (logLevel !== undefined) meta[META.logLevel] = logLevel;
    return { ...params, _meta: meta };
  }

  private withLevel(level: LoggingLevel): Readonly<Record<string, unknown>> {
    let meta = this.leveled.get(level);
    if (meta === undefined) {
      meta = Object.freeze({ ...this.base, [META.logLevel]: level });
      this.leveled.set(level, meta);
    }
    return meta;
  }
}
