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
import { ClientError } from "../util/errors.js";
import { setOwn } from "../util/sanitize.js";
import type { InputPipeline, InputSource } from "./pipeline.js";

/** Answers one round of `requests`, asked by `source` within the call that carries them. */
export async function answerInputRequests(
  pipeline: InputPipeline,
  requests: Record<string, InputRequest>,
  source: InputSource,
): Promise<Record<string, unknown>> {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    const outcome = await pipeline.answer(request.method, request.params, source);
    const what = `input request "${key}" (${request.method})`;
    switch (outcome.kind) {
      case "answer":
        setOwn(responses, key, outcome.result);
        break;
      case "undeclared":
        throw new ClientError("protocol", `the server sent ${what}, for a capability this client did not declare`, { serverId: source.serverId, data: request });
      case "refused":
        throw new ClientError("input_refused", `${what} was refused: ${outcome.message}`, { serverId: source.serverId, code: outcome.code, data: request });
      case "handler":
        throw new ClientError("input_handler", `the handler failed on ${what}: ${outcome.message}`, {
          serverId: source.serverId,
          code: outcome.code,
          data: outcome.data,
          cause: outcome.cause,
        });
      case "invalid":
        throw new ClientError("input_handler", `the handler's answer to ${what} is invalid: ${outcome.message}`, { serverId: source.serverId });
      case "aborted":
        throw new ClientError("cancelled", `the call was cancelled while answering ${what}`, { serverId: source.serverId, cause: outcome.reason });
    }
  }
  return responses;
}
