/**
 * The legacy handshake (2025-11-25 basic/lifecycle): `initialize` offering our best version,
 * and the server's answer checked (the caller sends `notifications/initialized`). The client
 * MUST NOT cancel `initialize`, so a timeout only stops waiting.
 */
import { expectObject, field, protocolError } from "../util/assert.js";
import { ClientError } from "../util/errors.js";
import type { RpcPeer } from "../rpc/peer.js";
import type { Negotiated } from "./era-codec.js";
import { takenAsIs, without } from "./version-shapes.js";
import type { ClientCapabilities, Implementation } from "./types/index.js";
import { isLegacyVersion, type LegacyVersion } from "./versions.js";
import { excerpt } from "../util/text.js";

export interface InitializeRequest {
  offered: LegacyVersion;
  accepted: readonly LegacyVersion[];
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  timeout: number;
  signal?: AbortSignal | undefined;
}


/**
 * Sends `initialize` and checks the answer. The caller sends `notifications/initialized` once it
 * has put the negotiated version into effect (over HTTP, its header goes on that notification).
 */
export async function initialize(peer: RpcPeer, request: InitializeRequest): Promise<Negotiated<LegacyVersion>> {
  const raw = await peer.request(
    "initialize",
    { protocolVersion: request.offered, capabilities: request.capabilities, clientInfo: request.clientInfo },
    // Over HTTP its reply mints the session.
    { timeout: request.timeout, signal: request.signal, cancellable: false, startsSession: true },
  );
  return checkInitializeResult(raw, request);
}

function checkInitializeResult(raw: unknown, request: InitializeRequest): Negotiated<LegacyVersion> {
  const path = "the result of initialize";
  const result = expectObject(raw, path, raw);
  const version = result.protocolVersion;
  if (typeof version !== "string") throw protocolError(`${field(path, "protocolVersion")} must be a string`, raw);
  if (!isLegacyVersion(version) || !request.accepted.includes(version)) {
    throw new ClientError(
      "unsupported",
      `the server chose protocol version "${excerpt(version, 100)}", which this connection cannot speak ` +
        `(offered ${request.offered}; accepted ${request.accepted.join(", ")})`,
      { data: raw },
    );
  }
  const capabilities = expectObject(result.capabilities, field(path, "capabilities"), raw);
  const serverInfo = expectObject(result.serverInfo, field(path, "serverInfo"), raw);
  if (typeof serverInfo.name !== "string") throw protocolError(`${field(field(path, "serverInfo"), "name")} must be a string`, raw);
  const instructions = typeof result.instructions === "string" ? result.instructions : undefined;
  return {
    protocolVersion: version,
    serverCapabilities: capabilities,
    // `title` exists from 2025-06-18: before, it means nothing the host could rely on.
    serverInfo: (takenAsIs(version) ? serverInfo : without(serverInfo, ["title"])) as Implementation,
    instructions,
  };
}
