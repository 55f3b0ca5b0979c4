/** What a caller may say about one request. */
import type { RequestOptions } from "../rpc/pending-call.js";
import type { LoggingLevel } from "./types/index.js";

export interface CallOptions extends RequestOptions {
  /** Handler context for server input tied to this call. */
  assigns?: unknown;
  /** Modern era: ask the server for log entries at this level and above for this request. */
  logLevel?: LoggingLevel | undefined;
}
