/**
 * A round of server input that waits outside the process (2026-07-28 MRTR): a call made with
 * `inputRequired: "return"` resolves with a `PendingInput` when the server asks for input, and
 * `client.resume` answers it later, from any Client that has a server of that id connected (this
 * process or another, on this machine or another).
 *
 * It is plain JSON: what the retry needs (the original params, `inputRequests` keyed as the
 * server keyed them, `requestState` exactly as the server sent it), when it stops being valid
 * (`deadline`, wall-clock milliseconds, since that is the one clock other machines share), an
 * unguessable `id` (the key of its claim in the Client's store), and, per input request, the
 * verdict of the checks a Handler's request passes before the Handler sees it. A request those
 * checks refuse is refused before anything is parked: the call fails with the error the Handler
 * path gives (`"input_refused"`), so that a PendingInput only ever holds what a person may see.
 */
import type { FieldInfo } from "./input/handler.js";
import type { VettedInput } from "./input/pipeline.js";
import type { ParkedRound } from "./protocol/mrtr.js";
import type { CreateMessageParams } from "./protocol/types/index.js";
import { InvalidArgumentError } from "./util/errors.js";
import { isObject } from "./util/json.js";
import { setOwn } from "./util/sanitize.js";
import { quote } from "./util/text.js";

export const PENDING_INPUT_TYPE = "conduit-mcp/pending-input";
export const PENDING_INPUT_VERSION = 1;

/**
 * The methods whose result may ask for input (DESIGN, "Calls"), and `tasks/update`: the input a
 * 2026-07-28 task asks for as its status, parked from a call that became a task (its `params`
 * are `{ taskId }`; it has no `requestState`, the task holds its own state).
 */
export type PendingMethod = "tools/call" | "resources/read" | "prompts/get" | "tasks/update";
const PENDING_METHODS: ReadonlySet<string> = new Set<PendingMethod>(["tools/call", "resources/read", "prompts/get", "tasks/update"]);

/** One input request of the round, as the server sent it. */
export interface PendingInputRequest {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * What the checks before the Handler found of one input request: for a form, each field's hint
 * (as `ctx.fields`); for a URL, what to show of it (as the URL context); for sampling, the params
 * as a Handler would get them (`maxTokens` clamped, `includeContext` as allowed).
 */
export type InputVerdict =
  | { readonly method: "elicitation/create"; readonly mode: "form"; readonly fields: Readonly<Record<string, FieldInfo>> }
  | { readonly method: "elicitation/create"; readonly mode: "url"; readonly url: string; readonly host: string; readonly idn: boolean; readonly originMismatch: boolean }
  | { readonly method: "sampling/createMessage"; readonly params: CreateMessageParams }
  | { readonly method: "roots/list" };

export interface PendingInput {
  readonly type: typeof PENDING_INPUT_TYPE;
  readonly version: typeof PENDING_INPUT_VERSION;
  /** Random and unguessable; a second resume of the same id is refused. */
  readonly id: string;
  readonly serverId: string;
  readonly method: PendingMethod;
  /** The call's params as first sent (no `inputResponses`, no `requestState`). */
  readonly params: Record<string, unknown>;
  readonly inputRequests: Readonly<Record<string, PendingInputRequest>>;
  /** As the server sent it, to be echoed unchanged; absent when it sent none. */
  readonly requestState?: string;
  /** Which round of the call this is: 1 for its first. */
  readonly round: number;
  /** Wall-clock milliseconds (`Date.now()`) after which a resume is refused with `"timeout"`. */
  readonly deadline: number;
  /** The checks' verdict on each input request, keyed as `inputRequests`. */
  readonly verdicts: Readonly<Record<string, InputVerdict>>;
}

/** How long a PendingInput stays valid when the call gives no `maxTotalTimeout`: a day. */
export const DEFAULT_PENDING_MS = 24 * 60 * 60 * 1000;
/** The longest a PendingInput stays valid, whatever `maxTotalTimeout` says (`Infinity` included). */
export const MAX_PENDING_MS = 30 * DEFAULT_PENDING_MS;

const MAX_ID_LENGTH = 100;

/** What a parked round becomes: plain JSON, so that what a store keeps is what comes back. */
export function makePendingInput(
  serverId: string,
  method: PendingMethod,
  params: Record<string, unknown>,
  parked: ParkedRound,
  verdicts: Record<string, VettedInput>,
  deadline: number,
): PendingInput {
  const verdictsJson: Record<string, InputVerdict> = {};
  for (const [key, vetted] of Object.entries(verdicts)) setOwn(verdictsJson, key, verdictOf(vetted));
  const draft = {
    type: PENDING_INPUT_TYPE,
    version: PENDING_INPUT_VERSION,
    id: randomId(),
    serverId,
    method,
    params,
    inputRequests: parked.inputRequests,
    ...(parked.requestState === undefined ? {} : { requestState: parked.requestState }),
    round: parked.round,
    deadline,
    verdicts: verdictsJson,
  };
  // Through JSON once: what the host keeps is then exactly what it gets back from a store.
  return JSON.parse(JSON.stringify(draft)) as PendingInput;
}

/** The deadline of a call that began at `startedAt` (wall clock) with this total bound. */
export function pendingDeadline(startedAt: number, maxTotalTimeout: number | undefined): number {
  return startedAt + Math.min(maxTotalTimeout ?? DEFAULT_PENDING_MS, MAX_PENDING_MS);
}

function verdictOf(vetted: VettedInput): InputVerdict {
  switch (vetted.method) {
    case "elicitation/create": {
      const request = vetted.request;
      if (request.mode === "form") return { method: vetted.method, mode: "form", fields: request.fields };
      return { method: vetted.method, mode: "url", ...request.vetted };
    }
    case "sampling/createMessage":
      return { method: vetted.method, params: vetted.params };
    case "roots/list":
      return { method: vetted.method };
  }
}

/** 128 random bits, as hex. */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = "";
  for (const byte of bytes) id += byte.toString(16).padStart(2, "0");
  return id;
}

/** Whether `value` is a PendingInput (of this version), by its shape. */
export function isPendingInput(value: unknown): value is PendingInput {
  return pendingProblem(value) === undefined;
}

/** `value` as a PendingInput, or an `InvalidArgumentError` that says what is wrong with it. */
export function checkPendingInput(value: unknown): PendingInput {
  const problem = pendingProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(`not a PendingInput: ${problem}`);
  return value as PendingInput;
}

function pendingProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "it must be an object";
  if (value.type !== PENDING_INPUT_TYPE) return `its type must be "${PENDING_INPUT_TYPE}"`;
  if (value.version !== PENDING_INPUT_VERSION) return `its version must be ${PENDING_INPUT_VERSION} (this Conduit knows no other)`;
  if (typeof value.id !== "string" || !/^[0-9a-f]+$/.test(value.id) || value.id.length > MAX_ID_LENGTH) return "its id must be a hexadecimal string";
  if (typeof value.serverId !== "string" || value.serverId === "") return "its serverId must be a non-empty string";
  if (typeof value.method !== "string" || !PENDING_METHODS.has(value.method)) return "its method must be tools/call, resources/read, prompts/get or tasks/update";
  if (value.method === "tasks/update" && (!isObject(value.params) || typeof value.params.taskId !== "string" || value.params.taskId === "")) return "the params of a tasks/update must name its taskId";
  if (!isObject(value.params)) return "its params must be an object";
  if (value.requestState !== undefined && typeof value.requestState !== "string") return "its requestState must be a string when present";
  if (!Number.isSafeInteger(value.round) || (value.round as number) < 1) return "its round must be a positive integer";
  if (typeof value.deadline !== "number" || !Number.isFinite(value.deadline)) return "its deadline must be a number of milliseconds";
  return requestsProblem(value.inputRequests, value.verdicts);
}

function requestsProblem(requests: unknown, verdicts: unknown): string | undefined {
  if (!isObject(requests)) return "its inputRequests must be an object";
  if (!isObject(verdicts)) return "its verdicts must be an object";
  const keys = Object.keys(requests);
  if (keys.length === 0) return "its inputRequests must not be empty";
  if (Object.keys(verdicts).length !== keys.length) return "its verdicts must be keyed as its inputRequests";
  for (const key of keys) {
    const request = requests[key];
    if (!isObject(request) || typeof request.method !== "string" || (request.params !== undefined && !isObject(request.params))) {
      return `its input request ${quote(key)} must be { method, params? }`;
    }
    const verdict = Object.hasOwn(verdicts, key) ? verdicts[key] : undefined;
    if (!isObject(verdict) || verdict.method !== request.method) return `its verdict on ${quote(key)} must be of the request's method`;
  }
  return undefined;
}
