/**
 * What the rpc layer needs from a way of moving messages. A transport frames and parses; it
 * never looks at `method` and knows nothing of protocol eras. What an era changes in the
 * transport's behaviour (sessions, headers, how to cancel) is passed in by the protocol layer.
 */
import type { ClientError } from "../util/errors.js";

export type RequestId = string | number;

/** Where an inbound message came from, when the transport can tell. */
export interface InboundMeta {
  /**
   * HTTP: the id of the request whose POST response stream carried this message. Server
   * requests that arrive there belong to that call.
   */
  readonly relatedRequestId?: RequestId | undefined;
}

export interface TransportSink {
  /** One parsed JSON value, of any shape: the rpc layer judges it. */
  message(value: unknown, meta: InboundMeta | undefined): void;
  /** Bytes that were not JSON. `raw` is a bounded excerpt for the log. */
  parseError(raw: string, meta: InboundMeta | undefined): void;
  /** The connection ended. `error` is undefined when the client closed it. */
  closed(error: ClientError | undefined): void;
}

export interface SendOptions {
  /** Extra HTTP headers for this message (the modern era's Mcp-Method, Mcp-Name, …), lower-case names. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

export interface Transport {
  readonly kind: "stdio" | "http";
  /** The server's origin (`https://host:port`) when the transport knows it. */
  readonly origin: string | undefined;
  start(sink: TransportSink): Promise<void>;
  /**
   * Sends one message. Stdio returns nothing: a write failure is a closed connection. HTTP
   * returns a promise that rejects when this message could not be delivered (a refused POST);
   * messages the reply carries still arrive through the sink.
   */
  send(message: object, options?: SendOptions): Promise<void> | undefined;
  /** The caller no longer wants the reply to this request: release what carries it. */
  abandon(id: RequestId): void;
  close(): Promise<void>;
  /** A short description for error messages: the command line, or the URL. */
  describe(): string;
}
