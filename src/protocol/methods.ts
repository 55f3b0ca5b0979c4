/**
 * The client's requests, one row each: the params and result types, the versions that have
 * the method, the server capability it needs, whether it is a "call", and the check of its
 * result. A request the negotiated version lacks, or that needs a capability the server did
 * not declare, fails locally with `"unsupported"` before anything is sent (basic/lifecycle:
 * both sides MUST use only negotiated capabilities).
 *
 * A "call" (DESIGN, "Calls") is a request to which a legacy server's input may relate, and
 * whose modern result may ask for input (MRTR).
 */
import type { RequestOptions } from "../rpc/pending-call.js";
import {
  checkCallTool,
  checkComplete,
  checkGetPrompt,
  checkGetSkill,
  checkListPrompts,
  checkListResourceTemplates,
  checkListResources,
  checkListSkills,
  checkListTools,
  checkReadResource,
  emptyResult,
  type GetSkillResult,
  type ListSkillsResult,
  type ResultCheck,
} from "./results.js";
import type {
  CallToolParams,
  CallToolResult,
  CompleteParams,
  CompleteResult,
  EmptyResult,
  GetPromptParams,
  GetPromptResult,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListToolsResult,
  LoggingLevel,
  PaginatedParams,
  ReadResourceParams,
  ReadResourceResult,
  ServerCapabilities,
  SetLevelParams,
  SubscribeParams,
} from "./types/index.js";
import { LEGACY_VERSIONS, MODERN_VERSIONS, SUPPORTED_VERSIONS, eraOf, since, type ProtocolVersion } from "./versions.js";
import { isObject } from "../util/json.js";

/** The skills extension (SEP-2640): its methods are gated on the server declaring it. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** What a caller may say about one request. */
export interface CallOptions extends RequestOptions {
  /** Handler context for server input tied to this call. */
  assigns?: unknown;
  /** Modern era: ask the server for log entries at this level and above for this request. */
  logLevel?: LoggingLevel | undefined;
  /**
   * What a call does when the server asks for input (2026-07-28 MRTR): `"handler"` (the default)
   * answers through the Handler; `"return"` resolves with a `PendingInput` to answer later with
   * `client.resume`, in this process or another. The legacy era has no such thing: there a
   * server's request waits on its connection, and `"return"` is a `"usage"` error.
   */
  inputRequired?: InputRequiredMode | undefined;
  /**
   * The host's own keys for the request's `params._meta` (at most 64 keys, 16 KiB of JSON). A key
   * the protocol reserves (a prefix with a `modelcontextprotocol` or `mcp` label, or
   * `progressToken`) is refused; the client's own keys are set over these.
   */
  meta?: Readonly<Record<string, unknown>> | undefined;
}

export type InputRequiredMode = "handler" | "return";

export const CALL_OPTION_KEYS: ReadonlySet<string> = new Set([
  "timeout", "maxTotalTimeout", "signal", "onProgress", "resetTimeoutOnProgress", "assigns", "logLevel", "inputRequired", "meta",
]);

type CapabilityPath = readonly [keyof ServerCapabilities] | readonly [keyof ServerCapabilities, string];
/** A capability rule that changes with the version: why the server's capabilities do not allow the method. */
type CapabilityRule = (capabilities: ServerCapabilities, version: ProtocolVersion) => string | undefined;

export interface MethodSpec<P, R> {
  /** Versions that define the method. */
  readonly versions: readonly ProtocolVersion[];
  /** The server capability it needs, as a path into `ServerCapabilities`, or a rule. */
  readonly capability?: CapabilityPath | CapabilityRule | undefined;
  readonly call: boolean;
  readonly check: ResultCheck<R>;
  /** Never set: carries the params' type. */
  readonly params?: P;
}

function row<P, R>(spec: { versions: readonly ProtocolVersion[]; capability?: CapabilityPath | CapabilityRule; call?: boolean; check: ResultCheck<R> }): MethodSpec<P, R> {
  return { versions: spec.versions, capability: spec.capability, call: spec.call === true, check: spec.check };
}

const ALL = SUPPORTED_VERSIONS;
const LEGACY = LEGACY_VERSIONS;

/** The requests a host sends through a server handle. */
export const METHODS = {
  ping: row<undefined, EmptyResult>({ versions: LEGACY, check: emptyResult("ping") }),
  "tools/list": row<PaginatedParams | undefined, ListToolsResult>({ versions: ALL, capability: ["tools"], check: checkListTools }),
  "tools/call": row<CallToolParams, CallToolResult>({ versions: ALL, capability: ["tools"], call: true, check: checkCallTool }),
  "resources/list": row<PaginatedParams | undefined, ListResourcesResult>({ versions: ALL, capability: ["resources"], check: checkListResources }),
  "resources/templates/list": row<PaginatedParams | undefined, ListResourceTemplatesResult>({
    versions: ALL,
    capability: ["resources"],
    check: checkListResourceTemplates,
  }),
  "resources/read": row<ReadResourceParams, ReadResourceResult>({ versions: ALL, capability: ["resources"], call: true, check: checkReadResource }),
  "resources/subscribe": row<SubscribeParams, EmptyResult>({ versions: LEGACY, capability: ["resources", "subscribe"], check: emptyResult("resources/subscribe") }),
  "resources/unsubscribe": row<SubscribeParams, EmptyResult>({
    versions: LEGACY,
    capability: ["resources", "subscribe"],
    check: emptyResult("resources/unsubscribe"),
  }),
  "prompts/list": row<PaginatedParams | undefined, ListPromptsResult>({ versions: ALL, capability: ["prompts"], check: checkListPrompts }),
  "prompts/get": row<GetPromptParams, GetPromptResult>({ versions: ALL, capability: ["prompts"], call: true, check: checkGetPrompt }),
  "completion/complete": row<CompleteParams, CompleteResult>({ versions: ALL, capability: completions, check: checkComplete }),
  "logging/setLevel": row<SetLevelParams, EmptyResult>({ versions: LEGACY, capability: ["logging"], check: emptyResult("logging/setLevel") }),
  "skills/list": row<PaginatedParams | undefined, ListSkillsResult>({ versions: ALL, capability: skillsDeclared, check: checkListSkills }),
  "skills/get": row<{ uri: string }, GetSkillResult>({ versions: ALL, capability: skillsDeclared, check: checkGetSkill }),
} as const satisfies Record<string, MethodSpec<unknown, unknown>>;

export type Method = keyof typeof METHODS;
export type ParamsOf<M extends Method> = (typeof METHODS)[M] extends MethodSpec<infer P, unknown> ? P : never;
export type ResultOf<M extends Method> = (typeof METHODS)[M] extends MethodSpec<unknown, infer R> ? R : never;

/**
 * Requests the protocol layer sends on its own (negotiation, subscriptions): their versions,
 * for the availability rule; their results are checked where they are sent.
 */
const INTERNAL: Readonly<Record<string, readonly ProtocolVersion[]>> = {
  initialize: LEGACY,
  "server/discover": MODERN_VERSIONS,
  "subscriptions/listen": MODERN_VERSIONS,
};

const ROWS: Readonly<Record<string, MethodSpec<unknown, unknown> | undefined>> = METHODS;

/** Whether `method` is a call. */
export function isCallMethod(method: string): boolean {
  return ROWS[method]?.call === true;
}

/** Why `method` cannot be sent, or undefined when it can. */
export function unavailableReason(method: string, version: ProtocolVersion, capabilities: ServerCapabilities): string | undefined {
  const entry = ROWS[method];
  const versions = entry?.versions ?? INTERNAL[method];
  if (versions === undefined) return undefined;
  if (!versions.includes(version)) return `${method} does not exist in protocol version ${version} (${eraOf(version)} era)`;
  const rule = entry?.capability;
  if (rule === undefined) return undefined;
  return typeof rule === "function" ? rule(capabilities, version) : undeclared(rule, capabilities);
}

function undeclared([area, flag]: CapabilityPath, capabilities: ServerCapabilities): string | undefined {
  const declared = capabilities[area];
  if (declared === undefined || declared === null) return `the server did not declare the "${area}" capability`;
  if (flag !== undefined && (declared as Record<string, unknown>)[flag] !== true) return `the server did not declare "${area}.${flag}"`;
  return undefined;
}

/**
 * The skills methods need the server to have declared the extension; an extension lives in
 * `capabilities.extensions` whatever the version, as servers of every era put it there.
 */
function skillsDeclared(capabilities: ServerCapabilities): string | undefined {
  const extensions: unknown = capabilities.extensions;
  if (isObject(extensions) && Object.hasOwn(extensions, SKILLS_EXTENSION) && isObject(extensions[SKILLS_EXTENSION])) return undefined;
  return `the server did not declare the "${SKILLS_EXTENSION}" extension`;
}

/**
 * `completion/complete` needs `completions` from 2025-03-26, which brought the capability;
 * before it, a server with prompts or resources (what completion completes) may offer it.
 */
function completions(capabilities: ServerCapabilities, version: ProtocolVersion): string | undefined {
  if (since(version, "2025-03-26")) return undeclared(["completions"], capabilities);
  const offers = capabilities.prompts !== undefined || capabilities.resources !== undefined;
  return offers ? undefined : `the server declared neither "prompts" nor "resources", which completion needs in ${version}`;
}
