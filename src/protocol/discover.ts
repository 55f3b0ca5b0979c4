/**
 * `server/discover` (2026-07-28 server/discover): what a modern server supports and offers.
 * It replaces `initialize` as the source of the server's capabilities and instructions; its
 * identity comes in `_meta["io.modelcontextprotocol/serverInfo"]`.
 */
import { expectArray, expectObject, field, protocolError } from "../util/assert.js";
import { isObject } from "../util/json.js";
import { META } from "./meta.js";
import type { Implementation, ServerCapabilities } from "./types/index.js";

export interface Discovered {
  supportedVersions: string[];
  serverCapabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions: string | undefined;
}

const UNKNOWN_SERVER: Implementation = { name: "", version: "" };

export function checkDiscoverResult(raw: unknown): Discovered {
  const path = "the result of server/discover";
  const result = expectObject(raw, path, raw);
  const versions = expectArray(result.supportedVersions, field(path, "supportedVersions"), raw);
  if (!versions.every((v) => typeof v === "string")) throw protocolError(`${field(path, "supportedVersions")} must hold strings`, raw);
  const capabilities = expectObject(result.capabilities, field(path, "capabilities"), raw);
  return {
    supportedVersions: versions,
    serverCapabilities: capabilities,
    serverInfo: serverInfoIn(result) ?? UNKNOWN_SERVER,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
}

/** The server's identity as modern results carry it, if this one does. */
function serverInfoIn(result: Record<string, unknown>): Implementation | undefined {
  const meta = result._meta;
  if (!isObject(meta)) return undefined;
  const info = meta[META.serverInfo];
  return isObject(info) && typeof info.name === "string" ? (info as Implementation) : undefined;
}
