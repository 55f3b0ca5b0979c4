/**
 * Sampling checks around the callback, which is the user's approval point
 * (client/sampling of each version). Before: `maxTokens` is a positive integer, clamped to the
 * client's bound; `includeContext` is "none" unless the client allows context; no sampling
 * while no call is in flight (unless allowed); no runaway tool loops. After: the answer is a
 * valid CreateMessageResult for the negotiated version.
 */
import { ErrorCode } from "../util/errors.js";
import type { CreateMessageParams, CreateMessageResult } from "../protocol/types/index.js";
import { since, type ProtocolVersion } from "../protocol/versions.js";
import { isObject } from "../util/json.js";
import { withField } from "../util/sanitize.js";
import type { SamplingOptions } from "./options.js";
import { pass, refuse, type Verdict } from "../util/assert.js";

const INVALID_PARAMS = ErrorCode.InvalidParams;

export interface SamplingSituation {
  options: SamplingOptions;
  /** Calls in flight on the asking connection (legacy); a modern input always has its call. */
  callsInFlight: number;
}

export function checkSampling(params: Record<string, unknown>, situation: SamplingSituation): Verdict<CreateMessageParams> {
  const { options } = situation;
  const maxTokens = params.maxTokens;
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens <= 0) {
    return refuse(INVALID_PARAMS, "maxTokens must be a positive integer");
  }
  if (!Array.isArray(params.messages) || !params.messages.every(isObject)) return refuse(INVALID_PARAMS, "messages must be an array of messages");
  if (params.tools !== undefined || params.toolChoice !== undefined) {
    return refuse(INVALID_PARAMS, "tools in sampling need the sampling.tools capability, which this client did not declare");
  }
  if (!options.allowIdle && situation.callsInFlight === 0) {
    return refuse(options.rejectionCode, "sampling refused: no request of this client is in progress");
  }
  if (toolUseTurns(params.messages) > options.maxToolIterations) {
    return refuse(options.rejectionCode, `sampling refused: more than ${options.maxToolIterations} tool-use turns`);
  }
  const clamped = withField(params, "maxTokens", Math.min(maxTokens, options.maxTokens));
  if (!options.context && clamped.includeContext !== undefined) clamped.includeContext = "none";
  return pass(clamped as CreateMessageParams);
}

/** Assistant messages that ask for a tool: the turns of a tool loop. */
function toolUseTurns(messages: Record<string, unknown>[]): number {
  let turns = 0;
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    const content = Array.isArray(message.content) ? message.content : [message.content];
    if (content.some((block) => isObject(block) && block.type === "tool_use")) turns += 1;
  }
  return turns;
}

const SINGLE_BLOCKS = new Set(["text", "image", "audio"]);
const TOOL_BLOCKS = new Set(["tool_use", "tool_result"]);

/** Why `result` is not a CreateMessageResult of `version`, or undefined when it is. */
export function samplingResultProblem(result: unknown, version: ProtocolVersion): string | undefined {
  if (!isObject(result)) return "the answer must be an object";
  if (result.role !== "assistant" && result.role !== "user") return 'role must be "assistant" or "user"';
  if (typeof result.model !== "string") return "model must be a string";
  if (result.stopReason !== undefined && typeof result.stopReason !== "string") return "stopReason must be a string";
  // Arrays of blocks and tool blocks from 2025-11-25; audio from 2025-03-26.
  const arrays = since(version, "2025-11-25");
  const audio = since(version, "2025-03-26");
  const content = result.content;
  if (Array.isArray(content)) {
    if (!arrays) return `content must be a single block in ${version}`;
    for (const block of content) {
      const problem = blockProblem(block, true, audio);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return blockProblem(content, arrays, audio);
}

function blockProblem(block: unknown, toolBlocks: boolean, audio: boolean): string | undefined {
  if (!isObject(block) || typeof block.type !== "string") return "each content block must be an object with a type";
  const type = block.type;
  if (!SINGLE_BLOCKS.has(type) && !(toolBlocks && TOOL_BLOCKS.has(type))) return `content of type "${type}" is not allowed here`;
  if (type === "audio" && !audio) return "audio content does not exist before 2025-03-26";
  if (type === "text" && typeof block.text !== "string") return "a text block needs text";
  if ((type === "image" || type === "audio") && (typeof block.data !== "string" || typeof block.mimeType !== "string")) {
    return `an ${type} block needs data and mimeType`;
  }
  if (type === "tool_use" && (typeof block.id !== "string" || typeof block.name !== "string" || !isObject(block.input))) {
    return "a tool_use block needs id, name and input";
  }
  if (type === "tool_result" && (typeof block.toolUseId !== "string" || !Array.isArray(block.content))) {
    return "a tool_result block needs toolUseId and content";
  }
  return undefined;
}

/** The result as sent: for 2026-07-28 without `resultType` (input responses are bare). */
export function samplingAnswer(result: CreateMessageResult, version: ProtocolVersion): CreateMessageResult {
  if (version !== "2026-07-28" || result.resultType === undefined) return result;
  const bare = { ...result };
  delete bare.resultType;
  return bare;
}
