/**
 * The era each target was found to speak, so that a later connect to it goes straight to that
 * era: a shortcut that can fail (a connect that fails forgets it, and the next one probes).
 *
 * A client may reach many targets over its life (a gateway: one per user and server), so the
 * memory is bounded: past `ERA_MEMORY_BOUND` targets the least recently used is forgotten, which
 * costs its next connect one probe. And it outlives the servers it was learnt from, so it keeps
 * nothing secret: a target is known by what names the server — a URL's origin and path (no
 * query, fragment or user info), a command with its arguments and directory (no environment)
 * — and that is kept only as a 64-bit hash (FNV-1a), since an argument may hold a token too.
 * Targets that differ only in what is left out share a verdict; a collision costs one probe.
 */
import type { Era } from "./protocol/versions.js";
import type { ServerTarget } from "./targets.js";
import { Fnv1a64 } from "./util/fnv1a64.js";

export const ERA_MEMORY_BOUND = 1_000;

export class EraMemory {
  /** In order of use, the least recent first (a Map keeps insertion order). */
  private readonly eras = new Map<string, Era>();

  constructor(private readonly bound: number = ERA_MEMORY_BOUND) {}

  get size(): number {
    return this.eras.size;
  }

  get(key: string): Era | undefined {
    const era = this.eras.get(key);
    if (era !== undefined) this.touch(key, era);
    return era;
  }

  set(key: string, era: Era): void {
    this.touch(key, era);
    if (this.eras.size > this.bound) this.eras.delete(this.eras.keys().next().value!);
  }

  delete(key: string): void {
    this.eras.delete(key);
  }

  private touch(key: string, era: Era): void {
    this.eras.delete(key);
    this.eras.set(key, era);
  }
}

/** What identifies a target across connects, without its secrets (see above). */
export function targetKey(target: ServerTarget): string {
  if (!("command" in target) && !("url" in target)) return channelKey(target.transport);
  if ("command" in target) {
    const args: unknown = target.args;
    return digest(JSON.stringify(["stdio", String(target.command), Array.isArray(args) ? (args as unknown[]).map(String) : [], String(target.cwd ?? "")]));
  }
  return digest(JSON.stringify(["http", serverUrl(String(target.url))]));
}

/**
 * A host's own transport names nothing outside this process: it is known by the object (or the
 * function that makes it), under a random key, so that no verdict of it can meet another's,
 * in this process or in a store shared with others.
 */
const channelKeys = new WeakMap<object, string>();
function channelKey(transport: object): string {
  let key = channelKeys.get(transport);
  if (key === undefined) {
    const random = crypto.getRandomValues(new Uint8Array(16));
    key = digest(JSON.stringify(["channel", Array.from(random).join(".")]));
    channelKeys.set(transport, key);
  }
  return key;
}

/** A URL's origin and path: what names the server, not how it was reached (`?token=`). */
function serverUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    // Not a URL (the transport refuses it before anything is remembered): the hash hides it.
    return url;
  }
}

/** Not a secure hash: it keeps a token out of the memory, and a collision only costs a probe. */
function digest(text: string): string {
  return new Fnv1a64().units(text).hex();
}
