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

export interface Envelope {
  readonly version: string;
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
}

/** `params` with the envelope in `_meta`; the caller's own `_meta` keys are kept, ours win. */
export function withEnvelope(
  params: Record<string, unknown> | undefined,
  envelope: Envelope,
  logLevel?: LoggingLevel,
): Record<string, unknown> {
  const given = params?._meta;
  const meta: Record<string, unknown> = isObject(given) ? { ...given } : {};
  meta[META.protocolVersion] = envelope.version;
  meta[META.clientInfo] = envelope.clientInfo;
  meta[META.clientCapabilities] = envelope.capabilities;
  if (logLevel !== undefined) meta[META.logLevel] = logLevel;
  return { ...params, _meta: meta };
}
