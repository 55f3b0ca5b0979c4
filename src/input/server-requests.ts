/**
 * Legacy server requests (2025-06-18, 2025-11-25): each runs apart from the connection's
 * reading, through the input pipeline, and is answered once. Order of refusals: an unknown
 * method or an undeclared capability (-32601), then the busy cap (-32000), then the budget and
 * the checks of its kind (in the pipeline).
 *
 * A request tied to a call in flight pauses that call's deadline while it runs (the user is
 * busy answering it), never past the call's maxTotalTimeout, and gets that call's `assigns`.
 */
import { ErrorCode } from "../util/errors.js";
import type { PendingCall } from "../rpc/pending-call.js";
import type { InboundRequest } from "../rpc/inbound-request.js";
import type { Era, ProtocolVersion } from "../protocol/versions.js";
import type { InputBudget } from "./budget.js";
import type { InputPipeline, InputOutcome } from "./pipeline.js";

const METHOD_NOT_FOUND = ErrorCode.MethodNotFound;
const BUSY = ErrorCode.ServerBusy;
const INTERNAL_ERROR = ErrorCode.InternalError;

/** What the dispatcher needs to know of the connection the request came on. */
export interface AskingServer {
  serverId: string;
  era: Era;
  version: ProtocolVersion;
  origin: string | undefined;
  callsInFlight: number;
  budget: InputBudget;
  /** The client's `assigns`, for requests tied to no call (or to a call that gave none). */
  assigns: unknown;
}

export function dispatchServerRequest(
  pipeline: InputPipeline,
  server: AskingServer,
  request: InboundRequest,
  related: PendingCall | undefined,
): void {
  if (!pipeline.declared(request.method)) {
    request.fail(METHOD_NOT_FOUND, `Method not found: ${request.method}`);
    return;
  }
  if (!server.budget.enter()) {
    request.fail(BUSY, "Client busy: too many requests in progress");
    return;
  }
  related?.deadline?.pause();
  const answering = pipeline.answer(request.method, request.params, {
    serverId: server.serverId,
    era: server.era,
    version: server.version,
    budget: server.budget,
    origin: server.origin,
    callsInFlight: server.callsInFlight,
    assigns: related?.assigns !== undefined ? related.assigns : server.assigns,
    relatedRequestId: related?.id ?? null,
    signal: request.signal,
  });
  void answering
    .then((outcome) => reply(request, outcome), () => request.fail(INTERNAL_ERROR, "Internal error"))
    .finally(() => {
      server.budget.leave();
      related?.deadline?.resume();
    });
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
