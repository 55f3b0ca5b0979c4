/**
 * A transport the host brings: JSON-RPC over a channel of its own (a WebSocket, a MessagePort,
 * an in-process server in a test). The host implements the public `Transport` shape, the one
 * the stdio and HTTP transports have, with the members a plain channel has no use for left out;
 * this adapter stands between it and the core, so that a host's channel gets every check a pipe
 * gets:
 *
 * - what arrives is bounded like a line of stdio: text by `maxMessageBytes`, an object by the
 *   same bound on the JSON it would be (and a depth), walked once without serialising it;
 *   over the bound, the connection ends with a `"transport"` error, as stdio's does;
 * - an object is copied as it is accepted, so that an in-process server that changes it later
 *   cannot change what the checks saw;
 * - whatever the host's code throws or rejects with becomes a `"transport"` ClientError naming
 *   the channel; nothing of it escapes into the core's own flow;
 * - after the channel closed, or before it started, nothing it delivers is taken.
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { measureJson } from "../util/json-measure.js";
import type { RequestId } from "../util/json.js";
import { messageText } from "../util/message-text.js";
import { excerpt } from "../util/text.js";
import type { EraPolicy, InboundMeta, SendOptions, Transport, TransportSink } from "./transport.js";

/** What a host's transport delivers: each arriving message, and its end. */
export interface ChannelSink {
  /** One message: JSON text, or a JSON value already parsed (a structured clone, an in-process object). */
  message(message: string | object, meta?: InboundMeta): void;
  /** The channel ended; `error` says why when it broke rather than closed. */
  closed(error?: unknown): void;
}

/**
 * A host's own transport. `start` is called once, before anything is sent; `send` once per
 * message, in order (a request carries its `id`); `close` when the connection ends (and it
 * should call the sink's `closed` then, or as soon as its channel ends on its own).
 */
export interface HostTransport {
  start(sink: ChannelSink, signal?: AbortSignal): void | Promise<void>;
  /** One JSON-RPC message, as an object; a channel of text sends `JSON.stringify(message)`. */
  send(message: object, id: RequestId | undefined, options: SendOptions | undefined): void | Promise<void>;
  close(): void | Promise<void>;
  /** Ends at once (default: `close`). */
  destroy?(): void | Promise<void>;
  /** The caller no longer wants the reply to request `id`. */
  abandon?(id: RequestId): void;
  /** The negotiated era's rules, for a channel that cares (most do not). */
  configure?(policy: EraPolicy): void;
  /** For error messages: what the channel leads to (no secrets). */
  describe?(): string;
}

/** A server reached over a host's own transport; a function makes a fresh one for each connection (restarts). */
export interface ChannelTarget {
  transport: HostTransport | (() => HostTransport);
}

/** The depth of an object a channel delivers: far past any message of the protocol. */
export const MAX_CHANNEL_DEPTH = 256;

type State = "idle" | "starting" | "open" | "closed";

/** The host's transports started so far: each serves one connection (a second start would share its channel). */
const started = new WeakSet<HostTransport>();

export class ChannelTransport implements Transport {
  readonly kind = "channel";
  readonly origin = undefined;
  private state: State = "idle";
  private sink: TransportSink | undefined;
  private ending: Promise<void> | undefined;
  private readonly name: string;

  constructor(
    private readonly host: HostTransport,
    private readonly maxMessageBytes: number,
  ) {
    let name = "a host's transport";
    try {
      const described = host.describe?.();
      if (typeof described === "string" && described !== "") name = excerpt(described, 200);
    } catch {
      // A describe() that throws names nothing; the default does.
    }
    this.name = name;
  }

  describe(): string {
    return this.name;
  }

  async start(sink: TransportSink, signal?: AbortSignal): Promise<void> {
    if (this.state !== "idle" || started.has(this.host)) {
      throw new ClientError("usage", `${this.name} was already started: a transport serves one connection (give a function that makes one, for reconnects and restarts)`);
    }
    started.add(this.host);
    this.sink = sink;
    this.state = "starting";
    const channelSink: ChannelSink = {
      message: (message, meta) => this.receive(message, meta),
      closed: (error) => this.ended(error),
    };
    try {
      await this.host.start(channelSink, signal);
    } catch (error) {
      this.state = "closed";
      throw this.failure("could not start", error);
    }
    if (this.state === "starting") this.state = "open";
  }

  send(message: object, id: RequestId | undefined, options: SendOptions | undefined): Promise<void> | undefined {
    if (this.state !== "open") return undefined;
    // The checks the other transports make: a message that cannot be JSON is the caller's mistake.
    try {
      messageText(message);
    } catch (error) {
      throw new InvalidArgumentError(`message is not serialisable to JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    let sent: void | Promise<void>;
    try {
      sent = this.host.send(message, id, options);
    } catch (error) {
      throw this.failure("could not send a message", error);
    }
    if (sent === undefined || typeof (sent as Promise<void> | undefined)?.then !== "function") return undefined;
    return Promise.resolve(sent).catch((error: unknown) => {
      throw this.failure("could not send a message", error);
    });
  }

  abandon(id: RequestId): void {
    this.guarded(() => this.host.abandon?.(id));
  }

  configure(policy: EraPolicy): void {
    this.guarded(() => this.host.configure?.(policy));
  }

  close(): Promise<void> {
    return this.end(() => this.host.close());
  }

  destroy(): Promise<void> {
    return this.end(() => (this.host.destroy ?? this.host.close).call(this.host));
  }

  private end(how: () => void | Promise<void>): Promise<void> {
    if (this.ending !== undefined) return this.ending;
    const wasOpen = this.state !== "idle" && this.state !== "closed";
    this.state = "closed";
    this.ending = (async () => {
      if (!wasOpen) return;
      try {
        await how();
      } catch {
        // The connection is over either way; a channel that fails to close has nothing left to say.
      }
      this.report(undefined);
    })();
    return this.ending;
  }

  private receive(message: unknown, meta: InboundMeta | undefined): void {
    if (this.state !== "open" && this.state !== "starting") return;
    const sink = this.sink;
    if (sink === undefined) return;
    if (typeof message === "string") {
      if (message.length > this.maxMessageBytes || (message.length * 3 > this.maxMessageBytes && new TextEncoder().encode(message).length > this.maxMessageBytes)) {
        return this.broke(`a message of more than maxMessageBytes (${this.maxMessageBytes} bytes) arrived`);
      }
      let value: unknown;
      try {
        value = JSON.parse(message);
      } catch {
        sink.parseError(excerpt(message), meta);
        return;
      }
      sink.message(value, meta);
      return;
    }
    const measured = measureJson(message, this.maxMessageBytes, MAX_CHANNEL_DEPTH);
    if (!measured.ok) {
      if (measured.reason === "not-json") {
        sink.parseError("(a value that is not JSON)", meta);
        return;
      }
      const what = measured.reason === "too-deep" ? `nested deeper than ${MAX_CHANNEL_DEPTH}` : `of more than maxMessageBytes (${this.maxMessageBytes} bytes)`;
      return this.broke(`a message ${what} arrived`);
    }
    // A copy: what the checks judge is what the client keeps, whatever the sender does next.
    sink.message(JSON.parse(JSON.stringify(message)) as unknown, meta);
  }

  private broke(why: string): void {
    const error = new ClientError("transport", `${why}; closing the connection to ${this.name}`);
    void this.end(() => this.host.close()).then(undefined, () => undefined);
    // The end above reports a clean close; the reason goes first.
    this.report(error);
  }

  private ended(error: unknown): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.ending ??= Promise.resolve();
    this.report(error === undefined ? new ClientError("transport", `${this.name} ended the connection`) : this.failure("broke", error));
  }

  private reported = false;

  /** Tells the core of the end once: its first cause, or nothing when the client closed it. */
  private report(error: ClientError | undefined): void {
    if (this.reported) return;
    this.reported = true;
    this.sink?.closed(error);
  }

  private guarded(step: () => void): void {
    try {
      step();
    } catch {
      // Advice to the channel (a released reply, the era's rules): its failure changes nothing here.
    }
  }

  private failure(what: string, error: unknown): ClientError {
    if (error instanceof ClientError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new ClientError("transport", `${this.name} ${what}: ${excerpt(message, 300)}`, { cause: error });
  }
}
