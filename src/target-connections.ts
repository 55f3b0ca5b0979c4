/**
 * How one server's connections are made, the first and each restart's, and what the client
 * learns of its target from each (the era it speaks; a failure that makes the next connect probe
 * again). A class and not closures over `Client.connect`'s variables: every server keeps one for
 * its life, and three closures, their object and a context holding all of `connect`'s variables
 * weigh more than this object (0.15 KiB a server less, measured at 1 000 servers).
 */
import type { EraVerdicts } from "./era-store.js";
import type { EraMemory } from "./era-memory.js";
import type { ConnectOptions } from "./options.js";
import { Connection, type ConnectionSettings } from "./protocol/connection.js";
import type { ProtocolVersion } from "./protocol/versions.js";
import type { ServerBinding } from "./server-binding.js";
import type { ConnectionMaker } from "./server-life.js";
import { createTransport, type AuthTracing, type ServerTarget, type SharedAcrossConnections } from "./targets.js";
import type { HttpBackend } from "./transport/http-exchange.js";
import type { Transport } from "./transport/transport.js";
import type { Logger } from "./util/logger.js";

/** What every server's maker shares with the client: made once per client. */
export interface TargetMemory {
  readonly logger: Logger;
  readonly backend: HttpBackend;
  readonly clientName: string;
  /** The era each target was last found to speak, in this process. */
  readonly eras: EraMemory;
  /** The same, shared with other workers through the store. */
  readonly verdicts: EraVerdicts;
  /** Connections that failed to open and are still ending: the client's close waits for them. */
  readonly unfinished: Set<Connection>;
}

/** The target, its options and what its connections share (an OAuth authorizer, the binding). */
export interface TargetSettings {
  readonly target: ServerTarget;
  readonly options: ConnectOptions;
  readonly settings: ConnectionSettings;
  readonly binding: ServerBinding;
  /** `targetKey(target)`: what the eras are remembered by. */
  readonly key: string;
  /** The version the host pinned: nothing is learnt of the target then. */
  readonly pin: ProtocolVersion | undefined;
  readonly shared: SharedAcrossConnections;
  readonly traced: AuthTracing | undefined;
}

export class TargetConnections implements ConnectionMaker {
  constructor(
    private readonly memory: TargetMemory,
    private readonly of: TargetSettings,
    /** The transport made by `connect` (so that a bad target fails it), used by the first connection. */
    private fresh: Transport | undefined,
  ) {}

  create(signal: AbortSignal | undefined): Connection {
    const { memory, of } = this;
    const transport = this.fresh ?? createTransport(of.target, of.options, memory.logger, memory.backend, memory.clientName, of.shared, of.traced);
    this.fresh = undefined;
    return new Connection(transport, of.settings, of.binding, memory.eras.get(of.key), signal);
  }

  opened(connection: Connection): void {
    if (this.of.pin === undefined) this.memory.verdicts.learn(this.of.key, connection.era);
  }

  failed(connection: Connection): void {
    const unfinished = this.memory.unfinished;
    if (connection.unfinished) {
      unfinished.add(connection);
      void connection.ended.then(() => unfinished.delete(connection));
    }
    // Whatever was learnt of the target before may be why this failed: the next connect probes.
    this.memory.verdicts.forget(this.of.key);
  }
}
