/**
 * The person at the terminal answers: forms field by field (choices as lists, defaults shown,
 * invalid answers asked again, secrets read without echo), URLs shown with their host and any
 * warning (never opened), sampling requests shown in full with the reply typed in. One question
 * at a time: two servers asking at once wait their turn. Prompts go to stderr; Ctrl-C in a
 * prompt cancels that request only.
 */
import { checkbox, confirm, input, password, select } from "@inquirer/prompts";
import type { ElicitResult } from "../node.js";
import type { Asker, FormQuestion, SamplingQuestion, UrlAnswer, UrlQuestion } from "./asker.js";
import { formContent, valueOf, type AskedField } from "./fields.js";
import type { Output } from "./output.js";
import { shownLine } from "./output.js";
import { describeSampling } from "./sampling.js";

/** Thrown by a prompt the person ended with Ctrl-C, or whose request was withdrawn. */
const ENDED = new Set(["ExitPromptError", "AbortPromptError", "CancelPromptError"]);

export class TtyAsker implements Asker {
  private turn: Promise<unknown> = Promise.resolve();
  /**
   * Called before a question takes the terminal: whoever else reads keys (the interactive
   * prompt) lets go first, or both would read what the person types, a secret included.
   */
  onTakeTerminal: (() => void) | undefined;

  constructor(private readonly out: Output) {}

  /** Runs `ask` once the questions before it are answered. */
  private inTurn<T>(ask: () => Promise<T>): Promise<T> {
    const run = (): Promise<T> => {
      this.onTakeTerminal?.();
      return ask();
    };
    const next = this.turn.then(run, run);
    this.turn = next.catch(() => {});
    return next;
  }

  /** Resolves once no question is waiting or being asked. */
  async idle(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.turn;
      await seen;
    } while (seen !== this.turn);
  }

  private context(signal: AbortSignal): { output: NodeJS.WritableStream; signal: AbortSignal } {
    return { output: process.stderr, signal };
  }

  form(question: FormQuestion, signal: AbortSignal): Promise<ElicitResult> {
    return this.inTurn(async () => {
      const c = this.out.err;
      this.out.note(`\n${c.bold(c.cyan(`${question.serverId} asks:`))} ${question.message}`);
      try {
        const choice = await select({ message: "Answer?", choices: [{ name: "Fill in the form", value: "accept" }, { name: "Decline", value: "decline" }, { name: "Cancel", value: "cancel" }] }, this.context(signal));
        if (choice !== "accept") return { action: choice as "decline" | "cancel" };
        const values = await this.ask(question.fields, signal);
        return { action: "accept", content: formContent(values) };
      } catch (error) {
        if (error instanceof Error && ENDED.has(error.name)) return { action: "cancel" };
        throw error;
      }
    });
  }

  values(title: string, fields: readonly AskedField[], signal: AbortSignal): Promise<Map<string, unknown> | undefined> {
    return this.inTurn(async () => {
      this.out.note(this.out.err.bold(title));
      try {
        return await this.ask(fields, signal);
      } catch (error) {
        if (error instanceof Error && ENDED.has(error.name)) return undefined;
        throw error;
      }
    });
  }

  private async ask(fields: readonly AskedField[], signal: AbortSignal): Promise<Map<string, unknown>> {
    const values = new Map<string, unknown>();
    for (const field of fields) values.set(field.name, await this.field(field, signal));
    return values;
  }

  private async field(field: AskedField, signal: AbortSignal): Promise<unknown> {
    const context = this.context(signal);
    const message = `${field.label}${field.required ? "" : this.out.err.dim(" (optional)")}${field.description === undefined ? "" : this.out.err.dim(` — ${field.description}`)}`;
    const validate = (typed: string): string | true => {
      const checked = valueOf(field, typed);
      return "problem" in checked ? checked.problem : true;
    };
    const typed = (text: string): unknown => {
      const checked = valueOf(field, text);
      return "value" in checked ? checked.value : undefined;
    };
    switch (field.kind) {
      case "boolean": {
        const fallback = typeof field.default === "boolean" ? field.default : undefined;
        return confirm({ message, ...(fallback === undefined ? {} : { default: fallback }) }, context);
      }
      case "choice": {
        const choices = field.choices.map((choice) => ({ name: choice.label, value: choice.value }));
        if (!field.required) choices.push({ name: this.out.err.dim("(no answer)"), value: "\u0000none" });
        const fallback = typeof field.default === "string" && field.choices.some((choice) => choice.value === field.default) ? field.default : undefined;
        const picked = await select({ message, choices, ...(fallback === undefined ? {} : { default: fallback }) }, context);
        return picked === "\u0000none" ? undefined : picked;
      }
      case "multi": {
        const defaults = Array.isArray(field.default) ? field.default : [];
        return checkbox({ message, choices: field.choices.map((choice) => ({ name: choice.label, value: choice.value, checked: defaults.includes(choice.value) })), required: field.required }, context);
      }
      default: {
        if (field.sensitive) {
          // Read without echo: the secret is never on the screen, not even as asterisks.
          return typed(await password({ message: `${message} ${this.out.err.dim("(hidden)")}`, validate }, context));
        }
        // Shown by the prompt: the server's default is cleaned like any of its text.
        const fallback = field.default === undefined ? undefined : shownLine(typeof field.default === "string" ? field.default : JSON.stringify(field.default), 500);
        return typed(await input({ message, validate, ...(fallback === undefined ? {} : { default: fallback }) }, context));
      }
    }
  }

  confirm(question: string, signal: AbortSignal): Promise<boolean> {
    return this.inTurn(async () => {
      this.out.note("");
      try {
        return await confirm({ message: question, default: false }, this.context(signal));
      } catch (error) {
        if (error instanceof Error && ENDED.has(error.name)) return false;
        throw error;
      }
    });
  }

  url(question: UrlQuestion, signal: AbortSignal): Promise<UrlAnswer> {
    return this.inTurn(async () => {
      const c = this.out.err;
      this.out.note(`\n${c.bold(c.cyan(`${question.serverId} asks you to visit a URL:`))} ${question.message}`);
      this.out.note(`  ${question.url}`);
      this.out.note(`  host: ${c.bold(question.host)}`);
      if (question.idn) this.out.note(c.red(`  warning: the host name is punycode (xn--): it may imitate another name`));
      if (question.originMismatch) this.out.note(c.yellow(`  warning: this is not the server's own origin`));
      this.out.note(c.dim("  conduit never opens it: copy it into a browser yourself if you trust it"));
      try {
        return await select<UrlAnswer>({ message: "Your answer", choices: [{ name: "I will open it (accept)", value: "accept" }, { name: "Decline", value: "decline" }, { name: "Cancel", value: "cancel" }] }, this.context(signal));
      } catch (error) {
        if (error instanceof Error && ENDED.has(error.name)) return "cancel";
        throw error;
      }
    });
  }

  sampling(question: SamplingQuestion, signal: AbortSignal): Promise<string | undefined> {
    return this.inTurn(async () => {
      const c = this.out.err;
      this.out.note(`\n${c.bold(c.cyan(`${question.serverId} asks for a model's reply (sampling):`))}`);
      for (const line of describeSampling(question.params)) this.out.note(`  ${line}`);
      try {
        const choice = await select({ message: "Answer?", choices: [{ name: "Type the reply", value: "reply" }, { name: "Decline", value: "decline" }] }, this.context(signal));
        if (choice !== "reply") return undefined;
        return await input({ message: "Reply", required: true }, this.context(signal));
      } catch (error) {
        if (error instanceof Error && ENDED.has(error.name)) return undefined;
        throw error;
      }
    });
  }
}
