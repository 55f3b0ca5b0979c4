/**
 * A round of MRTR input that is answered later (`inputRequired: "return"`, `client.resume`),
 * through the same pipeline as a round a Handler answers: before parking, each request passes
 * what a Handler's request passes before its callback (capability, budget, the checks of its
 * kind); on resume, each answer passes what a Handler's answer passes after it. Nothing here is
 * checked any other way.
 */
import { ClientError } from "../util/errors.js";
import type { InputRequest } from "../protocol/mrtr.js";
import { setOwn } from "../util/sanitize.js";
import { excerpt } from "../util/text.js";
import { roundFailure } from "./dispatch.js";
import type { InputPipeline, InputSource, VettedInput } from "./pipeline.js";

/**
 * The verdict on each request of a round about to be parked; the first one refused stops the
 * call with the error the Handler path gives for it (nothing is parked then).
 */
export function vetRound(pipeline: InputPipeline, requests: Record<string, InputRequest>, source: InputSource): Record<string, VettedInput> {
  const verdicts: Record<string, VettedInput> = {};
  for (const [key, request] of Object.entries(requests)) {
    const vetted = pipeline.vet(request.method, request.params, source, true);
    if (vetted.kind !== "vetted") throw roundFailure(vetted, key, request, source.serverId);
    setOwn(verdicts, key, vetted);
  }
  return verdicts;
}

/**
 * The answers to a parked round as the retry carries them, each checked as a Handler's answer
 * would be. The requests are checked again here, by this client's settings (it may not be the
 * one that parked them, and a PendingInput may have been changed on its way): a request this
 * client does not declare the capability for is `"usage"`; one its checks refuse is
 * `"input_refused"`; an answer that fails them is `"input_handler"`, as a Handler's would be.
 */
export function checkResponses(
  pipeline: InputPipeline,
  requests: Readonly<Record<string, InputRequest>>,
  responses: Record<string, unknown>,
  source: InputSource,
): Record<string, unknown> {
  const checked: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    const what = `input request "${excerpt(key, 100)}" (${excerpt(request.method, 100)})`;
    const vetted = pipeline.vet(request.method, request.params, source, false);
    if (vetted.kind === "undeclared") {
      throw new ClientError("usage", `this client did not declare the capability ${what} needs, so it cannot answer it`, { serverId: source.serverId, data: request });
    }
    if (vetted.kind !== "vetted") throw roundFailure(vetted, key, request, source.serverId);
    const outcome = pipeline.checkAnswer(vetted, Object.hasOwn(responses, key) ? responses[key] : undefined, source);
    if (outcome.kind !== "answer") {
      const reason = outcome.kind === "invalid" ? outcome.message : outcome.kind;
      throw new ClientError("input_handler", `the answer given to ${what} is invalid: ${reason}`, { serverId: source.serverId });
    }
    setOwn(checked, key, outcome.result);
  }
  return checked;
}
