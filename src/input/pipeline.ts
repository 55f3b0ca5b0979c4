/**
 * The one pipeline every input request goes through, in both eras: a legacy server request
 * (`sampling/createMessage`, `elicitation/create`, `roots/list`) and a modern MRTR input
 * request alike. Capability → budget → checks before → the Handler's callback, supervised →
 * checks after. The caller turns the outcome into a JSON-RPC answer (legacy) or an answer in
 * the retry or a ClientError (modern); no check exists anywhere else.
 */
import { type InputFeatures, declaredModes, type Era, type ProtocolVersion } from "../protocol/versions.js";
import type { DeadlineQueue } from "../rpc/deadline.js";
import type { RequestId } from "../util/json.js";
import { ErrorCode, RpcError } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import type { InputBudget } from "./budget.js";
import { checkElicitation, checkElicitResult, type ElicitationRequest } from "./elicitation.js";
import { type Handler, formContext, inputContext, urlContext } from "./handler.js";
import type { HandlerTimeouts, SamplingOptions } from "./options.js";
import { filterRoots } from "./roots.js";
import { checkSampling, samplingAnswer, samplingResultProblem } from "./sampling.js";
import { supervise, type SignalSource, type Supervised } from "./supervisor.js";
import type { CreateMessageParams, CreateMessageResult } from "../protocol/types/index.js";
import { nextTurn } from "../util/runtime.js";
import { type Awaitable, isThenable } from "../util/awaitable.js";

export type InputMethod = "sampling/createMessage" | "elicitation/create" | "roots/list";

const BUSY = ErrorCode.ServerBusy;
const INTERNAL_ERROR = ErrorCode.InternalError;

export interface PipelineSettings {
  handler: Handler | undefined;
  clientName: string;
  features: InputFeatures;
  sampling: SamplingOptions;
  handlerTimeout: HandlerTimeouts;
  logger: Logger;
  /** The client's deadline timer, on which callbacks are timed. */
  deadlines: DeadlineQueue;
}

/** Who asks, and in what situation. */
export interface InputSource {
  serverId: string;
  era: Era;
  version: ProtocolVersion;
  budget: InputBudget;
  /** The server's origin, for URL elicitation. */
  origin: string | undefined;
  /** Calls in flight on the asking connection, for idle sampling. */
  callsInFlight: number;
  assigns: unknown;
  relatedRequestId: RequestId | null;
  /** Aborts when the server withdraws the request (legacy) or the call is abandoned (modern); none when nothing can. */
  signal: AbortSignal | undefined;
}

export type InputOutcome =
  | { kind: "answer"; result: Record<string, unknown> }
  /** The client declared no such capability. */
  | { kind: "undeclared"; message: string }
  /** The budget or a check before the callback refused. */
  | { kind: "refused"; code: number; message: string }
  /**
   * The callback threw (`RpcError`: its code; else -32603) or did not answer in time; then
   * `running` settles when it finally does.
   */
  | { kind: "handler"; code: number; message: string; data?: unknown; cause: unknown; running?: Promise<void> }
  /** The callback's answer failed the checks after it. */
  | { kind: "invalid"; message: string }
  /** The request was withdrawn while the callback ran, which `running` outlasts. */
  | { kind: "aborted"; reason: unknown; running?: Promise<void> };

/** An input request that passed the checks before the callback: what the callback is given. */
export type VettedInput =
  | { kind: "vetted"; method: "sampling/createMessage"; params: CreateMessageParams }
  | { kind: "vetted"; method: "elicitation/create"; request: ElicitationRequest }
  | { kind: "vetted"; method: "roots/list" };

export type Vetting = VettedInput | { kind: "undeclared"; message: string } | { kind: "refused"; code: number; message: string };

export class InputPipeline {
  constructor(private readonly settings: PipelineSettings) {}

  get logger(): Logger {
    return this.settings.logger;
  }

  /** Whether the client declared, in `version`, the capability `method` needs. */
  declared(method: string, version: ProtocolVersion): method is InputMethod {
    const { features } = this.settings;
    if (method === "sampling/createMessage") return features.sampling;
    if (method === "elicitation/create") return declaredModes(features, version).length > 0;
    if (method === "roots/list") return features.roots;
    return false;
  }

  /**
   * The steps before the callback: capability, then (with `budget`) the input budget, then the
   * checks of the request's kind. What passes is what the callback is given.
   */
  vet(method: string, params: Record<string, unknown> | undefined, source: InputSource, budget: boolean): Vetting {
    if (!this.declared(method, source.version)) return { kind: "undeclared", message: `the client did not declare the capability for ${method}` };
    if (budget && !source.budget.take()) {
      const code = method === "sampling/createMessage" ? this.settings.sampling.rejectionCode : BUSY;
      return { kind: "refused", code, message: `too many input requests from server "${source.serverId}"` };
    }
    const given = params ?? {};
    if (method === "sampling/createMessage") {
      const checked = checkSampling(given, { options: this.settings.sampling, callsInFlight: source.callsInFlight });
      return checked.ok ? { kind: "vetted", method, params: checked.value } : { kind: "refused", ...checked.refusal };
    }
    if (method === "elicitation/create") {
      const checked = checkElicitation(given, declaredModes(this.settings.features, source.version), source.version, source.origin);
      return checked.ok ? { kind: "vetted", method, request: checked.value } : { kind: "refused", ...checked.refusal };
    }
    return { kind: "vetted", method: "roots/list" };
  }

  /**
   * The outcome, as a value when the callback answered at once (or none ran): no async layer, so
   * an MRTR round answered by a policy costs no promise of its own.
   */
  answer(method: string, params: Record<string, unknown> | undefined, source: InputSource): Awaitable<InputOutcome> {
    const vetted = this.vet(method, params, source, true);
    if (vetted.kind !== "vetted") return vetted;
    return this.callback(vetted, source);
  }

  /**
   * The checks after the callback, on the answer a Handler gave, or one a host gives to a parked
   * round (`client.resume`): the answer to send, or why it may not be sent.
   */
  checkAnswer(input: VettedInput, result: unknown, source: InputSource): InputOutcome {
    switch (input.method) {
      case "sampling/createMessage": {
        const problem = samplingResultProblem(result, source.version);
        if (problem !== undefined) return this.invalid(source, "sampling", problem);
        return { kind: "answer", result: samplingAnswer(result as CreateMessageResult, source.version) };
      }
      case "elicitation/create": {
        const answer = checkElicitResult(result, input.request, source.version);
        if (!answer.ok) return this.invalid(source, "elicitation", answer.reason);
        return { kind: "answer", result: answer.result };
      }
      case "roots/list": {
        const filtered = filterRoots(result);
        if (!filtered.ok) return this.invalid(source, "roots", filtered.reason);
        for (const { uri, reason } of filtered.value.dropped) {
          this.settings.logger.warn(`server "${source.serverId}": a root was not shared (${reason})`, { uri });
        }
        return { kind: "answer", result: filtered.value.result };
      }
    }
  }

  private callback(input: VettedInput, source: InputSource): Awaitable<InputOutcome> {
    const handler = this.settings.handler!;
    const client = this.settings.clientName;
    let outcome: Awaitable<InputOutcome>;
    if (input.method === "sampling/createMessage") {
      outcome = this.run(source, this.settings.handlerTimeout.default, (signals) => handler.handleSampling!(input.params, inputContext(client, source, signals)));
    } else if (input.method === "elicitation/create") {
      const request = input.request;
      outcome = this.run(source, this.settings.handlerTimeout.elicitation, (signals) =>
        request.mode === "url"
          ? handler.handleElicitation!(request.params, urlContext(client, source, signals, request.vetted))
          : handler.handleElicitation!(request.params, formContext(client, source, signals, request.fields)),
      );
    } else {
      outcome = this.run(source, this.settings.handlerTimeout.default, (signals) => handler.listRoots!(inputContext(client, source, signals)));
    }
    if (isThenable(outcome)) return outcome.then((settled) => this.checked(input, settled, source));
    return this.checked(input, outcome, source);
  }

  private checked(input: VettedInput, outcome: InputOutcome, source: InputSource): InputOutcome {
    return outcome.kind === "answer" ? this.checkAnswer(input, outcome.result, source) : outcome;
  }

  /** Calls the callback under supervision; it builds its context from the signals given. */
  private run(inputSource: InputSource, timeoutMs: number, callback: (signals: SignalSource) => unknown): Awaitable<InputOutcome> {
    const supervised = supervise(callback, timeoutMs, inputSource.signal, this.settings.deadlines);
    if (isThenable(supervised)) return supervised.then((settled) => this.outcomeOf(inputSource, settled));
    return this.outcomeOf(inputSource, supervised);
  }

  private outcomeOf(inputSource: InputSource, supervised: Supervised<unknown>): InputOutcome {
    switch (supervised.status) {
      case "ok":
        return { kind: "answer", result: supervised.value as Record<string, unknown> };
      case "aborted":
        this.watchOverrun(inputSource, supervised.running, "was withdrawn");
        return { kind: "aborted", reason: supervised.reason, running: supervised.running };
      case "timeout":
        this.watchOverrun(inputSource, supervised.running, `timed out after ${supervised.ms} ms`);
        return {
          kind: "handler",
          code: INTERNAL_ERROR,
          message: "the client did not answer in time",
          cause: new Error(`handler timed out after ${supervised.ms} ms`),
          running: supervised.running,
        };
      case "threw":
        return this.thrown(inputSource, supervised.error);
    }
  }

  /**
   * A callback still running a turn of the event loop after its request timed out or was
   * withdrawn ignored its `ctx.signal`: it is counted and logged, once.
   */
  private watchOverrun(source: InputSource, running: Promise<void>, what: string): void {
    let settled = false;
    void running.then(() => (settled = true));
    nextTurn(() => {
      if (settled) return;
      source.budget.overruns += 1;
      this.settings.logger.warn(`a handler callback for server "${source.serverId}" is still running after its request ${what}; it holds its slot until it settles`);
    });
  }

  private thrown(source: InputSource, error: unknown): InputOutcome {
    if (error instanceof RpcError) return { kind: "handler", code: error.code, message: error.message, data: error.data, cause: error };
    this.settings.logger.warn(`a handler callback for server "${source.serverId}" threw`, { error });
    return { kind: "handler", code: INTERNAL_ERROR, message: "Internal error", cause: error };
  }

  private invalid(source: InputSource, what: string, reason: string): InputOutcome {
    this.settings.logger.warn(`the handler's ${what} answer for server "${source.serverId}" is invalid: ${reason}`);
    return { kind: "invalid", message: `invalid ${what} answer: ${reason}` };
  }
}
