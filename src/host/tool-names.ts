/**
 * A tool's qualified name: what a model calls it by, across every server of a Client. It is a
 * function of the server id and the tool name alone, never of what other servers list or in
 * which order, so that a name handed to a model keeps its meaning for the Client's life. Every
 * name fits what the model APIs take (`^[a-zA-Z0-9_-]{1,64}$`). Two forms, which never meet:
 *
 * - **plain**, `<serverId>_<name>`, when the id is letters, digits and `-` (no `_`), the name is
 *   letters, digits, `_` and `-` with no `__` and no `_` first, and the whole fits in 64. The
 *   first `_` is then where the id ends, so no two pairs share a plain name, and no plain name
 *   holds `__`.
 * - **hashed**, `<readable>__<hash>`, for every other pair: `readable` is the pair as above with
 *   any other character made `_`, cut to fit; `hash` is 14 base-36 digits of a 64-bit FNV-1a of
 *   the exact pair (the id's length, the id, the name's length, the name, as UTF-16). Every
 *   hashed name holds `__`, and ends in its hash: two are equal only when their hashes are.
 *
 * Two pairs can share a hash only by chance (of the order of n² / 2^65 for n hashed names), or
 * by a server that searched for one. So the hashed names a Client issued are kept, with their
 * pair: a pair whose hash another pair already holds takes the next salted hash (the same pair,
 * the same one every time), and no hashed name is ever given to a second pair.
 */
import { Fnv1a64 } from "../util/fnv1a64.js";

/** The server and the tool's own name that a qualified name stands for. */
export interface ToolOwner {
  readonly serverId: string;
  readonly name: string;
}

/** A hash of the exact pair, salted; `salt` 0 is the pure name's. */
export type PairHash = (serverId: string, name: string, salt: number) => string;

const MAX = 64;
const MARK = "__";
const PLAIN_ID = /^[a-zA-Z0-9-]+$/;
const PLAIN_NAME = /^[a-zA-Z0-9-][a-zA-Z0-9_-]*$/;
const UNSAFE = /[^a-zA-Z0-9_-]/gu;

export const pairHash: PairHash = (serverId, name, salt) => new Fnv1a64().uint32(serverId.length).units(serverId).uint32(name.length).units(name).uint32(salt).base36();

/** The plain name of a pair, or undefined when the pair has none. */
function plainName(serverId: string, name: string): string | undefined {
  if (serverId.length + 1 + name.length > MAX) return undefined;
  if (!PLAIN_ID.test(serverId) || !PLAIN_NAME.test(name) || name.includes(MARK)) return undefined;
  return `${serverId}_${name}`;
}

function readable(serverId: string, name: string, hashLength: number): string {
  return `${serverId}_${name}`.replace(UNSAFE, "_").slice(0, MAX - MARK.length - hashLength);
}

/** The qualified name of a pair as a pure function (no Client's history: a hash collision is not seen). */
export function qualifiedName(serverId: string, name: string, hash: PairHash = pairHash): string {
  const plain = plainName(serverId, name);
  if (plain !== undefined) return plain;
  const digest = hash(serverId, name, 0);
  return `${readable(serverId, name, digest.length)}${MARK}${digest}`;
}

/** The names one Client issued: the plain ones are their own record, the hashed ones are kept. */
export class ToolNames {
  /** Every hashed name issued, and its pair: kept for the Client's life, so that none is reused. */
  private readonly hashed = new Map<string, ToolOwner>();

  constructor(private readonly hash: PairHash = pairHash) {}

  /** The qualified name of `name` of server `serverId`: the same every time, never another pair's. */
  issue(serverId: string, name: string): string {
    const plain = plainName(serverId, name);
    if (plain !== undefined) return plain;
    for (let salt = 0; ; salt++) {
      const digest = this.hash(serverId, name, salt);
      const candidate = `${readable(serverId, name, digest.length)}${MARK}${digest}`;
      const owner = this.hashed.get(candidate);
      if (owner === undefined) {
        this.hashed.set(candidate, { serverId, name });
        return candidate;
      }
      if (owner.serverId === serverId && owner.name === name) return candidate;
    }
  }

  /**
   * The pair a name stands for: a plain name is read (whether or not any server lists it), a
   * hashed one looked up among those issued. Undefined for a name this Client never gave.
   */
  owner(qualified: string): ToolOwner | undefined {
    if (qualified.includes(MARK)) return this.hashed.get(qualified);
    const split = qualified.indexOf("_");
    if (split <= 0) return undefined;
    const serverId = qualified.slice(0, split);
    const name = qualified.slice(split + 1);
    return plainName(serverId, name) === qualified ? { serverId, name } : undefined;
  }
}
