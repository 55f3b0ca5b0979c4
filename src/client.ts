/**
 * The Client: one Handler, many servers, each under an id the operator chose. It owns the
 * registry of server handles, the options every connection shares, and the delivery of server
 * notifications to subscribers.
 */
import { Connection, type ConnectionHooks } from "./protocol/connection.js";
import type { InputFeatures } from "./protocol/capabilities.js";
import type { Implementation } from "./protocol/types/index.js";
import { CONNECT_DEFAULTS, resolveClientOptions, type ClientOptions, type ConnectOptions, type ResolvedClientOptions } from "./options.js";
import { ServerHandle } from "./server.js";
import { createTransport, type ServerTarget } from "./targets.js";
import { ClientError, ErrorCode, InvalidArgumentError } from "./util/errors.js";

export interface ServerNotification {
  serverId: string;
  method: string;
  params: Record<string, unknown>;
}

export type NotificationListener = (notification: ServerNotification) => unknown;

export class Client {
  private readonly options: ResolvedClientOptions;
  private readonly registry = new Map<string, ServerHandle>();
  private readonly listeners = new Set<NotificationListener>();
  private closing: Promise<void> | undefined;

  constructor(options: ClientOptions) {
    this.options = resolveClientOptions(options);
  }

  /** `clientInfo` as sent to servers. */
  get clientInfo(): Implementation {
    const info: Implementation = { name: this.options.name, version: this.options.version };
    if (this.options.title !== undefined) info.title = this.options.title;
    return info;
  }

  /**
   * Starts (stdio) or reaches (HTTP) a server, negotiates, and registers it under `serverId`.
   * An id in use is refused; on failure nothing stays registered or running.
   */
  async connect(serverId: string, target: ServerTarget, options: ConnectOptions = {}): Promise<ServerHandle> {
    if (typeof serverId !== "string" || serverId === "") throw new InvalidArgumentError("serverId must be a non-empty string");
    if (this.closing !== undefined) throw new ClientError("closed", "the client is closed", { serverId });
    if (this.registry.has(serverId)) {
      throw new ClientError("usage", `a server with id "${serverId}" is already connected`, { serverId });
    }
    const transport = createTransport(target, options, this.options.logger);
    const ref: { handle?: ServerHandle } = {};
    const connection = new Connection(
      transport,
      {
        serverId,
        logger: this.options.logger,
        clientInfo: this.clientInfo,
        features: this.features(),
        protocolVersion: options.protocolVersion,
        connectTimeout: options.connectTimeout ?? CONNECT_DEFAULTS.connectTimeout,
        signal: options.signal,
        requestTimeout: this.options.requestTimeout,
      },
      this.hooks(serverId, () => ref.handle),
    );
    const handle = new ServerHandle(serverId, connection, this.options.logger);
    ref.handle = handle;
    this.registry.set(serverId, handle);
    try {
      await connection.open();
    } catch (error) {
      this.forget(serverId, handle);
      handle.markClosed(undefined);
      throw error instanceof ClientError ? error.withServer(serverId) : error;
    }
    handle.markReady();
    return handle;
  }

  /** The handle registered under `serverId`, if any. */
  server(serverId: string): ServerHandle | undefined {
    return this.registry.get(serverId);
  }

  /** Every registered handle (connecting and ready). */
  servers(): ServerHandle[] {
    return [...this.registry.values()];
  }

  /** Subscribes to every server notification the client does not consume itself. */
  onNotification(listener: NotificationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes every server. Idempotent; the client accepts no new connection afterwards. */
  close(): Promise<void> {
    this.closing ??= Promise.all(this.servers().map((handle) => handle.close())).then(() => undefined);
    return this.closing;
  }

  // ---- wiring ----------------------------------------------------------------------------------

  private features(): InputFeatures {
    const handler = this.options.handler;
    const elicits = typeof handler?.handleElicitation === "function";
    return {
      sampling: typeof handler?.handleSampling === "function",
      elicitationModes: elicits ? (handler?.elicitationModes ?? ["form"]) : [],
      roots: typeof handler?.listRoots === "function",
    };
  }

  private hooks(serverId: string, handle: () => ServerHandle | undefined): ConnectionHooks {
    return {
      serverRequest: (request) => {
        request.fail(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
      },
      notification: (method, params) => this.notify({ serverId, method, params }),
      closed: (error) => {
        const current = handle();
        if (current === undefined) return;
        this.forget(serverId, current);
        current.markClosed(error);
      },
    };
  }

  private notify(notification: ServerNotification): void {
    for (const listener of this.listeners) {
      try {
        void Promise.resolve(listener(notification)).catch((error: unknown) =>
          this.options.logger.warn("a notification listener failed", { error }),
        );
      } catch (error) {
        this.options.logger.warn("a notification listener threw", { error });
      }
    }
  }

  private forget(serverId: string, handle: ServerHandle): void {
    if (this.registry.get(serverId) === handle) this.registry.delete(serverId);
  }
}
