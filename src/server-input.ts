/**
 * Input that waits outside the process, for one server handle: a call made with
 * `inputRequired: "return"` parks the round the server asks (`park`), and `resume` answers a
 * PendingInput, perhaps parked by another Client in another process.
 *
 * A resume sends at most once. In order, and before anything is sent: the PendingInput's shape
 * and the options (`InvalidArgumentError`), its deadline (`"timeout"`), the era (`"usage"`: the
 * legacy era cannot answer a parked round), every answer through the checks a Handler's answer
 * passes (see `input/parking.ts`), then the claim: `setIfAbsent` in the Client's `store` under
 * the PendingInput's id, kept until its deadline (and a margin for clocks that differ between
 * machines). A claim already there is `"usage"` (the host resumed the same PendingInput twice:
 * no retry of the call can succeed, and nothing about the server is wrong); a store that fails
 * is `"store"`. Once claimed, the PendingInput is spent, whatever the retry's fate: the server
 * may have acted on the answers, and a request given up is not sent again.
 */
import { knownKeys, optional, positiveNumber } from "./util/arguments.js";
import { ClientError, InvalidArgumentError, messageOf } from "./util/errors.js";
import { isObject } from "./util/json.js";
import { quote } from "./util/text.js";
import type { ListOptions } from "./call-options.js";
import type { Connection } from "./protocol/connection.js";
import type { ConnectionFacts } from "./protocol/era-codec.js";
import { METHODS, type CallOptions, type InputRequiredMode } from "./protocol/methods.js";
import { ParkedRound } from "./protocol/mrtr.js";
import { TaskInputParked } from "./protocol/task-follow.js";
import { checkCallTool, type CheckContext } from "./protocol/results.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "./protocol/types/index.js";
import type { InputParking } from "./server-binding.js";
import type { Store } from "./stores/store.js";
import { checkPendingInput, makePendingInput, type PendingInput, type PendingMethod } from "./pending-input.js";

export interface ResumeOptions {
  /** The answers, keyed exactly as the PendingInput's `inputRequests`, each what a Handler would return. */
  responses: Record<string, unknown>;
  /** The resumed call's `assigns`: `ctx.assigns` of a later round the Handler answers. */
  assigns?: unknown;
  /** Aborts the resumed call (the PendingInput is spent once its retry was sent). */
  signal?: AbortSignal | undefined;
  /** When the server asks again: `"return"` (the default) resolves with the next PendingInput; `"handler"` answers through this Client's Handler. */
  inputRequired?: InputRequiredMode | undefined;
  /** Each request's timeout (default: the Client's `requestTimeout`); the PendingInput's deadline bounds them all. */
  timeout?: number | undefined;
}

/** What a resumed call resolves with: the call's own result, or the next round to answer. */
export type ResumeResult = CallToolResult | ReadResourceResult | GetPromptResult | PendingInput;

const RESUME_KEYS: ReadonlySet<string> = new Set(["responses", "assigns", "signal", "inputRequired", "timeout"]);
/** The claim outlives the deadline by this much, for workers whose clocks are a little behind. */
const CLAIM_MARGIN_MS = 5 * 60 * 1000;
const CLAIM_PREFIX = "conduit:pending-input:";

/** What the input borrows from its handle. */
export interface InputHost {
  readonly id: string;
  readonly checks: CheckContext;
  readonly parking: InputParking;
  readonly store: Store;
  connected<O extends ListOptions>(options: O | undefined): Promise<{ connection: Connection; options: O | undefined }>;
  /** An error as the caller sees it: this server's, its stack among the caller's frames. */
  failure(error: unknown): unknown;
}

export class ServerInput {
  constructor(private readonly host: InputHost) {}

  /** The round a call parked, as the PendingInput the call resolves with; a request the checks refuse fails the call. */
  park(connection: Connection, method: string, params: Record<string, unknown> | undefined, parked: ParkedRound, deadline: number): PendingInput {
    const verdicts = this.host.parking.vetRound(parked.inputRequests, factsOf(connection));
    return makePendingInput(this.host.id, method as PendingMethod, params ?? {}, parked, verdicts, deadline);
  }

  /** A followed task's question, parked: a PendingInput whose resume sends `tasks/update` and follows the task on. */
  parkTask(connection: Connection, parked: TaskInputParked, deadline: number): PendingInput {
    const verdicts = this.host.parking.vetRound(parked.round.inputRequests, factsOf(connection));
    return makePendingInput(this.host.id, "tasks/update", { taskId: parked.taskId }, parked.round, verdicts, deadline);
  }

  async resume(given: PendingInput, options: ResumeOptions): Promise<ResumeResult> {
    const pending = checkPendingInput(given);
    const responses = checkResumeOptions(pending, options);
    const id = pending.id;
    if (pending.serverId !== this.host.id) throw new ClientError("usage", `pending input ${id} belongs to server "${pending.serverId}", not "${this.host.id}"`, { serverId: this.host.id });
    try {
      if (options.signal?.aborted === true) throw new ClientError("cancelled", `the resume of pending input ${id} was cancelled before it began`, { cause: options.signal.reason });
      const call: CallOptions = { signal: options.signal, timeout: options.timeout, maxTotalTimeout: left(pending), assigns: options.assigns, inputRequired: options.inputRequired ?? "return" };
      const { connection, options: waited = call } = await this.host.connected(call);
      const refused = connection.refusal({ inputRequired: "return" });
      if (refused !== undefined) throw new ClientError("usage", `pending input ${id} cannot be resumed: ${refused.message}`, { cause: refused });
      const inputResponses = this.host.parking.checkResponses(pending.inputRequests, responses, factsOf(connection));
      const maxTotalTimeout = left(pending);
      await this.claim(pending, maxTotalTimeout);
      if (pending.method === "tasks/update") return await this.resumeTask(connection, pending, inputResponses, options);
      const resumed = { inputResponses, requestState: pending.requestState, round: pending.round };
      const raw = await connection.request(pending.method, pending.params, { ...waited, maxTotalTimeout }, resumed);
      if (raw instanceof ParkedRound) return this.park(connection, pending.method, pending.params, raw, pending.deadline);
      // A task the server made of the call is followed, as a call follows one it did not ask for.
      const created = pending.method === "tools/call" && isObject(raw) ? connection.tasks.created(raw, false) : undefined;
      if (created === undefined) return METHODS[pending.method].check(raw, this.host.checks);
      const follow = { signal: options.signal, assigns: options.assigns, timeout: left(pending), bound: `the deadline of pending input ${id}` };
      return checkCallTool(await connection.followTask(created, follow), this.host.checks);
    } catch (error) {
      throw this.host.failure(error);
    }
  }

  private async claim(pending: PendingInput, leftMs: number): Promise<void> {
    let claimed: boolean;
    try {
      const claim = JSON.stringify({ serverId: pending.serverId, round: pending.round, claimedAt: Date.now() });
      claimed = await this.host.store.setIfAbsent(CLAIM_PREFIX + pending.id, claim, { ttlMs: Math.ceil(leftMs) + CLAIM_MARGIN_MS });
    } catch (error) {
      throw new ClientError("store", `the claim of pending input ${pending.id} could not be written to the store (${messageOf(error)}); nothing was sent`, { cause: error });
    }
    if (claimed !== true) throw new ClientError("usage", `pending input ${pending.id} was already resumed (each is answered once); nothing was sent`);
  }
  /**
   * A task's parked input: the answers in one `tasks/update`, then the task followed on, to its
   * result or to its next question (parked again unless `inputRequired: "handler"`).
   */
  private async resumeTask(connection: Connection, pending: PendingInput, inputResponses: Record<string, unknown>, options: ResumeOptions): Promise<ResumeResult> {
    const taskId = pending.params.taskId as string;
    const tasks = connection.tasks;
    if (tasks.sendInput === undefined) throw new ClientError("usage", `pending input ${pending.id} answers task ${quote(taskId)}, but this connection's era takes a task's input on the connection`, { serverId: this.host.id });
    await tasks.sendInput(taskId, inputResponses, options.signal);
    const park = (options.inputRequired ?? "return") === "return";
    try {
      const follow = { signal: options.signal, assigns: options.assigns, timeout: left(pending), bound: `the deadline of pending input ${pending.id}`, park, answered: { requests: pending.inputRequests, round: pending.round } };
      return checkCallTool(await connection.followTask(taskId, follow), this.host.checks);
    } catch (error) {
      if (error instanceof TaskInputParked) return this.parkTask(connection, error, pending.deadline);
      throw error;
    }
  }
}

/**
 * Milliseconds left before the deadline, on the wall clock (the deadline may come from another
 * machine); a `"timeout"` when none are.
 */
function left(pending: PendingInput): number {
  const ms = pending.deadline - Date.now();
  if (ms > 0) return ms;
  throw new ClientError("timeout", `pending input ${pending.id} expired ${new Date(pending.deadline).toISOString()}; nothing was sent`);
}

function factsOf(connection: Connection): ConnectionFacts {
  // The call that carries the input is in flight by definition.
  return { era: connection.era, version: connection.version, callsInFlight: 1 };
}

/** The options' answers, keyed exactly as the round's requests. */
function checkResumeOptions(pending: PendingInput, options: ResumeOptions): Record<string, unknown> {
  if (!isObject(options)) throw new InvalidArgumentError("resume options must be an object");
  knownKeys("resume options", options, RESUME_KEYS);
  optional(positiveNumber, "timeout", options.timeout);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new InvalidArgumentError("signal must be an AbortSignal");
  const mode: unknown = options.inputRequired;
  if (mode !== undefined && mode !== "handler" && mode !== "return") throw new InvalidArgumentError(`inputRequired must be "handler" or "return", got ${quote(mode)}`);
  const responses: unknown = options.responses;
  if (!isObject(responses)) throw new InvalidArgumentError("resume needs `responses`, an object keyed as the PendingInput's inputRequests");
  for (const key of Object.keys(pending.inputRequests)) {
    if (!Object.hasOwn(responses, key)) throw new InvalidArgumentError(`resume: no response for input request ${quote(key)}`);
  }
  for (const key of Object.keys(responses)) {
    if (!Object.hasOwn(pending.inputRequests, key)) throw new InvalidArgumentError(`resume: response ${quote(key)} answers no input request of the PendingInput`);
  }
  return responses;
}
