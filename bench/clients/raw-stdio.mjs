// The raw client's stdio side: newline-delimited JSON-RPC over a child's pipes, as lean as a
// hand-written client can be, so that it is the floor the libraries are measured against.
// Not a client of its own (the list of clients is index.mjs); the probes use it too.
//
// - Reading: Buffer chunks, framed with indexOf(0x0a). A line that spans chunks is kept as a list
//   of its pieces and joined once when its newline arrives, so a 10 MB message costs one copy,
//   not one per 64 kB chunk; each line is decoded once and parsed once.
// - Pending calls: a Map from numeric id to the promise's resolve function, captured by one
//   shared executor, so a request allocates its promise and nothing that closes over it.
// - Writing: one write of one string per message.
// No checks, no timers, no validation, no limits.
import { spawn } from "node:child_process";

const NEWLINE = 0x0a;
const CLOSE_GRACE_MS = 2_000;

/**
 * The server gets the same few variables as both libraries give theirs (the official client's
 * default list), not this process's whole environment: a variable such as NODE_EXTRA_CA_CERTS
 * changes how long a Node server takes to start, and the floor must start the same server.
 */
function serverEnvironment() {
  const env = {};
  for (const key of ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"]) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return env;
}

// The executor of every request's promise: it hands its resolve function out through `captured`
// instead of being a closure made per request.
let captured;
const capture = (resolve) => {
  captured = resolve;
};

/** A failure delivered through a resolve function: resolving with a rejected promise rejects. */
const failure = (message) => Promise.reject(new Error(message));

/**
 * Spawns `target.command` and speaks JSON-RPC on its stdin/stdout. `onLog(params)` is called for
 * every notifications/message; other server notifications and requests are ignored.
 * Returns the transport raw.mjs speaks through: { started, request, notify, close }.
 */
export function stdioRequester(target, { onLog } = {}) {
  const child = spawn(target.command, target.args ?? [], { stdio: ["pipe", "pipe", "inherit"], env: serverEnvironment() });
  const stdin = child.stdin;
  const pending = new Map();
  /** progressToken (the request's id) → the call's progress hook, while it runs. */
  const progress = new Map();
  let nextId = 0;
  let parts = [];
  let partBytes = 0;
  let exited = false;

  const failAll = (message) => {
    for (const resolve of pending.values()) resolve(failure(message));
    pending.clear();
  };
  const exit = new Promise((resolve) => child.once("exit", resolve)).then(() => {
    exited = true;
    failAll("raw: the server exited");
  });
  child.on("error", (error) => failAll(`raw: ${error.message}`));
  // A write to a server that has gone fails through `exit` above, not as an uncaught error.
  stdin.on("error", () => {});

  const receive = (line) => {
    const msg = JSON.parse(line);
    if (msg.method !== undefined) {
      if (onLog !== undefined && msg.method === "notifications/message") onLog(msg.params);
      else if (msg.method === "notifications/progress") progress.get(msg.params?.progressToken)?.(msg.params);
      return;
    }
    const resolve = pending.get(msg.id);
    if (resolve === undefined) return;
    pending.delete(msg.id);
    if (progress.size > 0) progress.delete(msg.id);
    resolve(msg.error === undefined ? msg.result : failure(`raw: ${msg.error.code} ${msg.error.message}`));
  };

  child.stdout.on("data", (chunk) => {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      if (parts.length === 0) {
        if (newline > start) receive(chunk.toString("utf8", start, newline));
      } else {
        parts.push(chunk.subarray(start, newline));
        const line = Buffer.concat(parts, partBytes + newline - start);
        parts = [];
        partBytes = 0;
        receive(line.toString("utf8"));
      }
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      parts.push(start === 0 ? chunk : chunk.subarray(start));
      partBytes += chunk.length - start;
    }
  });

  return {
    started() {},
    /**
     * `message`: the request's JSON text up to its id, which this adds (raw.mjs). With
     * `onProgress`, `message` ends open inside its params: this closes them with a
     * `_meta.progressToken` (the id) and routes that token's progress to the hook.
     */
    request(method, message, _name, onProgress) {
      const id = ++nextId;
      const promise = new Promise(capture);
      pending.set(id, captured);
      if (onProgress === undefined) stdin.write(`${message},"id":${id}}\n`);
      else {
        progress.set(id, onProgress);
        stdin.write(`${message},"_meta":{"progressToken":${id}}},"id":${id}}\n`);
      }
      return promise;
    },
    async notify(method) {
      stdin.write(`{"jsonrpc":"2.0","method":${JSON.stringify(method)}}\n`);
    },
    async close() {
      if (exited) return;
      stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), CLOSE_GRACE_MS);
      await exit;
      clearTimeout(timer);
    },
  };
}
