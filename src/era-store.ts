/**
 * The era verdicts of a client: its own memory (`EraMemory`) and, behind it, the client's
 * `Store`, so that a fresh worker (another process) connects to a target some worker already
 * knows without probing it first.
 *
 * What is written: `conduit:era:<target hash>` → `"legacy"` or `"modern"`, for a day. The hash
 * is `targetKey`'s (no URL query, user info, environment or argument in clear), never the target.
 * A day because the verdict is a shortcut that is checked on every use (a connect that fails
 * forgets it and the next probes): a server that changed era costs one failed shortcut within
 * the day, and an entry for a target no worker reaches any more does not stay for ever.
 *
 * The store is a shortcut too: a read or a write that fails (or hangs past `STORE_CALL_BOUND_MS`)
 * costs a probe and one warning through the client's logger, never the connect.
 */
import type { EraMemory } from "./era-memory.js";
import type { Era } from "./protocol/versions.js";
import type { Store } from "./stores/store.js";
import type { Logger } from "./util/logger.js";
import { storeCall } from "./util/store-bound.js";

export const ERA_STORE_TTL_MS = 24 * 60 * 60 * 1000;
const PREFIX = "conduit:era:";

export class EraVerdicts {
  /** Targets whose read failed: the write that follows their connect does not warn a second time. */
  private readonly warned = new Set<string>();

  constructor(
    readonly memory: EraMemory,
    /** The host's store; undefined for the client's own memory store, which would only repeat the memory unbounded. */
    private readonly store: Store | undefined,
    private readonly logger: Logger,
  ) {}

  /** The verdict for `key`: this client's memory first, then the store (which then fills the memory). */
  async recall(key: string): Promise<Era | undefined> {
    const known = this.memory.get(key);
    const store = this.store;
    if (known !== undefined || store === undefined) return known;
    let stored: string | undefined;
    try {
      stored = await storeCall("reading the era of a target", () => store.get(PREFIX + key));
    } catch (error) {
      this.warn(error);
      if (this.warned.size < 100) this.warned.add(key);
      return undefined;
    }
    // What another process wrote is read, not trusted: anything else is no verdict (a probe).
    if (stored !== "legacy" && stored !== "modern") return undefined;
    // A verdict learnt meanwhile by this client's own connect wins.
    if (this.memory.get(key) === undefined) this.memory.set(key, stored);
    return this.memory.get(key);
  }

  learn(key: string, era: Era): void {
    const changed = this.memory.get(key) !== era;
    this.memory.set(key, era);
    // What the store holds is already this (it was read from there, or written before).
    if (changed) void this.quietly(key, "writing the era of a target", (store) => store.set(PREFIX + key, era, { ttlMs: ERA_STORE_TTL_MS }));
  }

  forget(key: string): void {
    this.memory.delete(key);
    void this.quietly(key, "forgetting the era of a target", (store) => store.delete(PREFIX + key));
  }

  private async quietly(key: string, step: string, call: (store: Store) => Promise<void>): Promise<void> {
    const store = this.store;
    if (store === undefined) return;
    const warned = this.warned.delete(key);
    try {
      await storeCall(step, () => call(store));
    } catch (error) {
      if (warned) this.logger.debug((error as Error).message);
      else this.warn(error);
    }
  }

  private warn(error: unknown): void {
    this.logger.warn(`${(error as Error).message}; the client connects without the remembered era (a probe)`);
  }
}
