/**
 * Which client requests each version has, and which server capability each needs. A request
 * the negotiated version lacks, or that needs a capability the server did not declare, fails
 * locally with `"unsupported"` before anything is sent (lifecycle: both sides MUST use only
 * negotiated capabilities).
 */
import type { ServerCapabilities } from "./types/index.js";
import { eraOf, type ProtocolVersion } from "./versions.js";

type Availability = {
  /** Versions that define the method. */
  readonly versions: readonly ProtocolVersion[];
  /** The server capability it needs, as a path into `ServerCapabilities`. */
  readonly capability?: readonly [keyof ServerCapabilities] | readonly [keyof ServerCapabilities, string];
};

const ALL: readonly ProtocolVersion[] = ["2025-06-18", "2025-11-25", "2026-07-28"];
const LEGACY: readonly ProtocolVersion[] = ["2025-06-18", "2025-11-25"];
const MODERN: readonly ProtocolVersion[] = ["2026-07-28"];

const METHODS: Readonly<Record<string, Availability>> = {
  ping: { versions: LEGACY },
  "tools/list": { versions: ALL, capability: ["tools"] },
  "tools/call": { versions: ALL, capability: ["tools"] },
  "resources/list": { versions: ALL, capability: ["resources"] },
  "resources/templates/list": { versions: ALL, capability: ["resources"] },
  "resources/read": { versions: ALL, capability: ["resources"] },
  "resources/subscribe": { versions: LEGACY, capability: ["resources", "subscribe"] },
  "resources/unsubscribe": { versions: LEGACY, capability: ["resources", "subscribe"] },
  "prompts/list": { versions: ALL, capability: ["prompts"] },
  "prompts/get": { versions: ALL, capability: ["prompts"] },
  "completion/complete": { versions: ALL, capability: ["completions"] },
  "logging/setLevel": { versions: LEGACY, capability: ["logging"] },
  "server/discover": { versions: MODERN },
  "subscriptions/listen": { versions: MODERN },
  "tasks/get": { versions: ["2025-11-25", "2026-07-28"] },
  "tasks/result": { versions: ["2025-11-25"] },
  "tasks/list": { versions: ["2025-11-25"] },
  "tasks/cancel": { versions: ["2025-11-25", "2026-07-28"] },
  "tasks/update": { versions: MODERN },
};

/** Requests whose result may ask for input (MRTR) and to which legacy server input may relate. */
export const CALL_METHODS: ReadonlySet<string> = new Set(["tools/call", "resources/read", "prompts/get", "tasks/result"]);

/** Why `method` cannot be sent, or undefined when it can. */
export function unavailableReason(
  method: string,
  version: ProtocolVersion,
  capabilities: ServerCapabilities,
): string | undefined {
  const entry = METHODS[method];
  if (entry === undefined) return undefined;
  if (!entry.versions.includes(version)) {
    return `${method} does not exist in protocol version ${version} (${eraOf(version)} era)`;
  }
  const path = entry.capability;
  if (path === undefined) return undefined;
  const [area, flag] = path;
  const declared = capabilities[area];
  if (declared === undefined || declared === null) return `the server did not declare the "${area}" capability`;
  if (flag !== undefined && (declared as Record<string, unknown>)[flag] !== true) {
    return `the server did not declare "${area}.${flag}"`;
  }
  return undefined;
}
