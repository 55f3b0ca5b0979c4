/**
 * What the core needs from its runtime beyond the web's standard: the seam between the web entry
 * (`index.ts`, which names no Node module) and the Node entry (`node.ts`), which fills it as it
 * loads. Without it (a browser, a Worker) the core uses only fetch and the web's globals; each
 * part's default says what it becomes there.
 */
import type { HttpBackend } from "./transport/http-exchange.js";
import type { StdioOptions, StdioTarget } from "./transport/stdio-target.js";
import type { Transport } from "./transport/transport.js";

export interface RuntimeParts {
  /** A child process speaking stdio; absent, a stdio target is refused ("usage"). */
  stdio?: ((target: StdioTarget, options: StdioOptions) => Transport) | undefined;
  /** The default HTTP backend of a client; absent, `fetch`. */
  httpBackend?: (() => HttpBackend) | undefined;
}

let parts: RuntimeParts = {};

/** Called by the Node entry as it loads (and by nothing else). */
export function installRuntime(given: RuntimeParts): void {
  parts = { ...parts, ...given };
}

export function runtime(): Readonly<RuntimeParts> {
  return parts;
}
