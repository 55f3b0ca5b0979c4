/**
 * Pinning: tools that cannot change behind the user's back. The fingerprints of a server's tools
 * (`tool-fingerprint.ts`) are kept in a store under `conduit:pins:<serverId>`, trusting the first
 * listing of that id (trust on first use). Each later listing the catalog gets is compared with
 * the one before it (the last one kept, for a fresh Client) and what was added, removed or
 * changed is reported. The policy says which tools then wait for the host (`approve`):
 *
 * - `"report"`: none; the new fingerprints are approved as they come.
 * - `"block-changed"`: a tool whose fingerprint is not its approved one; new tools are approved.
 * - `"approve-new"`: those, and every tool new since the first listing.
 *
 * Pins of a tool that went away are kept: a tool that comes back is judged by what was approved.
 * At most `MAX_GONE_PINS` of them, the oldest approved forgotten first: a server that lists new
 * names each time would otherwise grow the pins (and each write of them to the store) for ever.
 * Once a server id had pins forgotten, a name without a pin may be one of them coming back with
 * a new definition: under `"block-changed"` it then waits for approval too (as `"new"`), for good
 * (kept in the store), so that a flood of names cannot wash out a pin and slip a change past it.
 * Each Client reads the store once per server id and writes it after each change; Clients that
 * share a store see each other's approvals from their next start (last write wins).
 */
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import type { Logger } from "../util/logger.js";
import type { Store } from "../stores/store.js";
import type { Tool } from "../protocol/types/index.js";
import { quote } from "../util/text.js";
import type { CatalogChange, PinningPolicy } from "../options.js";
import { toolFingerprint } from "./tool-fingerprint.js";
import type { ToolApprovalReason } from "./tool-pin-error.js";

export type { CatalogChange, PinningPolicy };

export interface ToolPinsSettings {
  store: Store;
  policy: PinningPolicy;
  logger: Logger;
  /** Told of each change; must not throw (the Client guards the host's hook). */
  report(change: CatalogChange): void;
}

type Prints = Map<string, string>;

/** What is known of one server id. */
interface ServerPins {
  approved: Prints;
  /** Pins of this server id were forgotten (`MAX_GONE_PINS`): a name without one is not trusted as new. */
  forgot: boolean;
  /** The fingerprints of the listing judged last. */
  last: Prints;
  /** The tools of that listing that wait for approval, and why. */
  waiting: Map<string, ToolApprovalReason>;
  /** Grows with every change of `waiting`, so that a filtered list is made again. */
  version: number;
}

const KEY_PREFIX = "conduit:pins:";
/** Pins kept of tools the server no longer lists, beyond those of the tools it lists now. */
export const MAX_GONE_PINS = 1_000;

export class ToolPins {
  private readonly servers = new Map<string, ServerPins>();
  /** Per server, the end of the last judgement: one at a time, in the order the listings came. */
  private readonly turns = new Map<string, Promise<unknown>>();
  private readonly judged = new WeakMap<readonly unknown[], Promise<void>>();
  private readonly kept = new WeakMap<readonly unknown[], { version: number; items: readonly unknown[] }>();

  constructor(private readonly settings: ToolPinsSettings) {}

  /** The tools of a listing that do not wait for approval (the very array when that is all of them). */
  async admit(serverId: string, items: readonly unknown[]): Promise<readonly unknown[]> {
    await this.judge(serverId, items);
    const pins = this.servers.get(serverId);
    if (pins === undefined || pins.waiting.size === 0) return items;
    const made = this.kept.get(items);
    if (made !== undefined && made.version === pins.version) return made.items;
    const kept = (items as Tool[]).filter((tool) => !pins.waiting.has(tool.name));
    this.kept.set(items, { version: pins.version, items: kept });
    return kept;
  }

  /** Why `name` waits for approval after the listing `items` was judged; undefined when it does not. */
  async waiting(serverId: string, items: readonly unknown[] | undefined, name: string): Promise<ToolApprovalReason | undefined> {
    if (items !== undefined) await this.judge(serverId, items);
    return this.servers.get(serverId)?.waiting.get(name);
  }

  /** Approves the current fingerprints of `names`, as the last listing of `serverId` gave them. */
  async approve(serverId: string, given: readonly string[]): Promise<void> {
    if (typeof serverId !== "string" || serverId === "") throw new InvalidArgumentError("approveTools: serverId must be a non-empty string");
    if (!isNames(given)) throw new InvalidArgumentError("approveTools: names must be an array of tool names (strings)");
    await this.turns.get(serverId);
    const pins = this.servers.get(serverId);
    if (pins === undefined) throw new ClientError("usage", `approveTools: the catalog has not listed the tools of server "${serverId}"`, { serverId });
    const listed = given.filter((name) => pins.last.has(name));
    const unknown = given.filter((name) => !pins.last.has(name));
    if (unknown.length > 0) throw new ClientError("usage", `approveTools: server "${serverId}" did not list ${unknown.map((name) => quote(name)).join(", ")} when the catalog listed it last`, { serverId });
    for (const name of listed) {
      pins.approved.set(name, pins.last.get(name)!);
      pins.waiting.delete(name);
    }
    pins.version++;
    await this.save(serverId, pins);
  }

  private judge(serverId: string, items: readonly unknown[]): Promise<void> {
    let done = this.judged.get(items);
    if (done === undefined) {
      done = (this.turns.get(serverId) ?? Promise.resolve()).then(() => this.compare(serverId, items));
      this.judged.set(items, done);
      this.turns.set(serverId, done.catch(() => {}));
      // A judgement that failed (a store that did not answer) is made again by the next ask.
      done.catch(() => this.judged.delete(items));
    }
    return done;
  }

  private async compare(serverId: string, items: readonly unknown[]): Promise<void> {
    const current = await fingerprints(items as Tool[]);
    let pins = this.servers.get(serverId);
    if (pins === undefined) {
      const stored = await this.load(serverId);
      if (stored === undefined) {
        // Trust on first use: what this server id lists first is what it is held to.
        pins = { approved: new Map(current), forgot: false, last: current, waiting: new Map(), version: 0 };
        this.servers.set(serverId, pins);
        await this.save(serverId, pins);
        return;
      }
      pins = { ...stored, waiting: new Map(), version: 0 };
      this.servers.set(serverId, pins);
    }
    const change = difference(serverId, pins.last, current);
    const policy = this.settings.policy;
    const waiting = new Map<string, ToolApprovalReason>();
    let dirty = change !== undefined;
    // A name without a pin is trusted as new unless the policy asks, or pins were forgotten.
    const holdsNew = policy === "approve-new" || (policy === "block-changed" && pins.forgot);
    for (const [name, print] of current) {
      const pin = pins.approved.get(name);
      if (pin === print) continue;
      if (pin === undefined ? holdsNew : policy !== "report") waiting.set(name, pin === undefined ? "new" : "changed");
      else {
        pins.approved.set(name, print);
        dirty = true;
      }
    }
    if (forgetGone(pins.approved, current)) {
      pins.forgot = true;
      dirty = true;
    }
    pins.last = current;
    pins.waiting = waiting;
    pins.version++;
    // A listing like the one before it (a cache hint that passed) costs the store nothing.
    if (dirty) await this.save(serverId, pins);
    if (change !== undefined) this.settings.report(change);
  }

  private async load(serverId: string): Promise<Pick<ServerPins, "approved" | "forgot" | "last"> | undefined> {
    // A store that fails is thrown to the listing: judging without the pins would trust anew.
    const text = await this.settings.store.get(KEY_PREFIX + serverId);
    if (text === undefined) return undefined;
    const record = parseRecord(text);
    if (record === undefined) this.settings.logger.warn(`the pins kept for server "${serverId}" are not readable; its tools are trusted anew`);
    return record;
  }

  private async save(serverId: string, pins: ServerPins): Promise<void> {
    const record = { v: 1, approved: Object.fromEntries(pins.approved), last: Object.fromEntries(pins.last), ...(pins.forgot ? { forgot: true } : {}) };
    try {
      await this.settings.store.set(KEY_PREFIX + serverId, JSON.stringify(record));
    } catch (error) {
      // This Client still holds them; another Client would trust what it lists first.
      this.settings.logger.warn(`the pins of server "${serverId}" could not be kept in the store: ${(error as Error).message}`);
    }
  }
}

function isNames(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((name) => typeof name === "string");
}

/** Each name's fingerprint, the first tool of a name listed twice (as the catalog keeps it). */
async function fingerprints(tools: readonly Tool[]): Promise<Prints> {
  const firsts = new Map<string, Tool>();
  for (const tool of tools) if (!firsts.has(tool.name)) firsts.set(tool.name, tool);
  const prints = await Promise.all([...firsts.values()].map((tool) => toolFingerprint(tool)));
  const made: Prints = new Map();
  let i = 0;
  for (const name of firsts.keys()) made.set(name, prints[i++]!);
  return made;
}

/**
 * Drops the pins of tools not in `current`, oldest approved first, down to `MAX_GONE_PINS` of
 * them (counted as gone: a name listed now but waiting has no pin, and is not one of them); true
 * when any was dropped.
 */
function forgetGone(approved: Prints, current: Prints): boolean {
  let gone = 0;
  for (const name of approved.keys()) if (!current.has(name)) gone++;
  let excess = gone - MAX_GONE_PINS;
  if (excess <= 0) return false;
  for (const name of approved.keys()) {
    if (excess <= 0) break;
    if (current.has(name)) continue;
    approved.delete(name);
    excess--;
  }
  return true;
}

function difference(serverId: string, before: Prints, after: Prints): CatalogChange | undefined {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [name, print] of after) {
    const was = before.get(name);
    if (was === undefined) added.push(name);
    else if (was !== print) changed.push(name);
  }
  for (const name of before.keys()) if (!after.has(name)) removed.push(name);
  if (added.length + changed.length + removed.length === 0) return undefined;
  return { serverId, added, removed, changed };
}

function parseRecord(text: string): Pick<ServerPins, "approved" | "forgot" | "last"> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return undefined;
    const approved = prints((value as Record<string, unknown>)["approved"]);
    const last = prints((value as Record<string, unknown>)["last"]);
    const forgot = (value as Record<string, unknown>)["forgot"] === true;
    return approved === undefined || last === undefined ? undefined : { approved, forgot, last };
  } catch {
    return undefined;
  }
}

function prints(value: unknown): Prints | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const made: Prints = new Map();
  for (const [name, print] of Object.entries(value)) {
    if (typeof print !== "string") return undefined;
    made.set(name, print);
  }
  return made;
}
