/**
 * Modern input requests (MRTR): each one of a round goes through the same pipeline as a
 * legacy server request, one at a time in the server's order, in the calling flow. What would
 * have been an error response in the legacy era stops the call here instead:
 * - an undeclared capability: `"protocol"` (the server broke the rules);
 * - a refusal of the budget or a check: `"input_refused"`, `code` being what legacy would send;
 * - the callback's throw or an invalid answer: `"input_handler"` (the answer never reaches the
 *   server);
 * - the call's abort: `"cancelled"`.
 * An elicitation decline or cancel is an answer, and is sent back.
 */
import type { InputRequest } from "../protocol/mrtr.js";
import type { ProtocolVersion } from "../protocol/versions.js";
import { ClientError } from "../util/errors.js";
import { setOwn } from "../util/sanitize.js";
import type { InputBudget } from "./budget.js";
import type { InputPipeline } from "./pipeline.js";

export interface ModernServer {
  serverId: string;
  version: ProtocolVersion;
  origin: string | undefined;
  budget: InputBudget;
  /** The client's `assigns`, for calls that gave none. */
  assigns: unknown;
}

export async function answerInputRequests(
  pipeline: InputPipeline,
  server: ModernServer,
  requests: Record<string, InputRequest>,
  call: { assigns: unknown; signal: AbortSignal | undefined },
): Promise<Record<string, unknown>> {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    const outcome = await pipeline.answer(request.method, request.params, {
      serverId: server.serverId,
      era: "modern",
      version: server.version,
      budget: server.budget,
      origin: server.origin,
      // The call that carries the input is in flight by definition.
      callsInFlight: 1,
      assigns: call.assigns !== undefined ? call.assigns : server.assigns,
      relatedRequestId: null,
      signal: call.signal,
    });
    const what = `input request "${key}" (${request.method})`;
    switch (outcome.kind) {
      case "answer":
        setOwn(responses, key, outcome.result);
        break;
      case "undeclared":
        throw new ClientError("protocol", `the server sent ${what}, for a capability this client did not declare`, { serverId: server.serverId, data: request });
      case "refused":
        throw new ClientError("input_refused", `${what} was refused: ${outcome.message}`, { serverId: server.serverId, code: outcome.code, data: request });
      case "handler":
        throw new ClientError("input_handler", `the handler failed on ${what}: ${outcome.message}`, {
          serverId: server.serverId,
          code: outcome.code,
          data: outcome.data,
          cause: outcome.cause,
        });
      case "invalid":
        throw new ClientError("input_handler", `the handler's answer to ${what} is invalid: ${outcome.message}`, { serverId: server.serverId });
      case "aborted":
        throw new ClientError("cancelled", `the call was cancelled while answering ${what}`, { serverId: server.serverId, cause: outcome.reason });
    }
  }
  return responses;
}
