/**
 * `conduit-mcp/opentelemetry`: a `Tracing` over `@opentelemetry/api`, an optional peer
 * dependency that only this subpath imports. Spans follow the OpenTelemetry MCP semantic
 * conventions (gen-ai/mcp, Development status): a client span named `<method> <target>` (the
 * tool or prompt; the method alone when there is none, and never a resource URI, which would
 * make names of unbounded cardinality), with `mcp.method.name`, `gen_ai.tool.name`,
 * `gen_ai.prompt.name`, `mcp.resource.uri`, `mcp.protocol.version`, `network.transport`,
 * `error.type` and `rpc.response.status_code`, and `conduit.server.id` for the server's id.
 * The trace context goes into `_meta` through the propagator given, or the global one.
 *
 * The conventions name a tool result with `isError: true` a failure (`error.type` is
 * `tool_error`): the call succeeded as a request, and the tool says it failed.
 */
import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span, type TextMapPropagator, type TracerProvider } from "@opentelemetry/api";
import type { TraceCarrier, TracedRequest, TracedStep, Tracing } from "./tracing.js";

export type { TraceCarrier, TracedRequest, TracedStep, Tracing } from "./tracing.js";

export interface OpenTelemetryOptions {
  /** Where spans go; the global provider (`trace`) when not given. */
  tracerProvider?: TracerProvider | undefined;
  /**
   * What writes the trace context into `_meta`; the global propagator when not given (the
   * OpenTelemetry SDKs set a W3C one; the API alone has a propagator that writes nothing).
   */
  propagator?: TextMapPropagator | undefined;
  /** The instrumentation scope's name (default `conduit-mcp`). */
  name?: string | undefined;
}

const SCOPE_VERSION = "0.1.0";
const TEXT_SETTER = {
  set(carrier: TraceCarrier, key: string, value: string): void {
    carrier[key] = value;
  },
};

const TEXT_GETTER = {
  get(carrier: TraceCarrier, key: string): string | undefined {
    return Object.hasOwn(carrier, key) ? carrier[key] : undefined;
  },
  keys(carrier: TraceCarrier): string[] {
    return Object.keys(carrier);
  },
};

export function openTelemetry(options: OpenTelemetryOptions = {}): Tracing {
  const tracer = (options.tracerProvider ?? trace).getTracer(options.name ?? "conduit-mcp", SCOPE_VERSION);
  const propagator = options.propagator ?? propagation;
  return {
    // Async functions, not `.then` with closures: each request would make three closures, and
    // V8's await costs less (a sync throw of `send` now rejects, as the request would anyway).
    async request<T>(request: TracedRequest, send: (carrier: TraceCarrier) => Promise<T>): Promise<T> {
      const parent = context.active();
      const span = tracer.startSpan(spanName(request), { kind: SpanKind.CLIENT, attributes: requestAttributes(request) }, parent);
      const active = trace.setSpan(parent, span);
      const carrier: TraceCarrier = {};
      propagator.inject(active, carrier, TEXT_SETTER);
      let result: T;
      try {
        result = await context.with(active, send, undefined, carrier);
      } catch (error) {
        failed(span, error);
        throw error;
      }
      if (isToolError(result)) {
        span.setAttribute("error.type", "tool_error");
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
      return result;
    },
    async step<T>(step: TracedStep, run: () => Promise<T>): Promise<T> {
      const attributes: Attributes = { "conduit.server.id": step.serverId, ...step.attributes };
      // A server's request continues the trace its `_meta` names, when it names one.
      const parent = step.parent === undefined ? context.active() : propagator.extract(context.active(), step.parent, TEXT_GETTER);
      const kind = step.kind === "server" ? SpanKind.SERVER : SpanKind.INTERNAL;
      const span = tracer.startSpan(step.name, { kind, attributes }, parent);
      let result: T;
      try {
        result = await context.with(trace.setSpan(parent, span), run);
      } catch (error) {
        failed(span, error);
        throw error;
      }
      span.end();
      return result;
    },
  };
}

function spanName(request: TracedRequest): string {
  const named = request.method === "tools/call" || request.method === "prompts/get";
  return named && request.target !== undefined ? `${request.method} ${request.target}` : request.method;
}

function requestAttributes(request: TracedRequest): Attributes {
  const attributes: Attributes = {
    "mcp.method.name": request.method,
    "mcp.protocol.version": request.protocolVersion,
    "conduit.server.id": request.serverId,
  };
  const transport = request.transport === "stdio" ? "pipe" : request.transport === "channel" ? undefined : "tcp";
  if (transport !== undefined) attributes["network.transport"] = transport;
  if (request.method === "tools/call" && request.target !== undefined) {
    attributes["gen_ai.tool.name"] = request.target;
    attributes["gen_ai.operation.name"] = "execute_tool";
  }
  if (request.method === "prompts/get" && request.target !== undefined) attributes["gen_ai.prompt.name"] = request.target;
  if (request.method.startsWith("tasks/") && request.target !== undefined) attributes["conduit.task.id"] = request.target;
  if (request.resourceUri !== undefined) attributes["mcp.resource.uri"] = request.resourceUri;
  return attributes;
}

function failed(span: Span, error: unknown): void {
  // ClientError is read by its shape: this subpath is bundled apart from the root entry.
  const kind = typeof error === "object" && error !== null ? (error as { kind?: unknown }).kind : undefined;
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  const rpc = kind === "rpc" && typeof code === "number";
  span.setAttribute("error.type", rpc ? String(code) : typeof kind === "string" ? kind : "_OTHER");
  if (rpc) span.setAttribute("rpc.response.status_code", String(code));
  if (typeof kind === "string") span.setAttribute("conduit.error.kind", kind);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
  span.end();
}

function isToolError(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as { isError?: unknown }).isError === true;
}
