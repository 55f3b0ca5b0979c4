/**
 * The modern request envelope (2026-07-28 basic/index, "_meta"; basic/transports/streamable-http).
 *
 * Every request carries the protocol version, the client's capabilities and (SHOULD) its
 * identity in `params._meta`, since the server keeps nothing between requests. Over Streamable
 * HTTP it also carries headers that mirror the body: `Mcp-Method` on every request, `Mcp-Name`
 * naming the tool, prompt, resource or task, and `Mcp-Param-{Name}` mirroring each tool argument
 * whose schema says `x-mcp-header`. Header values that are not plain printable ASCII, or that
 * look like the sentinel, travel Base64-encoded as `=?base64?…?=`.
 */
import type { ClientCapabilities, Implementation, LoggingLevel } from "./types/index.js";
import { isObject } from "../util/json.js";
import { InvalidArgumentError } from "../util/errors.js";
import type { HeaderParam } from "./x-mcp-header.js";
import { toBase64, utf8 } from "../util/bytes.js";
import { encodeOnce, isCallShaped, joinedOnce, repeatFirstLeg, textSlot } from "../util/message-text.js";
import { copyOwn } from "../util/sanitize.js";
import type { RoundAnswers } from "./mrtr.js";

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
    // Serialised once (messageText): the transports splice its text into every request.
    this.base = encodeOnce({
      [META.protocolVersion]: version,
      [META.clientInfo]: clientInfo,
      [META.clientCapabilities]: capabilities,
    });
  }

  /**
   * `params` with the envelope in `_meta`, and a later MRTR leg's `answers` after the params'
   * own keys; the caller's own `_meta` keys are kept, ours win. Copied by hand, not spread, once
   * per request: see `withField`.
   *
   * `first` is `true` for a call's first leg, whose text its later legs may repeat (it is kept
   * with the params until the call ends), and what this returned for that first leg when `answers`
   * are a later leg's: the later leg's text then repeats the first's for the params' own keys
   * (`repeatFirstLeg`), so a call's arguments are serialised once however many rounds it takes,
   * and each retry repeats them as the first leg sent them.
   */
  wrap(params: Record<string, unknown> | undefined, logLevel?: LoggingLevel, answers?: RoundAnswers, first?: object | true): Record<string, unknown> {
    const given = params?._meta;
    const shared = logLevel === undefined ? this.base : this.withLevel(logLevel);
    if (given === undefined) {
      if (params === undefined && answers === undefined) return { _meta: shared };
      const sent = copyWith(params, answers, shared, first === true);
      // Keys of the params' own by these names would stay where they are, and be written twice.
      if (typeof first === "object" && answers !== undefined && !hasAnswerKeys(params)) repeatFirstLeg(sent, first);
      return sent;
    }
    // The caller's keys beside the envelope, whose text is still written once.
    const joined = isObject(given) ? joinedOnce(given, shared) : undefined;
    if (joined !== undefined) return copyWith(params, answers, joined);
    const meta = copyOwn(this.base, isObject(given) ? copyOwn(given, {}) : {});
    if (logLevel !== undefined) meta[META.logLevel] = logLevel;
    return copyWith(params, answers, meta);
  }

  private withLevel(level: LoggingLevel): Readonly<Record<string, unknown>> {
    let meta = this.leveled.get(level);
    if (meta === undefined) {
      meta = encodeOnce({ ...this.base, [META.logLevel]: level });
      this.leveled.set(level, meta);
    }
    return meta;
  }
}

/** Whether the caller's params have keys of their own that a later leg's answers go under. */
function hasAnswerKeys(params: Record<string, unknown> | undefined): boolean {
  return params !== undefined && (Object.hasOwn(params, "inputResponses") || Object.hasOwn(params, "requestState"));
}

/**
 * `{ ...params, ...answers, _meta }` in one copy, keys in the order the spreads would give them;
 * with a slot for its text (`textSlot`) when a later leg may repeat it.
 */
function copyWith(params: Record<string, unknown> | undefined, answers: RoundAnswers | undefined, meta: unknown, keepText = false): Record<string, unknown> {
  const sent = keepText ? textSlot() : {};
  if (isCallShaped(params)) {
    // A call's usual params, copied by name: every copy takes the same two steps from the same
    // shape, where a copy by computed key is a lookup the engine cannot remember per key.
    sent.name = params.name;
    sent.arguments = params.arguments;
  } else copyOwn(params, sent);
  if (answers !== undefined) {
    sent.inputResponses = answers.inputResponses;
    sent.requestState = answers.requestState;
  }
  sent._meta = meta;
  return sent;
}

const PLAIN = /^[\x20-\x7e]*$/;

/** A header value the spec allows as is, else its Base64 sentinel form. */
export function headerValue(value: string): string {
  const plain =
    PLAIN.test(value) &&
    value.trim() === value &&
    !(value.startsWith("=?base64?") && value.endsWith("?="));
  return plain ? value : `=?base64?${toBase64(utf8(value))}?=`;
}

/** What `Mcp-Name` carries for each method that has one. */
function nameOf(method: string, params: Record<string, unknown> | undefined): unknown {
  switch (method) {
    case "tools/call":
    case "prompts/get":
      return params?.name;
    case "resources/read":
      return params?.uri;
    // The tasks extension: intermediaries route a task's requests by its id.
    case "tasks/get":
    case "tasks/update":
    case "tasks/cancel":
      return params?.taskId;
    default:
      return undefined;
  }
}

export function modernHeaders(
  method: string,
  params: Record<string, unknown> | undefined,
  toolParams: readonly HeaderParam[] | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { "mcp-method": method };
  const name = nameOf(method, params);
  if (typeof name === "string") headers["mcp-name"] = headerValue(name);
  if (method === "tools/call" && toolParams !== undefined) {
    const args = isObject(params?.arguments) ? params.arguments : {};
    for (const param of toolParams) {
      const value = valueAt(args, param.path);
      if (value === undefined || value === null) continue;
      headers[`mcp-param-${param.name.toLowerCase()}`] = headerValue(paramText(param, value));
    }
  }
  return headers;
}

function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = args;
  for (const key of path) {
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function paramText(param: HeaderParam, value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  throw new InvalidArgumentError(
    `argument "${param.path.join(".")}" goes into header Mcp-Param-${param.name} and must be a string, a boolean or a safe integer`,
  );
}
