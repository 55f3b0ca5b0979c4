/**
 * What the client and `connect` are given: the client's options and the defaults they merge
 * with (an option given in part keeps the defaults for the rest: `handlerTimeout: {
 * elicitation: 1000 }`), and a connect's options. An unknown key is refused, naming the nearest
 * known one. The target of a connect, and the transport made from it, are `targets.ts`'.
 */
import { isTracing, type Tracing } from "./tracing/tracing.js";
import { INPUT_DEFAULTS, type HandlerTimeouts, type InputOptions, type SamplingOptions } from "./input/options.js";
import type { Handler } from "./input/handler.js";
import type { JsonObject, LoggingLevel } from "./protocol/types/index.js";
import { checkExtensions, type DeclaredExtensions } from "./extensions-option.js";
import type { ProtocolVersion } from "./protocol/versions.js";
import { nonNegativeInteger, nonNegativeNumber, optional, positiveInteger, positiveNumber, knownKeys } from "./util/arguments.js";
import { InvalidArgumentError } from "./util/errors.js";
import { guardLogger, stderrLogger, type Logger } from "./util/logger.js";
import type { RateLimit } from "./util/token-bucket.js";
import type { RestartOptions } from "./restart-policy.js";
import { memoryStore } from "./stores/memory-store.js";
import type { Store } from "./stores/store.js";

// Read with the options by those who take a target beside them (the host's configs).
export type { RemoteTarget, ServerTarget } from "./targets.js";

export interface ClientOptions {
  /** `clientInfo.name`, and `ctx.client` in Handler callbacks. */
  name: string;
  version: string;
  title?: string | undefined;
  handler?: Handler | undefined;
  /** `ctx.assigns` when an input is tied to no call. */
  assigns?: unknown;
  logger?: Logger | undefined;
  /** Per-request timeout when a call gives none (ms, default 60 000). */
  requestTimeout?: number | undefined;
  maxServerRequests?: number | undefined;
  handlerTimeout?: Partial<HandlerTimeouts> | undefined;
  inputRateLimit?: Partial<RateLimit> | undefined;
  logRateLimit?: Partial<RateLimit> | undefined;
  sampling?: Partial<SamplingOptions> | undefined;
  maxInputRounds?: number | undefined;
  /** Notifications waiting for the hooks beyond which new ones are dropped (default 1 000). */
  maxQueuedNotifications?: number | undefined;
  /**
   * Extensions this host supports, declared to every server: extension id (`vendor/name`) to
   * its settings object (`{}` for none). Sent in `capabilities.extensions` of `initialize`
   * (legacy) and in the client capabilities of every request's `_meta` (2026-07-28). Checked
   * once: plain JSON, at most 64 extensions and 16 KiB of JSON in all (it rides on every modern
   * request); `io.modelcontextprotocol/tasks` is the client's own to declare.
   *
   * A host that renders MCP Apps declares them with `appsExtension()`:
   * `extensions: { ...appsExtension(), "com.example/other": {} }` (`appsExtension()` alone
   * will do), which says it renders `text/html;profile=mcp-app` views. Servers may then list
   * tools for the views alone, which the catalog keeps from models (`visibility`).
   */
  extensions?: Readonly<Record<string, JsonObject>> | undefined;
  /**
   * Where this Client claims the PendingInputs it resumes (`client.resume`), so that each is
   * answered once: by default a memory store of its own. Clients that may resume the same
   * PendingInput (workers of one host, in one process or many) share one store that makes
   * `setIfAbsent` atomic across them.
   */
  store?: Store | undefined;
  // ---- what else the client keeps in `store` (era verdicts, catalog lists, kept tasks) ----
  /**
   * Keep the catalog's lists in `store` too, so that a fresh Client (another worker) lists a
   * server only once its cache hint has passed: `true`, or `{ privateLists: true }` when the
   * store is this user's own. Only lists with a 2026-07-28 cache hint are written (`ttlMs` > 0,
   * at most a day), under `conduit:catalog:<target hash>:<kind>` for what is left of the hint.
   * A `cacheScope: "private"` list is written only with `privateLists`: a store shared by
   * several users would hand one user's private list to another. Off by default.
   */
  catalogStore?: boolean | CatalogStoreOptions | undefined;
  /**
   * Traces every request as a client span, with its MRTR rounds as children, and puts the W3C
   * trace context in each request's `_meta`: `openTelemetry()` of `conduit-mcp/opentelemetry`
   * makes one. Nothing is traced without it.
   */
  tracing?: Tracing | undefined;
  /**
   * Pin each server's tools (`host/tool-pins.ts`): their fingerprints are kept in `store`
   * (default the Client's) when a server id is first listed, and a later listing that adds,
   * removes or changes a tool is reported to `onCatalogChange`; `policy` says which tools then
   * wait for `client.approveTools` (default `"report"`: none). Off by default.
   */
  pinning?: PinningOptions | undefined;
  /** Told of each change pinning sees in a server's tools (requires `pinning`). A throw is logged. */
  onCatalogChange?: ((change: CatalogChange) => unknown) | undefined;
  /**
   * The server ids whose tool annotations (`readOnlyHint`, `destructiveHint`, …) the host trusts:
   * their catalog tools carry `annotationsTrusted: true`. Annotations of any other server are
   * what it claims of itself, hints to show, never grounds to skip a confirmation.
   */
  trustedServers?: readonly string[] | undefined;
}

/** Which tools pinning holds back until `client.approveTools` (see `host/tool-pins.ts`). */
export type PinningPolicy = "report" | "block-changed" | "approve-new";

/** What changed in a server's list of tools since the catalog's listing before (names of tools). */
export interface CatalogChange {
  serverId: string;
  added: string[];
  removed: string[];
  changed: string[];
}

export interface PinningOptions {
  /** Where the approved fingerprints are kept (default the Client's `store`). */
  store?: Store | undefined;
  policy?: PinningPolicy | undefined;
}

export interface CatalogStoreOptions {
  /** The store is this user's own: lists the server marks `cacheScope: "private"` are kept too. */
  privateLists?: boolean | undefined;
}

export interface ConnectOptions {
  /** Speak exactly this version; no fallback to another. */
  protocolVersion?: ProtocolVersion | undefined;
  /** How long the `server/discover` probe may stay unanswered before falling back to `initialize` (ms). */
  probeTimeout?: number | undefined;
  /** Bound on starting and negotiating (ms, default 30 000). */
  connectTimeout?: number | undefined;
  signal?: AbortSignal | undefined;
  elicitation?: { origin?: string | undefined } | undefined;
  /** Largest message accepted from the server (bytes, default 64 MiB). */
  maxMessageBytes?: number | undefined;
  /**
   * stdio: how long to wait after ending stdin, and after SIGTERM (ms, default 2 000).
   * `Infinity` never escalates on a timer: the server's own exit ends the close.
   */
  closeGracePeriod?: number | undefined;
  /**
   * stdio: how long to wait after ending stdin before SIGTERM (ms, default `closeGracePeriod`).
   * 0 sends SIGTERM at once, for a host that has what it needs (a one-shot command) and still
   * gives the server `closeGracePeriod` to exit on it before SIGKILL.
   */
  stdinGracePeriod?: number | undefined;
  /** stdio: receives what the server writes to stderr. */
  onStderr?: ((text: string) => void) | undefined;
  /** Modern era: ask for log entries at this level and above on every request (none by default). */
  logLevel?: LoggingLevel | undefined;
  /**
   * Bring the server back when it breaks once ready (a stdio server exits, an HTTP server stops
   * answering): `true` for the defaults, or the bounds (see `RestartOptions`). Off by default.
   */
  restart?: RestartOptions | boolean | undefined;
  /** Return at once and connect on the first use (a request, `ready()`, the catalog). */
  lazy?: boolean | undefined;
}

export interface ResolvedClientOptions extends InputOptions {
  name: string;
  version: string;
  title: string | undefined;
  handler: Handler | undefined;
  assigns: unknown;
  logger: Logger;
  requestTimeout: number;
  extensions: DeclaredExtensions;
  store: Store;
  /** Whether the catalog keeps its lists in `store`, and private ones too; undefined when not. */
  catalogStore: { privateLists: boolean } | undefined;
  tracing: Tracing | undefined;
  pinning: { store: Store; policy: PinningPolicy } | undefined;
  onCatalogChange: ((change: CatalogChange) => unknown) | undefined;
  trustedServers: ReadonlySet<string>;
}

export const CONNECT_DEFAULTS = {
  probeTimeout: 3_000,
  connectTimeout: 30_000,
  maxMessageBytes: 64 * 1024 * 1024,
  closeGracePeriod: 2_000,
  stderrTailBytes: 8 * 1024,
} as const;

const CLIENT_KEYS: ReadonlySet<string> = new Set([
  "name", "version", "title", "handler", "assigns", "logger", "requestTimeout", "maxServerRequests", "handlerTimeout",
  "inputRateLimit", "logRateLimit", "sampling", "maxInputRounds", "maxQueuedNotifications", "extensions", "store", "tracing",
  "catalogStore", "pinning", "onCatalogChange", "trustedServers",
]);
const PINNING_KEYS: ReadonlySet<string> = new Set(["store", "policy"]);
const POLICIES: ReadonlySet<string> = new Set(["report", "block-changed", "approve-new"]);
const CATALOG_STORE_KEYS: ReadonlySet<string> = new Set(["privateLists"]);
const TIMEOUT_KEYS: ReadonlySet<string> = new Set(["default", "elicitation"]);
const RATE_KEYS: ReadonlySet<string> = new Set(["perSecond", "burst"]);
const SAMPLING_KEYS: ReadonlySet<string> = new Set(["maxTokens", "context", "allowIdle", "maxToolIterations", "rejectionCode"]);
export const CONNECT_KEYS: ReadonlySet<string> = new Set([
  "protocolVersion", "probeTimeout", "connectTimeout", "signal", "elicitation", "maxMessageBytes", "closeGracePeriod", "stdinGracePeriod", "onStderr", "logLevel", "restart", "lazy",
]);
const ELICITATION_KEYS: ReadonlySet<string> = new Set(["origin"]);

/** Checks an option object's keys; `value` may be absent. */
function keys(what: string, value: unknown, known: ReadonlySet<string>): void {
  if (value === undefined) return;
  if (typeof value !== "object" || value === null) throw new InvalidArgumentError(`${what} must be an object`);
  knownKeys(what, value, known);
}

export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("Client options must be an object");
  keys("Client options", options, CLIENT_KEYS);
  keys("Client option `handlerTimeout`", options.handlerTimeout, TIMEOUT_KEYS);
  keys("Client option `inputRateLimit`", options.inputRateLimit, RATE_KEYS);
  keys("Client option `logRateLimit`", options.logRateLimit, RATE_KEYS);
  keys("Client option `sampling`", options.sampling, SAMPLING_KEYS);
  if (typeof options.catalogStore === "object") keys("Client option `catalogStore`", options.catalogStore, CATALOG_STORE_KEYS);
  keys("Client option `pinning`", options.pinning, PINNING_KEYS);
  if (typeof options.name !== "string" || options.name === "") throw new InvalidArgumentError("Client option `name` must be a non-empty string");
  if (typeof options.version !== "string") throw new InvalidArgumentError("Client option `version` must be a string");
  const d = INPUT_DEFAULTS;
  return {
    name: options.name,
    version: options.version,
    title: options.title,
    handler: options.handler,
    assigns: options.assigns,
    logger: options.logger === undefined ? stderrLogger : guardLogger(options.logger),
    requestTimeout: positiveNumber(option("requestTimeout"), options.requestTimeout ?? 60_000),
    maxServerRequests: positiveInteger(option("maxServerRequests"), options.maxServerRequests ?? d.maxServerRequests),
    handlerTimeout: {
      default: positiveNumber(option("handlerTimeout.default"), options.handlerTimeout?.default ?? d.handlerTimeout.default),
      elicitation: positiveNumber(option("handlerTimeout.elicitation"), options.handlerTimeout?.elicitation ?? d.handlerTimeout.elicitation),
    },
    inputRateLimit: rate("inputRateLimit", { ...d.inputRateLimit, ...options.inputRateLimit }),
    logRateLimit: rate("logRateLimit", { ...d.logRateLimit, ...options.logRateLimit }),
    sampling: sampling({ ...d.sampling, ...options.sampling }),
    maxInputRounds: positiveInteger(option("maxInputRounds"), options.maxInputRounds ?? d.maxInputRounds),
    maxQueuedNotifications: positiveInteger(option("maxQueuedNotifications"), options.maxQueuedNotifications ?? d.maxQueuedNotifications),
    extensions: checkExtensions(options.extensions),
    store: options.store === undefined ? memoryStore() : checkStore(options.store, "store"),
    catalogStore: catalogStore(options.catalogStore),
    tracing: checkTracing(options.tracing),
    ...pinning(options),
  };
}

function pinning(options: ClientOptions): Pick<ResolvedClientOptions, "pinning" | "onCatalogChange" | "trustedServers"> {
  const { pinning: given, onCatalogChange, trustedServers } = options;
  if (onCatalogChange !== undefined && typeof onCatalogChange !== "function") throw new InvalidArgumentError("Client option `onCatalogChange` must be a function");
  // Without pinning nothing is compared: a hook given alone would wait for ever in silence.
  if (onCatalogChange !== undefined && given === undefined) throw new InvalidArgumentError("Client option `onCatalogChange` needs `pinning` (pinning: {} reports changes)");
  if (trustedServers !== undefined && (!Array.isArray(trustedServers) || trustedServers.some((id) => typeof id !== "string"))) {
    throw new InvalidArgumentError("Client option `trustedServers` must be an array of server ids (strings)");
  }
  const policy = given?.policy ?? "report";
  if (!POLICIES.has(policy)) throw new InvalidArgumentError(`Client option \`pinning.policy\` must be "report", "block-changed" or "approve-new", got ${JSON.stringify(policy)}`);
  const store = given?.store === undefined ? options.store : given.store;
  return {
    pinning: given === undefined ? undefined : { store: store === undefined ? memoryStore() : checkStore(store, "pinning.store"), policy },
    onCatalogChange,
    trustedServers: new Set(trustedServers ?? []),
  };
}

function checkTracing(tracing: unknown): Tracing | undefined {
  if (tracing === undefined || isTracing(tracing)) return tracing;
  throw new InvalidArgumentError("Client option `tracing` must be a Tracing (request and step), such as openTelemetry() of conduit-mcp/opentelemetry");
}

function checkStore(store: unknown, name: string): Store {
  const methods = ["get", "set", "delete", "setIfAbsent"] as const;
  if (typeof store !== "object" || store === null || methods.some((name) => typeof (store as Record<string, unknown>)[name] !== "function")) {
    throw new InvalidArgumentError(`Client option \`${name}\` must be a Store (get, set, delete and setIfAbsent)`);
  }
  return store as Store;
}

function catalogStore(value: ClientOptions["catalogStore"]): ResolvedClientOptions["catalogStore"] {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { privateLists: false };
  if (typeof value !== "object" || value === null) throw new InvalidArgumentError("Client option `catalogStore` must be a boolean or { privateLists }");
  if (value.privateLists !== undefined && typeof value.privateLists !== "boolean") throw new InvalidArgumentError("Client option `catalogStore.privateLists` must be a boolean");
  return { privateLists: value.privateLists === true };
}

const option = (name: string): string => `Client option \`${name}\``;

function rate(name: string, limit: RateLimit): RateLimit {
  positiveNumber(option(`${name}.perSecond`), limit.perSecond);
  positiveNumber(option(`${name}.burst`), limit.burst);
  return limit;
}

function sampling(options: SamplingOptions): SamplingOptions {
  positiveInteger(option("sampling.maxTokens"), options.maxTokens);
  nonNegativeInteger(option("sampling.maxToolIterations"), options.maxToolIterations);
  if (!Number.isInteger(options.rejectionCode)) throw new InvalidArgumentError("Client option `sampling.rejectionCode` must be an integer");
  return options;
}

/** Checks what `connect` is given besides the target (the pin is checked apart: its error is `"usage"`). */
export function checkConnectOptions(options: ConnectOptions): void {
  keys("connect options", options, CONNECT_KEYS);
  keys("connect option `elicitation`", options.elicitation, ELICITATION_KEYS);
  for (const name of ["probeTimeout", "connectTimeout", "maxMessageBytes"] as const) optional(positiveNumber, `connect option \`${name}\``, options[name]);
  optional(nonNegativeNumber, "connect option `closeGracePeriod`", options.closeGracePeriod);
  optional(nonNegativeNumber, "connect option `stdinGracePeriod`", options.stdinGracePeriod);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new InvalidArgumentError("connect option `signal` must be an AbortSignal");
  if (options.onStderr !== undefined && typeof options.onStderr !== "function") throw new InvalidArgumentError("connect option `onStderr` must be a function");
}
