/**
 * Multi Round-Trip Requests (2026-07-28 basic/patterns/mrtr): a call whose result is
 * `input_required` is answered and sent again, as a new request with the original params,
 * `inputResponses` keyed exactly as the latest round's `inputRequests`, and `requestState`
 * echoed unchanged (absent when the server sent none). Nothing of a round reaches any other
 * request.
 *
 * Time: each leg (one request and its response) has the call's `timeout`; the Handler's time
 * between legs does not count against it; `maxTotalTimeout` bounds the whole flow, Handler time
 * included. An abort at any point ends the flow and aborts the Handler's signal.
 *
 * Parked: with `park`, a round that asks the person (it has `inputRequests`) is not answered
 * here; the flow ends with a `ParkedRound`, and a later flow (`resumed`) sends its answers,
 * perhaps from another process. A round with state alone is still waited out here.
 *
 * `resultType` (2026-07-28 basic/index): missing means "complete" (older servers never send
 * it); "input_required" is allowed only on calls, "task" (the tasks extension) only on
 * `tools/call`, whose caller reads it; any other value is one this client does not know, which
 * the spec says to treat as invalid.
 */
import { expectObject, protocolError } from "../util/assert.js";
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import { type Awaitable, isThenable } from "../util/awaitable.js";
import { excerpt, quote } from "../util/text.js";
import { SpanBound, delay, now } from "../util/time.js";
import { isCallMethod } from "./methods.js";

export interface InputRequest {
  method: string;
  params?: Record<string, unknown> | undefined;
}

/**
 * Answers one round's input requests, in the server's order; throws (or rejects with) a
 * ClientError to stop. A round the Handler answered at once comes back as a value.
 */
export type AnswerInputs = (
  requests: Record<string, InputRequest>,
  call: { assigns: unknown; signal: AbortSignal | undefined },
) => Awaitable<Record<string, unknown>>;

export interface FlowOptions {
  method: string;
  maxRounds: number;
  maxTotalTimeout?: number | undefined;
  signal?: AbortSignal | undefined;
  assigns: unknown;
  /** The connection's life: the flow stops with `"closed"` (or the transport's error) when it ends. */
  lifetime?: (() => AbortSignal) | undefined;
  /** End with a `ParkedRound` when the server asks for input, rather than answer it here. */
  park?: boolean | undefined;
  /** The first leg answers a round parked before: these answers, then rounds from `round` on. */
  resumed?: ResumedRound | undefined;
}

/** The answers to a parked round, as its retry carries them. */
export interface ResumedRound {
  inputResponses: Record<string, unknown>;
  requestState: string | undefined;
  /** Rounds answered before, this one included. */
  round: number;
}

/** A round the flow did not answer: what a later flow needs to answer it. */
export class ParkedRound {
  constructor(
    readonly inputRequests: Record<string, InputRequest>,
    readonly requestState: string | undefined,
    /** 1 for the call's first round. */
    readonly round: number,
  ) {}
}

/**
 * What a later leg adds to the call's params: the answers, keyed as the round asked, and the
 * echoed state (JSON leaves out what is undefined: no state when none was given).
 */
export interface RoundAnswers {
  inputResponses: Record<string, unknown> | undefined;
  requestState: string | undefined;
}

/**
 * One leg: the request with these params, and a later leg's `answers` beside them (the leg adds
 * them as it makes the params it sends, which it copies anyway: one copy per leg, not two);
 * under this signal; `maxTotalTimeout` bounds the first leg alone (the flow bounds the later ones).
 */
export type Leg = (
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
  maxTotalTimeout: number | undefined,
  answers?: RoundAnswers,
) => Promise<unknown>;

const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 1000;

/**
 * Most calls complete at once: the first leg runs on the caller's own signal and total bound,
 * and the machinery of a flow (its abort controller and timer) is made only when the server
 * asks for input.
 */
export async function runWithInput(
  params: Record<string, unknown>,
  options: FlowOptions,
  leg: Leg,
  answer: AnswerInputs,
): Promise<Record<string, unknown> | ParkedRound> {
  // The start matters only to a total bound: no clock read for a call that has none.
  const started = options.maxTotalTimeout === undefined ? 0 : now();
  const resumed = options.resumed;
  const answers = resumed === undefined ? undefined : { inputResponses: resumed.inputResponses, requestState: resumed.requestState };
  const first = classifyResult(options.method, await leg(params, options.signal, options.maxTotalTimeout, answers));
  if (first.kind === "complete") return first.result;
  // Awaited, not returned: an async function that returns a promise adopts it in two more turns.
  return await continueWithInput(params, first.result, options, leg, answer, started);
}

/**
 * The flow after a first leg (started at `started`) answered `input_required` with `asked`: one
 * async function for every round, whose only waits are the Handler's answer when it is a
 * promise, and each leg.
 */
export async function continueWithInput(
  params: Record<string, unknown>,
  asked: Record<string, unknown>,
  options: FlowOptions,
  leg: Leg,
  answer: AnswerInputs,
  started: number,
): Promise<Record<string, unknown> | ParkedRound> {
  const total = options.maxTotalTimeout;
  const lifetime = options.lifetime?.();
  // With no total bound and one signal that can end the flow (the connection's life, most
  // often), that signal is the flow's own: no span (an abort controller, a listener on each
  // signal) per call. Both signals, or a total bound, need one.
  const span =
    total === undefined && (options.signal === undefined || lifetime === undefined)
      ? undefined
      : new SpanBound([options.signal, lifetime], total === undefined ? undefined : Math.max(0, started + total - now()), () => new Error(`maxTotalTimeout of ${total} ms`));
  const signal = span === undefined ? (options.signal ?? lifetime) : span.signal;
  // The end of the connection rejects its calls in flight with the error the flow stops with, so
  // a leg that would listen on the connection's life alone listens on nothing (no listener per leg).
  const legSignal = signal === lifetime ? undefined : signal;
  let result = asked;
  let pause = FIRST_PAUSE_MS;
  try {
    for (let round = options.resumed?.round ?? 0; ; round++) {
      const input = checkInputRequired(result, options.method);
      if (round >= options.maxRounds) {
        throw protocolError(`${options.method} still asked for input after ${options.maxRounds} rounds`, result);
      }
      let inputResponses: Record<string, unknown> | undefined;
      // An empty round asks the person nothing: it is answered here, as the Handler path does.
      if (input.inputRequests !== undefined && options.park === true && Object.keys(input.inputRequests).length > 0) {
        return new ParkedRound(input.inputRequests, input.requestState, round + 1);
      }
      if (input.inputRequests === undefined) {
        // Only state: the server sheds load and asks to come back; wait a little, more each time.
        await delay(pause, signal);
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
      } else {
        const answered = answer(input.inputRequests, { assigns: options.assigns, signal });
        inputResponses = isThenable(answered) ? await answered : answered;
        if (signal?.aborted === true) throw new ClientError("cancelled", `${options.method} was cancelled`, { cause: signal.reason });
      }
      let raw: unknown;
      try {
        raw = await leg(params, legSignal, undefined, { inputResponses, requestState: input.requestState });
      } catch (error) {
        unsendableAnswer(error);
      }
      const classified = classifyResult(options.method, raw);
      if (classified.kind === "complete") return classified.result;
      result = classified.result;
    }
  } catch (error) {
    if (span?.timedOut === true) throw new ClientError("timeout", `${options.method} timed out after ${total} ms (maxTotalTimeout)`, { cause: error });
    const reason: unknown = signal?.reason;
    // The connection ended under the flow: its own error (closed, or what broke it).
    if (lifetime?.aborted === true && reason === lifetime.reason && reason instanceof ClientError) throw reason;
    if (signal?.aborted === true && !(error instanceof ClientError && error.kind === "cancelled")) {
      throw new ClientError("cancelled", `${options.method} was cancelled`, { cause: reason });
    }
    throw error;
  } finally {
    span?.dispose();
  }
}

interface InputRequired {
  inputRequests: Record<string, InputRequest> | undefined;
  requestState: string | undefined;
}

function checkInputRequired(result: Record<string, unknown>, method: string): InputRequired {
  const state = result.requestState;
  if (state !== undefined && typeof state !== "string") throw protocolError(`the requestState of ${method} must be a string`, result);
  const requests = result.inputRequests;
  if (requests === undefined) {
    if (state === undefined) throw protocolError(`${method} asked for input with neither inputRequests nor requestState`, result);
    return { inputRequests: undefined, requestState: state };
  }
  const map = expectObject(requests, `the inputRequests of ${method}`, result);
  for (const key of Object.keys(map)) {
    const entry = map[key];
    if (!isObject(entry) || typeof entry.method !== "string" || (entry.params !== undefined && !isObject(entry.params))) {
      throw protocolError(`input request "${excerpt(key, 100)}" of ${method} is malformed`, result);
    }
  }
  return { inputRequests: map as Record<string, InputRequest>, requestState: state };
}

/**
 * The params of a later leg differ from the first's only by the Handler's answers: when they
 * cannot be serialised (a BigInt in a sampling result), the Handler gave an invalid answer.
 */
function unsendableAnswer(error: unknown): never {
  if (!(error instanceof InvalidArgumentError)) throw error;
  throw new ClientError("input_handler", `the handler's answer could not be sent: ${error.message}`, { cause: error });
}

export type Classified = { kind: "complete"; result: Record<string, unknown> } | { kind: "input_required"; result: Record<string, unknown> };

export function classifyResult(method: string, raw: unknown): Classified {
  if (!isObject(raw)) throw protocolError(`the result of ${method} must be an object`, raw);
  const type = raw.resultType;
  if (type === undefined || type === "complete") return { kind: "complete", result: raw };
  if (type === "input_required") {
    if (!isCallMethod(method)) throw protocolError(`the server asked for input in reply to ${method}, which may not`, raw);
    return { kind: "input_required", result: raw };
  }
  // The tasks extension: a task only for what it supports (tools/call), complete for the flow.
  if (type === "task") {
    if (method !== "tools/call") throw protocolError(`the server answered ${method} with a task, which only tools/call may`, raw);
    return { kind: "complete", result: raw };
  }
  throw protocolError(`the result of ${method} has a resultType this client does not know: ${quote(type)}`, raw);
}
