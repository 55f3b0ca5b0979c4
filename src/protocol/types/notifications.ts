/** Server notifications the client reads. */
import type { LoggingLevel, Meta } from "./base.js";

export interface LogParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

export interface ResourceUpdatedParams {
  uri: string;
  _meta?: Meta;
  [key: string]: unknown;
}
