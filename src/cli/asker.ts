/**
 * Who answers what a server asks of the person: someone at the terminal (`tty-asker.ts`), a
 * file of answers given beforehand (`--answers`), or nobody (a pipe, CI), in which case the
 * request fails clearly and the command ends with "input needed".
 */
import { readFile } from "node:fs/promises";
import { jsonProblemAt, type CreateMessageParams, type ElicitResult } from "../node.js";
import type { AskedField } from "./fields.js";
import { CliError, EXIT } from "./exit-codes.js";

export interface FormQuestion {
  readonly serverId: string;
  readonly message: string;
  readonly fields: readonly AskedField[];
}

export interface UrlQuestion {
  readonly serverId: string;
  readonly message: string;
  readonly url: string;
  readonly host: string;
  readonly idn: boolean;
  readonly originMismatch: boolean;
}

export interface SamplingQuestion {
  readonly serverId: string;
  readonly params: CreateMessageParams;
}

export type UrlAnswer = "accept" | "decline" | "cancel";

export interface Asker {
  /** A form: accepted with its content, declined or cancelled. */
  form(question: FormQuestion, signal: AbortSignal): Promise<ElicitResult>;
  url(question: UrlQuestion, signal: AbortSignal): Promise<UrlAnswer>;
  /** The reply the person gives a sampling request, or undefined when they decline. */
  sampling(question: SamplingQuestion, signal: AbortSignal): Promise<string | undefined>;
  /** A yes-or-no question (an app's request to act); without one, the answer is no. */
  confirm?(question: string, signal: AbortSignal): Promise<boolean>;
  /** Values for a tool's arguments, asked field by field (interactive mode only). */
  values?(title: string, fields: readonly AskedField[], signal: AbortSignal): Promise<Map<string, unknown> | undefined>;
}

/** Thrown when nobody can answer: the command then ends with "input needed". */
export class NobodyToAsk extends CliError {
  constructor(what: string) {
    super(`the server asked for ${what}, and there is no terminal to ask on: run conduit in a terminal, or give the answers with --answers FILE`, EXIT.inputNeeded);
    this.name = "NobodyToAsk";
  }
}

export const nobody: Asker = {
  form: () => Promise.reject(new NobodyToAsk("a form")),
  url: () => Promise.reject(new NobodyToAsk("a visit to a URL")),
  sampling: () => Promise.reject(new NobodyToAsk("a sampling (a model's reply)")),
};

/**
 * `--answers FILE`: JSON with the answers in the order the requests come, each list taken from
 * the front: `{ "forms": [{ "action": "accept", "content": {…} }], "urls": ["decline"],
 * "samplings": ["the reply", null], "consents": [true] }` (`null` declines; `consents` answer
 * an app's requests to act). A request with no answer left is
 * treated as if nobody were there.
 */
export async function answersFrom(path: string): Promise<Asker> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new CliError(`--answers ${path}: ${(error as NodeJS.ErrnoException).code ?? "cannot be read"}`, EXIT.usage);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // Never the parser's message: it quotes the file, answers (secrets) included.
    throw new CliError(`--answers ${path} is not JSON (${jsonProblemAt(error)})`, EXIT.usage);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new CliError(`--answers ${path}: must be a JSON object with "forms", "urls" and "samplings" lists`, EXIT.usage);
  const file = parsed as Record<string, unknown>;
  const list = (name: string): unknown[] => {
    const value = file[name];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new CliError(`--answers ${path}: "${name}" must be a list`, EXIT.usage);
    return [...(value as unknown[])];
  };
  const forms = list("forms");
  const urls = list("urls");
  const samplings = list("samplings");
  const consents = list("consents");
  for (const form of forms) {
    if (typeof form !== "object" || form === null || !["accept", "decline", "cancel"].includes((form as { action?: unknown }).action as string)) {
      throw new CliError(`--answers ${path}: each of "forms" is { "action": "accept" | "decline" | "cancel", "content"?: {…} }`, EXIT.usage);
    }
  }
  for (const url of urls) if (!["accept", "decline", "cancel"].includes(url as string)) throw new CliError(`--answers ${path}: each of "urls" is "accept", "decline" or "cancel"`, EXIT.usage);
  for (const sampling of samplings) if (sampling !== null && typeof sampling !== "string") throw new CliError(`--answers ${path}: each of "samplings" is a reply or null`, EXIT.usage);
  for (const consent of consents) if (typeof consent !== "boolean") throw new CliError(`--answers ${path}: each of "consents" is true or false`, EXIT.usage);
  return {
    form: () => (forms.length === 0 ? Promise.reject(new NobodyToAsk("a form (and --answers has none left)")) : Promise.resolve(forms.shift() as ElicitResult)),
    url: () => (urls.length === 0 ? Promise.reject(new NobodyToAsk("a visit to a URL (and --answers has none left)")) : Promise.resolve(urls.shift() as UrlAnswer)),
    sampling: () => (samplings.length === 0 ? Promise.reject(new NobodyToAsk("a sampling (and --answers has none left)")) : Promise.resolve((samplings.shift() as string | null) ?? undefined)),
    // An app's request with no answer left is refused, as with nobody to ask.
    confirm: () => Promise.resolve(consents.length === 0 ? false : (consents.shift() as boolean)),
  };
}
