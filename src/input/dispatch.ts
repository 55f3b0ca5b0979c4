/**
 * The two ways a server's input request reaches the pipeline, one per era.
 *
 * Legacy server requests: each runs apart from the connection's reading, through the input
 * pipeline, and is answered once. Order of refusals: an unknown method or an undeclared
 * capability (-32601), then the busy cap (-32000, counted, the 1st, 10th, 100th, … logged), then
 * the budget and the checks of its kind (in the pipeline). A slot of the cap is held until the
 * callback settles, even when the answer (a timeout) went out before. A request tied to a call in
 * flight pauses that call's deadline while it runs (the user is busy answering it), never past
 * the call's maxTotalTimeout, and gets that call's `assigns`.
 *
 * Modern input requests (MRTR): each one of a round goes through the same pipeline, one at a
 * time in the server's order, in the calling flow. What would have been an error response in
 * the legacy era stops the call instead: an undeclared capability is `"protocol"` (the server
 * broke the rules); a refusal of the budget or a check `"input_refused"`, `code` being what
 * legacy would send; the callback's throw or an invalid answer `"input_handler"` (the answer
 * never reaches the server); the call's abort `"cancelled"`. An elicitation decline or cancel is
 * an answer, and is sent back.
 */
import { ErrorCode, ClientError } from "../util/errors.js";
import type { RelatedCall } from "../rpc/pending-call.js";
import type { InboundRequest } from "../rpc/inbound-request.js";
import type { InputPipeline, InputOutcome, InputSource } from "./pipeline.js";
import type { InputRequest } from "../protocol/mrtr.js";
import { setOwn } from "../util/sanitize.js";
import { excerpt } from "../util/text.js";
import { carrierOf, tracedStep, type Tracing } from "../tracing/tracing.js";
import { type Awaitable, isThenable } from "../util/awaitable.js";

const METHOD_NOT_FOUND = ErrorCode.MethodNotFound;
const BUSY = ErrorCode.ServerBusy;
const INTERNAL_ERROR = ErrorCode.InternalError;

/**
 * Answers `request`, asked by `source`; `related` is the call it belongs to, whose deadline
 * pauses meanwhile. The capability is checked here as well as in the pipeline: its -32601
 * comes before the busy cap.
 */
export function dispatchServerRequest(
  pipeline: InputPipeline,
  request: InboundRequest,
  source: InputSource,
  related: RelatedCall | undefined,
  tracing?: Tracing,
): void {
  if (!pipeline.declared(request.method, source.version)) {
    request.fail(METHOD_NOT_FOUND, `Method not found: ${excerpt(request.method, 100)}`);
    return;
  }
  const budget = source.budget;
  if (!budget.enter()) {
    if (budget.worthLogging()) {
      pipeline.logger.warn(`server "${source.serverId}" sent more than ${budget.active} requests at once; refused as busy (${budget.busyRefusals} so far, counted in stats().busyRefusals)`);
    }
    request.fail(BUSY, "Client busy: too many requests in progress");
    return;
  }
  related?.pause();
  void answered(pipeline, request, source, tracing)
    .then(
      (outcome) => {
        reply(request, outcome);
        related?.resume();
        return "running" in outcome ? outcome.running : undefined;
      },
      () => {
        request.fail(INTERNAL_ERROR, "Internal error");
        related?.resume();
      },
    )
    .finally(() => budget.leave());
}

/**
 * The pipeline's answer, under a server span named after the method when the host traces: what
 * the Handler does nests under it, and a trace context the server sent is continued.
 */
function answered(pipeline: InputPipeline, request: InboundRequest, source: InputSource, tracing: Tracing | undefined): Promise<InputOutcome> {
  if (tracing === undefined) return Promise.resolve(pipeline.answer(request.method, request.params, source));
  const attributes = { "mcp.method.name": request.method, "mcp.protocol.version": source.version };
  // A request answered with an error is a failed span, as in the modern era: the outcome rides
  // out of the span in a throw, and is taken back here.
  const run = async (): Promise<InputOutcome> => {
    const outcome = await pipeline.answer(request.method, request.params, source);
    if (outcome.kind === "answer" || outcome.kind === "aborted") return outcome;
    throw new AnsweredWithError(outcome);
  };
  const step = { name: request.method, serverId: source.serverId, kind: "server" as const, attributes, parent: carrierOf(request.params) };
  return tracedStep(tracing, step, run).catch((error: unknown) => {
    if (error instanceof AnsweredWithError) return error.outcome;
    throw error;
  });
}

/** A server's request the client answers with an error, carried through its span as a failure (`kind` is the span's `error.type`). */
class AnsweredWithError extends Error {
  readonly kind: string;
  constructor(readonly outcome: Exclude<InputOutcome, { kind: "answer" | "aborted" }>) {
    super(outcome.message);
    this.kind = outcome.kind;
  }
}

function reply(request: InboundRequest, outcome: InputOutcome): void {
  switch (outcome.kind) {
    case "answer":
      return request.respond(outcome.result);
    case "undeclared":
      return request.fail(METHOD_NOT_FOUND, outcome.message);
    case "refused":
      return request.fail(outcome.code, outcome.message);
    case "handler":
      return request.fail(outcome.code, outcome.message, outcome.data);
    case "invalid":
      return request.fail(INTERNAL_ERROR, "Internal error: the client produced an invalid answer");
    case "aborted":
      // Withdrawn by the server (or the connection ended): no response may be sent.
      return;
  }
}

/**
 * Answers one round of `requests`, asked by `source` within the call that carries them. When the
 * host traces, each is a span of its own (named after its method) under the round's. A round
 * the Handler answers at once is answered here in one turn, as a value; from the first answer
 * that is a promise on, the rest waits its turn.
 */
export function answerInputRequests(
  pipeline: InputPipeline,
  requests: Record<string, InputRequest>,
  source: InputSource,
  tracing?: Tracing,
): Awaitable<Record<string, unknown>> {
  if (tracing !== undefined) return answerTraced(pipeline, requests, source, tracing);
  const responses: Record<string, unknown> = {};
  // The keys, each request read by its key: no [key, request] pair made per request.
  const keys = Object.keys(requests);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const request = requests[key]!;
    const outcome = pipeline.answer(request.method, request.params, source);
    if (isThenable(outcome)) return answerLater(pipeline, requests, keys, i, outcome, responses, source);
    setOwn(responses, key, answerOf(outcome, key, request, source.serverId));
  }
  return responses;
}

/** The rest of a round, from key `from`, whose outcome is `pending`. */
async function answerLater(
  pipeline: InputPipeline,
  requests: Record<string, InputRequest>,
  keys: string[],
  from: number,
  pending: Promise<InputOutcome>,
  responses: Record<string, unknown>,
  source: InputSource,
): Promise<Record<string, unknown>> {
  for (let i = from; i < keys.length; i++) {
    const key = keys[i]!;
    const request = requests[key]!;
    const outcome = i === from ? await pending : await pipeline.answer(request.method, request.params, source);
    setOwn(responses, key, answerOf(outcome, key, request, source.serverId));
  }
  return responses;
}

async function answerTraced(pipeline: InputPipeline, requests: Record<string, InputRequest>, source: InputSource, tracing: Tracing): Promise<Record<string, unknown>> {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    const step = { name: inputSpanName(request.method), serverId: source.serverId, attributes: { "mcp.method.name": excerpt(request.method, 100) } };
    setOwn(responses, key, await tracedStep(tracing, step, async () => answerOf(await pipeline.answer(request.method, request.params, source), key, request, source.serverId)));
  }
  return responses;
}

/** An input request's answer, or what stops the call (thrown: inside its span, which records it). */
function answerOf(outcome: InputOutcome, key: string, request: InputRequest, serverId: string): unknown {
  if (outcome.kind === "answer") return outcome.result;
  throw roundFailure(outcome, key, request, serverId);
}

/** The methods a round's input may name: a span is named after one of them, never after a server's own string. */
const INPUT_METHODS: ReadonlySet<string> = new Set(["sampling/createMessage", "elicitation/create", "roots/list"]);

function inputSpanName(method: string): string {
  return INPUT_METHODS.has(method) ? method : "mcp.input_request";
}

/** What stops a modern call when one input request of its round was not answered (see the top). */
export function roundFailure(outcome: Exclude<InputOutcome, { kind: "answer" }>, key: string, request: InputRequest, serverId: string): ClientError {
  const what = `input request "${excerpt(key, 100)}" (${excerpt(request.method, 100)})`;
  switch (outcome.kind) {
    case "undeclared":
      return new ClientError("protocol", `the server sent ${what}, for a capability this client did not declare`, { serverId, data: request });
    case "refused":
      return new ClientError("input_refused", `${what} was refused: ${outcome.message}`, { serverId, code: outcome.code, data: request });
    case "handler":
      return new ClientError("input_handler", `the handler failed on ${what}: ${outcome.message}`, { serverId, code: outcome.code, data: outcome.data, cause: outcome.cause });
    case "invalid":
      return new ClientError("input_handler", `the handler's answer to ${what} is invalid: ${outcome.message}`, { serverId });
    case "aborted":
      return new ClientError("cancelled", `the call was cancelled while answering ${what}`, { serverId, cause: outcome.reason });
  }
}
