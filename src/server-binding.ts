/**
 * What binds one connection to its client: the hooks the connection calls, with that server's
 * own input budget and log rate. One object with methods per connection, rather than a set of
 * closures, since a host may hold hundreds of idle connections. What it needs to know of the
 * connection (its era, version, calls in flight) comes with each call.
 */
import { InputBudget } from "./input/budget.js";
import type { NotificationContext } from "./input/handler.js";
import { answerInputRequests, dispatchServerRequest } from "./input/dispatch.js";
import { LogGate, type NotificationSource } from "./input/notifications.js";
import type { InputPipeline, InputSource, VettedInput } from "./input/pipeline.js";
import { checkResponses, vetRound } from "./input/parking.js";
import type { ConnectionFacts, ConnectionHooks } from "./protocol/era-codec.js";
import type { InputRequest } from "./protocol/mrtr.js";
import type { InboundRequest } from "./rpc/inbound-request.js";
import type { RelatedCall } from "./rpc/pending-call.js";
import type { RequestId } from "./util/json.js";
import type { RateLimit } from "./util/token-bucket.js";
import type { Tracing } from "./tracing/tracing.js";
import type { Awaitable } from "./util/awaitable.js";

/** The client's side, made once per client. */
export interface ClientSide {
  readonly name: string;
  readonly assigns: unknown;
  readonly pipeline: InputPipeline;
  readonly inputRateLimit: RateLimit;
  readonly logRateLimit: RateLimit;
  readonly maxServerRequests: number;
  /** The host's tracing: a server's request answered is a span of its own. */
  readonly tracing: Tracing | undefined;
  deliver(method: string, params: Record<string, unknown>, ctx: NotificationContext, from: NotificationSource): void;
  deliverLog(gate: LogGate, params: Record<string, unknown>, ctx: NotificationContext, from: NotificationSource): void;
}

/** What a server handle reads of its binding: the counters of `stats()`, and the origin URLs are judged by. */
export interface InputCounters {
  readonly origin: string | undefined;
  readonly logsDropped: number;
  readonly notificationsDropped: number;
  readonly inputsOverBudget: number;
  readonly busyRefusals: number;
  readonly handlerOverruns: number;
}

/** What a server handle asks of its binding for input answered later (`inputRequired: "return"`). */
export interface InputParking {
  vetRound(requests: Record<string, InputRequest>, from: ConnectionFacts): Record<string, VettedInput>;
  checkResponses(requests: Readonly<Record<string, InputRequest>>, responses: Record<string, unknown>, from: ConnectionFacts): Record<string, unknown>;
}

export class ServerBinding implements ConnectionHooks, InputCounters, InputParking {
  readonly budget: InputBudget;
  readonly logs: LogGate;
  /** This server in the client's notification queue: it counts what the queue dropped of it. */
  readonly queued: NotificationSource = { dropped: 0 };
  /** Made with the first notification (nothing in it changes once negotiated), frozen as hooks share it. */
  private notificationContext: NotificationContext | undefined;

  constructor(
    private readonly client: ClientSide,
    readonly serverId: string,
    /** The server's origin, for URL elicitation. */
    readonly origin: string | undefined,
  ) {
    this.budget = new InputBudget(client.inputRateLimit, client.maxServerRequests);
    this.logs = new LogGate(client.logRateLimit);
  }

  get logsDropped(): number {
    return this.logs.dropped;
  }

  get notificationsDropped(): number {
    return this.queued.dropped;
  }

  get inputsOverBudget(): number {
    return this.budget.refused;
  }

  get busyRefusals(): number {
    return this.budget.busyRefusals;
  }

  get handlerOverruns(): number {
    return this.budget.overruns;
  }

  serverRequest(request: InboundRequest, related: RelatedCall | undefined, from: ConnectionFacts): void {
    const source = this.source(from, from.callsInFlight, related?.assigns, related?.id ?? null, request.signal);
    dispatchServerRequest(this.client.pipeline, request, source, related, this.client.tracing);
  }

  answerInputs(requests: Record<string, InputRequest>, call: { assigns: unknown; signal: AbortSignal | undefined }, from: ConnectionFacts): Awaitable<Record<string, unknown>> {
    // The call that carries the input is in flight by definition.
    return answerInputRequests(this.client.pipeline, requests, this.source(from, 1, call.assigns, null, call.signal), this.client.tracing);
  }

  /** The checks before the Handler on a round to be parked (`inputRequired: "return"`). */
  vetRound(requests: Record<string, InputRequest>, from: ConnectionFacts): Record<string, VettedInput> {
    return vetRound(this.client.pipeline, requests, this.source(from, 1, undefined, null, undefined));
  }

  /** The checks after the Handler on the answers given to a parked round (`client.resume`). */
  checkResponses(requests: Readonly<Record<string, InputRequest>>, responses: Record<string, unknown>, from: ConnectionFacts): Record<string, unknown> {
    return checkResponses(this.client.pipeline, requests, responses, this.source(from, 1, undefined, null, undefined));
  }

  /** Who asks: this server, within a call that may give its own `assigns` (else the client's). */
  private source(from: ConnectionFacts, callsInFlight: number, assigns: unknown, relatedRequestId: RequestId | null, signal: AbortSignal | undefined): InputSource {
    return {
      serverId: this.serverId,
      era: from.era,
      version: from.version,
      budget: this.budget,
      origin: this.origin,
      callsInFlight,
      assigns: assigns !== undefined ? assigns : this.client.assigns,
      relatedRequestId,
      signal,
    };
  }

  notification(method: string, params: Record<string, unknown>, from: ConnectionFacts): void {
    const ctx = (this.notificationContext ??= Object.freeze({ client: this.client.name, serverId: this.serverId, era: from.era }));
    if (method === "notifications/message") this.client.deliverLog(this.logs, params, ctx, this.queued);
    else this.client.deliver(method, params, ctx, this.queued);
  }
}
