/**
 * The seam through which a host traces what the client does. The core knows nothing of any
 * tracing library: a `Tracing` is handed in as the Client's `tracing` option
 * (`conduit-mcp/opentelemetry` makes one over `@opentelemetry/api`), and without one no span
 * is made and nothing is added to a request.
 *
 * A request's span covers the whole call as the caller sees it, every MRTR round included; the
 * trace context the span hands back is written into the request's `params._meta` (W3C
 * `traceparent`, `tracestate`, `baggage`, as SEP-414 places them), so that a server's own spans
 * join the same trace over stdio and HTTP alike.
 */
import type { TransportKind } from "../transport/transport.js";
import type { ProtocolVersion } from "../protocol/versions.js";
import { copyOwn } from "../util/sanitize.js";

/** What a request span is about (the OpenTelemetry MCP conventions' attributes come from it). */
export interface TracedRequest {
  readonly method: string;
  readonly serverId: string;
  readonly protocolVersion: ProtocolVersion;
  readonly transport: TransportKind;
  /** The tool or prompt named (`tools/call`, `prompts/get`), or the task (`tasks/*`). */
  readonly target?: string | undefined;
  /** The resource read or subscribed to. */
  readonly resourceUri?: string | undefined;
}

/**
 * A step of the client's work: inside a request (an MRTR round answered, an OAuth step), or a
 * server's own request answered by the Handler (`kind: "server"`, named after its method).
 */
export interface TracedStep {
  readonly name: string;
  readonly serverId: string;
  readonly attributes?: Readonly<Record<string, string | number | boolean>> | undefined;
  /** `"server"`: the client answers a request the server sent (default `"internal"`). */
  readonly kind?: "internal" | "server" | undefined;
  /** The trace context the server's request carried in its `_meta`, to continue its trace. */
  readonly parent?: TraceCarrier | undefined;
}

/** The trace context a request carries in `_meta`: W3C keys, text values. */
export type TraceCarrier = Record<string, string>;

export interface Tracing {
  /**
   * Runs `send` under a client span for `request`: `send` is given the carrier to put in
   * `_meta`, and the span ends when its promise settles (with the error, when it rejects).
   * Whatever the callbacks inside `send` trace is a child of the span where the tracing
   * library carries an active context across awaits.
   */
  request<T>(request: TracedRequest, send: (carrier: TraceCarrier) => Promise<T>): Promise<T>;
  /**
   * Runs `run` under a span of its own: a child of the active one, or of `step.parent` when it
   * is given (a server's request continuing its trace); `step.kind` says which kind of span.
   */
  step<T>(step: TracedStep, run: () => Promise<T>): Promise<T>;
}

/** The W3C trace context keys `_meta` carries, which a request's span sets over a caller's. */
export const TRACE_KEYS: readonly string[] = ["traceparent", "tracestate", "baggage"];

/** What `tracing` must be, checked where the option is read. */
export function isTracing(value: unknown): value is Tracing {
  return typeof value === "object" && value !== null &&
    typeof (value as Tracing).request === "function" && typeof (value as Tracing).step === "function";
}

/** The target of a request's span name, from its params. */
export function tracedTarget(method: string, params: Record<string, unknown> | undefined): Pick<TracedRequest, "target" | "resourceUri"> {
  switch (method) {
    case "tools/call":
    case "prompts/get":
      return typeof params?.name === "string" ? { target: params.name } : {};
    case "resources/read":
    case "resources/subscribe":
    case "resources/unsubscribe":
      return typeof params?.uri === "string" ? { resourceUri: params.uri } : {};
    case "tasks/get":
    case "tasks/update":
    case "tasks/cancel":
    case "tasks/result":
      return typeof params?.taskId === "string" ? { target: params.taskId } : {};
    default:
      return {};
  }
}

/**
 * The trace context of a server's `params._meta`, when it sent one (text values only): its
 * `traceparent` and `tracestate`. Never its `baggage`: key/values a server chose would ride into
 * whatever the Handler calls next (a model's API, another server).
 */
export function carrierOf(params: Record<string, unknown> | undefined): TraceCarrier | undefined {
  const meta = params !== undefined && Object.hasOwn(params, "_meta") ? params._meta : undefined;
  if (typeof meta !== "object" || meta === null) return undefined;
  let carrier: TraceCarrier | undefined;
  for (const key of SERVER_TRACE_KEYS) {
    const value = Object.hasOwn(meta, key) ? (meta as Record<string, unknown>)[key] : undefined;
    // Bounded: a header's worth, never a megabyte a server chose to put there.
    if (typeof value === "string" && value.length <= MAX_CARRIED_CHARS) (carrier ??= {})[key] = value;
  }
  return carrier;
}

const MAX_CARRIED_CHARS = 8192;
const SERVER_TRACE_KEYS: readonly string[] = ["traceparent", "tracestate"];

/**
 * `send(params)` under the request span of `method` on a connection whose facts are given: the
 * span's target read from the params, and the span's trace context put in their `_meta`.
 */
export function traceRequest<T>(
  tracing: Tracing,
  facts: Pick<TracedRequest, "serverId" | "protocolVersion" | "transport">,
  method: string,
  params: Record<string, unknown> | undefined,
  send: (params: Record<string, unknown> | undefined) => Promise<T>,
): Promise<T> {
  const request: TracedRequest = { method, serverId: facts.serverId, protocolVersion: facts.protocolVersion, transport: facts.transport, ...tracedTarget(method, params) };
  return tracedRequest(tracing, request, (carrier) => send(withCarrier(params, carrier)));
}

/**
 * `tracing.request`, held to what the client needs whatever the host's `Tracing` does (it is the
 * host's code): `send` runs once, with the host's carrier, or with none when the host's code
 * failed or finished without calling it; the result is `send`'s own, never what the host's
 * promise settles with, and it does not wait for the host's promise once `send` has run.
 */
export function tracedRequest<T>(tracing: Tracing, request: TracedRequest, send: (carrier: TraceCarrier) => Promise<T>): Promise<T> {
  return heldTo((once) => tracing.request(request, once), (carrier: TraceCarrier) => send(isCarrier(carrier) ? carrier : {}), {});
}

/** `tracing.step`, held as `tracedRequest` holds a request: `run` runs once, and its outcome is the one given. */
export function tracedStep<T>(tracing: Tracing, step: TracedStep, run: () => Promise<T>): Promise<T> {
  return heldTo((once) => tracing.step(step, () => once(undefined)), () => run(), undefined);
}

function heldTo<T, A>(host: (once: (arg: A) => Promise<T>) => unknown, run: (arg: A) => Promise<T>, fallback: A): Promise<T> {
  let ran: Promise<T> | undefined;
  let started: (value: { ran: Promise<T> }) => void = () => {};
  const start = new Promise<{ ran: Promise<T> }>((resolve) => (started = resolve));
  const once = (arg: A): Promise<T> => {
    if (ran === undefined) {
      try {
        ran = run(arg);
      } catch (error) {
        ran = Promise.reject(error);
      }
      started({ ran });
    }
    return ran;
  };
  let hosted: unknown;
  try {
    hosted = host(once);
  } catch {
    hosted = undefined;
  }
  const after = Promise.resolve(hosted).then(
    () => once(fallback),
    () => once(fallback),
  );
  return Promise.race([start.then((value) => value.ran), after]);
}

function isCarrier(value: unknown): value is TraceCarrier {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `params` with the carrier's keys in `_meta` (last), over any the caller gave. Made per traced
 * request, so it copies by hand: in V8 a field written after a spread (`{ ...params, _meta }`),
 * or two spreads, takes a slow path that cost more than the rest of a span's own work here.
 */
export function withCarrier(params: Record<string, unknown> | undefined, carrier: TraceCarrier): Record<string, unknown> | undefined {
  if (!hasOwnKey(carrier)) return params;
  const given = params?._meta;
  const meta = typeof given === "object" && given !== null && !Array.isArray(given) ? copyOwn(given, {}) : {};
  const result = copyOwn(params, {}, "_meta");
  result._meta = copyOwn(carrier, meta);
  return result;
}

function hasOwnKey(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}
