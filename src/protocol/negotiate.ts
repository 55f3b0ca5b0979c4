/**
 * Choosing the era and version of a connection (2026-07-28 basic/versioning, "Backward
 * Compatibility", and the transports' sections of the same name).
 *
 * Unless pinned, the client probes with `server/discover`:
 * - a DiscoverResult: modern, at the best version both speak;
 * - `-32022` (UnsupportedProtocolVersion): modern; retry with a version from `data.supported`
 *   not tried yet; if only legacy versions are in common, `initialize`;
 * - `-32020`/`-32021`: a modern server that refused the probe itself: fail;
 * - any other error, an HTTP 4xx without a modern error, garbage, or no answer within the probe
 *   timeout: legacy, so `initialize` offering our best legacy version, and whichever legacy
 *   version the server answers is taken. The fallback never hangs on one error code.
 * The HTTP+SSE transport is older than the modern era: over it, `initialize` at once.
 * A pin speaks exactly that version or fails with an error naming what each side supports.
 */
import type { TransportKind } from "../transport/transport.js";
import { expectArray, expectObject, field, protocolError } from "../util/assert.js";
import { ClientError, ErrorCode } from "../util/errors.js";
import { isObject } from "../util/json.js";
import type { RpcPeer } from "../rpc/peer.js";
import { clientCapabilities, type InputFeatures } from "./versions.js";
import type { Negotiated } from "./era-codec.js";
import { initialize } from "./initialize.js";
import { Envelope, META } from "./envelope.js";
import type { Implementation, ServerCapabilities } from "./types/index.js";
import {
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  isLegacyVersion,
  isModernVersion,
  type Era,
  type LegacyVersion,
  type ModernVersion,
  type ProtocolVersion,
} from "./versions.js";
import { excerpt } from "../util/text.js";
import { isCorsRefusal } from "../transport/fetch-errors.js";

export interface NegotiationSettings {
  peer: RpcPeer;
  transport: TransportKind;
  clientInfo: Implementation;
  features: InputFeatures;
  pin: ProtocolVersion | undefined;
  /** A verdict from an earlier connect to the same target. */
  remembered: Era | undefined;
  probeTimeout: number;
  connectTimeout: number;
  signal: AbortSignal | undefined;
}

type Probe =
  | { kind: "modern"; negotiated: Negotiated }
  | { kind: "legacy"; why: string; supported?: string[] | undefined; refused?: ClientError | undefined };

export async function negotiate(settings: NegotiationSettings): Promise<Negotiated> {
  const pin = settings.pin;
  if (pin !== undefined && isLegacyVersion(pin)) return pinnedHandshake(settings, pin);
  // The HTTP+SSE transport is older than the modern era: there is nothing to probe.
  if (settings.transport === "sse") {
    if (pin !== undefined) throw versionMismatch(`this connection is pinned to ${pin}, which the HTTP+SSE transport does not carry`, undefined, [pin]);
    return handshake(settings, LEGACY_VERSIONS[0], LEGACY_VERSIONS);
  }
  if (pin !== undefined && isModernVersion(pin)) {
    // Pinned, there is nothing to fall back to: over HTTP a slow answer is waited for as long as
    // connecting may take (stdio's silence still means a legacy server).
    const probe = await discover(settings, [pin], [pin], settings.transport === "stdio" || settings.transport === "channel" ? settings.probeTimeout : settings.connectTimeout);
    if (probe.kind === "modern") return probe.negotiated;
    const supported = probe.supported ?? (await legacyVersionOf(settings));
    throw versionMismatch(`this connection is pinned to ${pin}, but the server did not answer as a modern server would (${probe.why})`, supported, [pin]);
  }
  if (settings.remembered === "legacy") {
    try {
      return await handshake(settings, LEGACY_VERSIONS[0], LEGACY_VERSIONS);
    } catch (error) {
      // The verdict of an earlier connect is only a shortcut: the server may speak the modern era
      // alone now, and refuse `initialize` however it likes (-32022, -32601, HTTP 4xx). Unless
      // connecting itself ended (its time is the handshake's), probe it afresh.
      if (settings.signal?.aborted === true || settings.peer.isClosed || (error instanceof ClientError && error.kind === "timeout")) throw error;
    }
  }
  const probe = await discover(settings, MODERN_VERSIONS, [...MODERN_VERSIONS, ...LEGACY_VERSIONS]);
  if (probe.kind === "modern") return probe.negotiated;
  const legacy = (probe.supported ?? []).filter(isLegacyVersion);
  try {
    return await handshake(settings, legacy[0] ?? LEGACY_VERSIONS[0], legacy.length > 0 ? legacy : LEGACY_VERSIONS);
  } catch (error) {
    // The browser refused the probe's modern headers: a server that then refuses the legacy era
    // too (a modern-only one, say) is best explained by what it did not allow.
    const refused = probe.refused;
    if (refused === undefined || !(error instanceof ClientError) || error.kind === "timeout" || error.kind === "cancelled" || error.kind === "closed") throw error;
    throw new ClientError("transport", `${refused.message}; the legacy initialize tried next failed too: ${error.message}`, { cause: error, data: refused.data });
  }
}

/**
 * `server/discover`, retried on -32022 with a version in common: a version the server says it
 * supports may be tried twice (a server may refuse the first request for a reason of its own),
 * any version at most that often, so a server that keeps refusing cannot hold the client in a loop.
 */
async function discover(settings: NegotiationSettings, offered: readonly ModernVersion[], accepts: readonly string[], timeout = settings.probeTimeout): Promise<Probe> {
  const attempts = new Map<string, number>();
  let candidates: readonly string[] = offered;
  for (;;) {
    const version = candidates.find((v): v is ModernVersion => isModernVersion(v) && offered.includes(v) && (attempts.get(v) ?? 0) < 2);
    if (version === undefined) return noModernVersion(candidates, offered, accepts, attempts);
    attempts.set(version, (attempts.get(version) ?? 0) + 1);
    let raw: unknown;
    try {
      raw = await sendDiscover(settings, version, timeout);
    } catch (error) {
      const verdict = judgeProbeFailure(error, settings.transport);
      if (verdict.kind === "retry") {
        candidates = verdict.supported;
        continue;
      }
      return verdict;
    }
    const discovered = checkDiscoverResult(raw);
    const chosen = MODERN_VERSIONS.find((v) => offered.includes(v) && discovered.supportedVersions.includes(v));
    if (chosen === undefined) {
      candidates = discovered.supportedVersions;
      continue;
    }
    return { kind: "modern", negotiated: { protocolVersion: chosen, ...discovered } };
  }
}

/** No modern version left to try: legacy if one is in common, else an error naming both sides. */
function noModernVersion(
  supported: readonly string[],
  offered: readonly ModernVersion[],
  accepts: readonly string[],
  attempts: ReadonlyMap<string, number>,
): Probe {
  if (accepts.some((v) => isLegacyVersion(v) && supported.includes(v))) {
    return { kind: "legacy", why: "the server supports only legacy versions in common", supported: [...supported] };
  }
  const refused = offered.filter((v) => supported.includes(v) && attempts.has(v));
  const why =
    refused.length > 0
      ? `the server refused ${refused.join(", ")} although it lists ${refused.length > 1 ? "them" : "it"} as supported`
      : "the server and this client have no protocol version in common";
  throw versionMismatch(why, [...supported], accepts);
}

function sendDiscover(settings: NegotiationSettings, version: ModernVersion, timeout = settings.probeTimeout): Promise<unknown> {
  const envelope = new Envelope(version, settings.clientInfo, clientCapabilities(settings.features, version));
  return settings.peer.request("server/discover", envelope.wrap(undefined), {
    // A legacy server may say nothing at all before `initialize` (on stdio), or leave a POST it
    // has no route for unanswered (over HTTP): wait only so long.
    timeout,
    signal: settings.signal,
    // Never send a cancellation to a server that may not even be initialised.
    cancellable: false,
    headers: { "mcp-protocol-version": version, "mcp-method": "server/discover" },
  });
}

type ProbeFailure = Probe | { kind: "retry"; supported: string[] };

function judgeProbeFailure(error: unknown, transport: TransportKind): ProbeFailure {
  if (!(error instanceof ClientError)) throw error;
  if (error.kind === "rpc") {
    if (error.code === ErrorCode.UnsupportedProtocolVersion) {
      const supported = supportedIn(error.data);
      if (supported !== undefined) return { kind: "retry", supported };
      throw new ClientError("protocol", "the server refused the protocol version without naming the ones it supports", { cause: error, data: error.data });
    }
    if (error.code === ErrorCode.HeaderMismatch || error.code === ErrorCode.MissingRequiredClientCapability) {
      throw new ClientError("protocol", `the server refused server/discover: ${error.message}`, { cause: error, code: error.code, data: error.data });
    }
    return { kind: "legacy", why: `it answered server/discover with error ${error.code}` };
  }
  if (error.kind === "timeout" && transport !== "sse") return { kind: "legacy", why: "it did not answer server/discover" };
  if (error.kind === "transport" && transport === "http") {
    const status = httpStatusOf(error);
    if (status !== undefined && status >= 400 && status < 500) return { kind: "legacy", why: `it answered server/discover with HTTP ${status}` };
  }
  if (error.kind === "protocol" && transport === "http") return { kind: "legacy", why: "its answer to server/discover was not a modern one" };
  // A page's browser refused the probe (CORS): the modern era's headers may be what the server
  // does not allow from this origin, and a legacy request needs fewer (no Mcp-Method).
  if (transport === "http" && isCorsRefusal(error)) return { kind: "legacy", why: "the browser refused server/discover (CORS)", refused: error };
  throw error;
}

/** The legacy handshake; a modern-only server's -32022 becomes an error naming both sides. */
async function handshake(settings: NegotiationSettings, offered: LegacyVersion, accepted: readonly LegacyVersion[]): Promise<Negotiated> {
  try {
    return await initialize(settings.peer, {
      offered,
      accepted,
      // DESIGN: the capabilities of `initialize` follow the offered version.
      capabilities: clientCapabilities(settings.features, offered),
      clientInfo: settings.clientInfo,
      timeout: settings.connectTimeout,
      signal: settings.signal,
    });
  } catch (error) {
    if (isUnsupportedVersion(error)) {
      throw versionMismatch(`the server refused initialize with ${offered}`, supportedIn((error as ClientError).data), accepted, error);
    }
    throw error;
  }
}

/**
 * A legacy pin: `initialize` with that version alone. A server that refuses it as a modern-only
 * server would (an unknown method, an HTTP 4xx) is asked `server/discover`, only to name what
 * it supports in the error.
 */
async function pinnedHandshake(settings: NegotiationSettings, pin: LegacyVersion): Promise<Negotiated> {
  try {
    return await handshake(settings, pin, [pin]);
  } catch (error) {
    if (!refusedAsModern(error) || settings.signal?.aborted === true || settings.peer.isClosed) throw error;
    const supported = await modernVersionsOf(settings);
    if (supported === undefined) throw error;
    throw versionMismatch(`this connection is pinned to ${pin}, but the server refused initialize (${(error as ClientError).message})`, supported, [pin], error);
  }
}

/**
 * `initialize` refused the way a server without it refuses (-32601, an HTTP 4xx), or refused
 * for its version without naming the ones the server has.
 */
function refusedAsModern(error: unknown): boolean {
  if (!(error instanceof ClientError)) return false;
  // The server's -32022 named no versions (an answer with a version this client does not
  // speak came from a legacy server: there is nothing more to ask).
  if (error.kind === "unsupported") return error.cause instanceof ClientError && error.cause.kind === "rpc" && isObject(error.data) && error.data.serverSupports === undefined;
  if (error.kind === "rpc") return error.code === ErrorCode.MethodNotFound;
  const status = httpStatusOf(error);
  return error.kind === "transport" && status !== undefined && status >= 400 && status < 500;
}

/** The versions a modern server lists, asked only to name them in an error. */
async function modernVersionsOf(settings: NegotiationSettings): Promise<string[] | undefined> {
  for (const version of MODERN_VERSIONS) {
    try {
      return checkDiscoverResult(await sendDiscover(settings, version)).supportedVersions;
    } catch (error) {
      const supported = error instanceof ClientError && error.kind === "rpc" ? supportedIn(error.data) : undefined;
      if (supported !== undefined) return supported;
    }
  }
  return undefined;
}

function httpStatusOf(error: ClientError): number | undefined {
  const status = isObject(error.data) ? error.data.status : undefined;
  return typeof status === "number" ? status : undefined;
}

/**
 * Which legacy version the server speaks, asked with `initialize`, only to name it in an error.
 * The connection ends right after and never begins normal operation, so no `initialized` follows.
 */
async function legacyVersionOf(settings: NegotiationSettings): Promise<string[] | undefined> {
  try {
    const legacy = await handshake(settings, LEGACY_VERSIONS[0], LEGACY_VERSIONS);
    return [legacy.protocolVersion];
  } catch {
    return undefined;
  }
}

function isUnsupportedVersion(error: unknown): boolean {
  return error instanceof ClientError && error.kind === "rpc" && error.code === ErrorCode.UnsupportedProtocolVersion;
}

function supportedIn(data: unknown): string[] | undefined {
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.every((v) => typeof v === "string") ? supported : undefined;
}

function versionMismatch(why: string, server: readonly string[] | undefined, client: readonly string[], cause?: unknown): ClientError {
  const theirs = server === undefined || server.length === 0 ? "unknown" : excerpt(server.join(", "));
  return new ClientError("unsupported", `${why}; the server supports ${theirs}; this connection accepts ${client.join(", ")}`, {
    cause,
    data: { serverSupports: server, clientAccepts: client },
  });
}

// ---- server/discover ---------------------------------------------------------------------------

export interface Discovered {
  supportedVersions: string[];
  serverCapabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions: string | undefined;
}

const UNKNOWN_SERVER: Implementation = { name: "", version: "" };

/**
 * The result of `server/discover` (2026-07-28 server/discover): what a modern server supports
 * and offers, in place of `initialize`'s; its identity comes in `_meta`.
 */
export function checkDiscoverResult(raw: unknown): Discovered {
  const path = "the result of server/discover";
  const result = expectObject(raw, path, raw);
  const versions = expectArray(result.supportedVersions, field(path, "supportedVersions"), raw);
  if (!versions.every((v) => typeof v === "string")) throw protocolError(`${field(path, "supportedVersions")} must hold strings`, raw);
  const capabilities = expectObject(result.capabilities, field(path, "capabilities"), raw);
  const meta = result._meta;
  const info = isObject(meta) ? meta[META.serverInfo] : undefined;
  return {
    supportedVersions: versions,
    serverCapabilities: capabilities,
    serverInfo: isObject(info) && typeof info.name === "string" ? (info as Implementation) : UNKNOWN_SERVER,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
}
