/**
 * Why an MCP App's resource was not given to the host. An `AppResourceError` is a `ClientError`
 * (so a host that switches on `kind` needs nothing new) with a `reason` that says which check
 * failed:
 *
 * - `uri` (kind `"usage"`): the URI asked for is not a `ui://` one; nothing was sent.
 * - `content` (`"protocol"`): the read returned no contents, none for the URI, or one that is
 *   neither `text` nor `blob`.
 * - `mime` (`"protocol"`): the content's MIME type is not `text/html;profile=mcp-app`, which the
 *   spec requires of an app's content.
 * - `size` (`"unsupported"`): the HTML is longer than the host's `maxBytes`; a host may decline it.
 * - `encoding` (`"protocol"`): the blob is not Base64, or its bytes (or the text) not UTF-8.
 */
import { ClientError, type ClientErrorKind } from "../util/errors.js";

export type AppResourceFailure = "uri" | "content" | "mime" | "size" | "encoding";

const KINDS: Readonly<Record<AppResourceFailure, ClientErrorKind>> = {
  uri: "usage",
  content: "protocol",
  mime: "protocol",
  size: "unsupported",
  encoding: "protocol",
};

export interface AppResourceErrorOptions {
  serverId: string;
  /** The resource asked for. */
  uri: string;
  /** What the server sent: the result of the read. */
  data?: unknown;
}

const appResourceErrorBrand = Symbol.for("conduit-mcp.AppResourceError");

export class AppResourceError extends ClientError {
  readonly reason: AppResourceFailure;
  readonly uri: string;

  constructor(reason: AppResourceFailure, message: string, options: AppResourceErrorOptions) {
    super(KINDS[reason], message, { serverId: options.serverId, data: options.data });
    this.reason = reason;
    this.uri = options.uri;
    Object.defineProperty(this, appResourceErrorBrand, { value: true });
  }

  // Its own brand: without it, every ClientError would pass `instanceof AppResourceError`.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[appResourceErrorBrand] === true;
  }
}
