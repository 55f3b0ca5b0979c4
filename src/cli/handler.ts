/**
 * The terminal Handler, built on the library's public `Handler` alone: every server request goes
 * to the person (or to `--answers`, or `--sampling-command`), roots come from `--root`, and
 * logs, progress and list changes are shown as they come. The library has already run its
 * checks: the URL vetted, the form schema checked, `maxTokens` clamped, log text cleaned.
 */
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RpcError, type Handler, type LogLevel } from "../node.js";
import { NobodyToAsk, type Asker } from "./asker.js";
import { fieldsOf } from "./fields.js";
import type { Output, Colors } from "./output.js";
import { shownLine } from "./output.js";
import { noteTask } from "./notices.js";
import { runSamplingCommand, typedReply } from "./sampling.js";

export interface TerminalHandlerOptions {
  asker: Asker;
  out: Output;
  /** Directories shared as roots (default: the working directory). */
  roots: readonly string[];
  samplingCommand?: string | undefined;
  /** Show list changes and other notifications (the interactive mode); logs are always shown. */
  notices: boolean;
  /** Told when the list of some kind changed on a server (the interactive mode refreshes). */
  onListChanged?: ((serverId: string, kind: string) => void) | undefined;
}

export interface TerminalHandler extends Handler {
  /** Why an input request could not be answered for want of a person, if one could not. */
  readonly unanswered: string | undefined;
}

const LEVEL_COLOURS: Record<LogLevel, (c: Colors) => (text: string) => string> = {
  debug: (c) => c.dim,
  info: (c) => c.blue,
  notice: (c) => c.cyan,
  warning: (c) => c.yellow,
  error: (c) => c.red,
  critical: (c) => (text) => c.bold(c.red(text)),
  alert: (c) => (text) => c.bold(c.red(text)),
  emergency: (c) => (text) => c.inverse(c.red(text)),
};

export function terminalHandler(options: TerminalHandlerOptions): TerminalHandler {
  const { asker, out } = options;
  const roots = options.roots.map((root) => resolve(root));
  let unanswered: string | undefined;
  const refusedForWantOfPerson = (error: unknown): never => {
    if (error instanceof NobodyToAsk) {
      // Told once, when the command ends (as JSON with --format json).
      unanswered ??= error.message;
      throw new RpcError(-32603, "nobody at the client could answer this request");
    }
    throw error;
  };
  return {
    get unanswered() {
      return unanswered;
    },
    elicitationModes: ["form", "url"],

    async handleElicitation(params, ctx) {
      try {
        if (ctx.mode === "url") {
          const action = await asker.url({ serverId: ctx.serverId, message: shownLine(params.message, 1_000), url: ctx.url, host: ctx.host, idn: ctx.idn, originMismatch: ctx.originMismatch }, ctx.signal);
          return { action };
        }
        const fields = fieldsOf(params.requestedSchema, (name) => ctx.fields[name]?.sensitiveSuspected === true);
        return await asker.form({ serverId: ctx.serverId, message: shownLine(params.message, 1_000), fields }, ctx.signal);
      } catch (error) {
        return refusedForWantOfPerson(error);
      }
    },

    async handleSampling(params, ctx) {
      if (options.samplingCommand !== undefined) return runSamplingCommand(options.samplingCommand, params, ctx.serverId, ctx.signal);
      let reply: string | undefined;
      try {
        reply = await asker.sampling({ serverId: ctx.serverId, params }, ctx.signal);
      } catch (error) {
        return refusedForWantOfPerson(error);
      }
      if (reply === undefined) throw new RpcError(-1, "the user declined the sampling request");
      return typedReply(reply);
    },

    listRoots() {
      return { roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: basename(root) || root })) };
    },

    handleLog(level, params, ctx) {
      out.log(ctx.serverId, level, typeof params.logger === "string" ? params.logger : undefined, params.data, LEVEL_COLOURS[level](out.err));
    },

    handleNotification(method, params, ctx) {
      const c = out.err;
      if (!options.notices) return;
      const changed = /^notifications\/(tools|resources|prompts)\/list_changed$/.exec(method);
      if (changed !== null) {
        if (out.notices.listChanged(ctx.serverId, changed[1]!)) out.note(c.magenta(`[${ctx.serverId}] its ${changed[1]} changed`));
        options.onListChanged?.(ctx.serverId, changed[1]!);
      } else if (method === "notifications/resources/updated") {
        out.note(c.magenta(`[${ctx.serverId}] resource updated: ${shownLine(params.uri, 300)}`));
      } else if (method === "notifications/tasks/status" || method === "notifications/tasks") {
        noteTask(out, ctx.serverId, params);
      } else {
        out.note(c.dim(`[${ctx.serverId}] ${shownLine(method, 100)}`));
      }
    },
  };
}
