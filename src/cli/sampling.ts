/**
 * Sampling in the terminal: the request shown as the person must judge it (the system prompt,
 * every message, the `maxTokens` the client already clamped), or piped to a program of the
 * user's (`--sampling-command`), whose answer then goes through the library's checks like any.
 */
import { spawn } from "node:child_process";
import { RpcError, type CreateMessageParams, type CreateMessageResult } from "../node.js";
import { shown, shownLine } from "./output.js";

/** The lines a person reads before answering a sampling request. */
export function describeSampling(params: CreateMessageParams): string[] {
  const lines: string[] = [];
  if (typeof params.systemPrompt === "string") lines.push(`system: ${shown(params.systemPrompt, 2_000)}`);
  for (const message of params.messages) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    for (const block of blocks as Array<{ type?: unknown; text?: unknown }>) {
      const text = block.type === "text" ? shown(block.text, 4_000) : `[${shownLine(block.type, 40)} content]`;
      lines.push(`${shownLine(message.role, 20)}: ${text}`);
    }
  }
  lines.push(`max tokens: ${params.maxTokens}${params.includeContext !== undefined && params.includeContext !== "none" ? `, context asked: ${shownLine(params.includeContext, 40)}` : ""}`);
  if (Array.isArray(params.tools) && params.tools.length > 0) lines.push(`tools offered to the model: ${params.tools.map((tool) => shownLine(tool.name, 64)).join(", ")}`);
  return lines;
}

/** A reply typed by the person, as the model's answer. */
export function typedReply(text: string): CreateMessageResult {
  return { role: "assistant", content: { type: "text", text }, model: "conduit-user", stopReason: "endTurn" };
}

const MAX_OUTPUT = 1024 * 1024;

/**
 * Runs `command` (through the shell) with the request as JSON on stdin; its stdout is the
 * answer: a `CreateMessageResult` as JSON, or plain text taken as the reply. A non-zero exit
 * declines. It runs in a process group of its own, which is killed whole when the request is
 * withdrawn or the output grows too large; the answer is taken when the shell exits, so that a
 * background child holding stdout cannot keep the request waiting.
 */
export function runSamplingCommand(command: string, params: CreateMessageParams, serverId: string, signal: AbortSignal): Promise<CreateMessageResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      killGroup();
      child.stdout.destroy();
      child.stderr.destroy();
      outcome();
    };
    const onAbort = (): void => settle(() => reject(new RpcError(-1, "the sampling request was withdrawn")));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      if (stdout.length + text.length > MAX_OUTPUT) settle(() => reject(new RpcError(-1, `the sampling command wrote more than ${MAX_OUTPUT} bytes`)));
      else stdout += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-2_000)));
    child.on("error", (error) => settle(() => reject(new RpcError(-1, `the sampling command failed: ${error.message}`))));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify({ serverId, params }));
    child.on("exit", (code) => {
      // What it wrote before it exited may still be in the pipe: a moment to drain, not more.
      const answer = (): void =>
        settle(() => {
          if (code !== 0) return reject(new RpcError(-1, `the sampling command declined (exit ${code}): ${shownLine(stderr.trim(), 300)}`));
          const text = stdout.trim();
          if (text.startsWith("{")) {
            try {
              return resolve(JSON.parse(text) as CreateMessageResult);
            } catch {
              // Not JSON after all: the text is the reply.
            }
          }
          resolve(typedReply(stdout.replace(/\n$/, "")));
        });
      if (child.stdout.readableEnded) answer();
      else {
        child.stdout.once("end", answer);
        setTimeout(answer, 100).unref();
      }
    });
  });
}
