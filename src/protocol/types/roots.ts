/** Roots: `roots/list`. */
import type { Meta, Result } from "./base.js";

export interface Root {
  /** A `file://` URI. */
  uri: string;
  name?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ListRootsResult extends Result {
  roots: Root[];
}
