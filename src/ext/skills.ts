/**
 * The host side of the skills extension (SEP-2640, `io.modelcontextprotocol/skills`) for one
 * server: list its skills (`skills/list`), get one entry (`skills/get`), and load a skill — read
 * its SKILL.md and verify it against the entry: size, digest, and front matter field by field.
 * Nothing is read ahead of need: listing reads no file, loading reads SKILL.md alone, and a
 * supporting file is read when `readFile` asks for it (`skills-loaded.ts`).
 *
 * Approval, tagging content with its origin, and which skills reach the model stay with the
 * host: a skill is its server and its `uri` (names repeat), and its content is untrusted input.
 * The extension asks nothing of the client's capabilities; its methods exist where the server
 * declared it, in either era.
 */
import { allPages } from "../protocol/results.js";
import type { CallOptions } from "../protocol/methods.js";
import { handlerOnly } from "../call-options.js";
import { SKILLS_EXTENSION } from "../protocol/methods.js";
import type { ReadResourceResult } from "../protocol/types/index.js";
import type { ListOptions, ServerHandle } from "../server.js";
import { knownKeys } from "../util/arguments.js";
import { ClientError, InvalidArgumentError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import { excerpt, quote } from "../util/text.js";
import { verifiedFile } from "./skills-content.js";
import { checkEntry, type SkillLimits } from "./skills-entry.js";
import { SkillError } from "./skills-error.js";
import { MAX_FRONTMATTER_BYTES, frontmatterDifferences, frontmatterTooLong, readFrontmatter, splitSkillDocument, type FrontmatterParser } from "./skills-frontmatter.js";
import { Skill } from "./skills-loaded.js";
import type { LoadedSkill, RefusedSkill, SkillEntry, SkillFile, SkillListing, SkillsOptions } from "./skills-types.js";
import { canonicalUri, type SkillLocation } from "./skills-uri.js";

export { SKILLS_EXTENSION };

/** The skills of one server. */
export interface ServerSkills {
  readonly serverId: string;
  /** Whether the server declared the extension; false while it is not connected. */
  readonly supported: boolean;
  /** Every entry of `skills/list`, all pages (at most `maxSkills`); invalid ones in `refused`. */
  list(options?: ListOptions): Promise<SkillListing>;
  /** One page of `skills/list`. */
  listPage(cursor?: string, options?: ListOptions): Promise<SkillListing>;
  /** The entry of the skill whose SKILL.md is `uri`, listed or not (`skills/get`). */
  get(uri: string, options?: ListOptions): Promise<SkillEntry>;
  /**
   * Loads a skill: an entry of `list` or `get`, or a SKILL.md URI (its entry is got first).
   * Reads its SKILL.md and verifies it; rejects with a `SkillError` when the entry is invalid
   * or over the bounds, or when the file fails verification.
   */
  load(skill: SkillEntry | string, options?: CallOptions): Promise<LoadedSkill>;
}

/** The host's bounds when it gives none. */
export const SKILLS_DEFAULTS = { maxSkills: 10_000, maxFiles: 512, maxBytes: 16 * 1024 * 1024 } as const;

/**
 * The server each entry handed out came from. A skill is its server and its URI: an entry of one
 * server is never loaded from another (SEP-2640: a skill of server A causes no read on server B).
 */
const origins = new WeakMap<object, string>();
const OPTION_KEYS: ReadonlySet<string> = new Set(["maxSkills", "maxFiles", "maxBytes", "allowDynamic", "parseFrontmatter"]);

/** The skills of `server`, with the host's bounds (checked here, once). */
export function skillsOf(server: ServerHandle, options: SkillsOptions = {}): ServerSkills {
  if (typeof server !== "object" || server === null || typeof server.request !== "function") throw new InvalidArgumentError("skillsOf needs a server handle");
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("skills options must be an object");
  knownKeys("skills options", options, OPTION_KEYS);
  if (options.parseFrontmatter !== undefined && typeof options.parseFrontmatter !== "function") throw new InvalidArgumentError("parseFrontmatter must be a function");
  return new Skills(server, {
    maxSkills: bound("maxSkills", options.maxSkills, SKILLS_DEFAULTS.maxSkills),
    maxFiles: bound("maxFiles", options.maxFiles, SKILLS_DEFAULTS.maxFiles),
    maxBytes: bound("maxBytes", options.maxBytes, SKILLS_DEFAULTS.maxBytes),
    allowDynamic: options.allowDynamic === true,
    parseFrontmatter: options.parseFrontmatter,
  });
}

/** A positive whole number, or `Infinity` for no bound; anything else is a mistake, not "no bound". */
function bound(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Infinity || (Number.isSafeInteger(value) && (value as number) > 0)) return value as number;
  throw new InvalidArgumentError(`skills option \`${name}\` must be a positive integer or Infinity, got ${quote(value)}`);
}

interface Settings extends SkillLimits {
  readonly maxSkills: number;
  readonly allowDynamic: boolean;
  readonly parseFrontmatter: FrontmatterParser | undefined;
}

/** Entries taken and refused. */
interface Sorted {
  readonly skills: SkillEntry[];
  readonly refused: RefusedSkill[];
}

class Skills implements ServerSkills {
  constructor(
    private readonly server: ServerHandle,
    private readonly settings: Settings,
  ) {}

  get serverId(): string {
    return this.server.id;
  }

  get supported(): boolean {
    if (this.server.state !== "ready") return false;
    const extensions: unknown = this.server.serverCapabilities?.extensions;
    return isObject(extensions) && Object.hasOwn(extensions, SKILLS_EXTENSION) && isObject(extensions[SKILLS_EXTENSION]);
  }

  async list(options?: ListOptions): Promise<SkillListing> {
    let ttlMs: number | undefined;
    let count = 0;
    // Every listing's walk and bounds (LIST_BOUNDS: pages, cursors, characters of JSON), and
    // maxSkills counted before a page is kept. The end of a list is the era's: 2026-07-28 takes
    // "" for a cursor, the legacy era for the end.
    // A lazy or restarting server's era is known once it is ready: the first use connects it.
    const ready = await this.server.ready({ timeout: options?.timeout, signal: options?.signal }).catch((error: unknown) => {
      throw error instanceof ClientError && error.serverId === undefined ? error.withServer(this.serverId) : error;
    });
    const skills = await allPages("skills/list", ready.era === "legacy", async (cursor) => {
      const page = await this.server.request("skills/list", cursor === undefined ? undefined : { cursor }, options);
      count += page.skills.length;
      this.withinMaxSkills(count);
      ttlMs = this.ttlOf(page.ttlMs, ttlMs);
      return { items: page.skills, nextCursor: page.nextCursor };
    }).catch((error: unknown) => {
      throw error instanceof ClientError && error.serverId === undefined ? error.withServer(this.serverId) : error;
    });
    return this.listing(this.sort(skills), undefined, ttlMs);
  }

  async listPage(cursor?: string, options?: ListOptions): Promise<SkillListing> {
    if (cursor !== undefined && typeof cursor !== "string") throw new InvalidArgumentError("a cursor must be a string");
    const page = await this.server.request("skills/list", cursor === undefined ? undefined : { cursor }, options);
    this.withinMaxSkills(page.skills.length);
    return this.listing(this.sort(page.skills), page.nextCursor, this.ttlOf(page.ttlMs, undefined));
  }

  async get(uri: string, options?: ListOptions): Promise<SkillEntry> {
    if (typeof uri !== "string" || uri === "") throw new InvalidArgumentError("a skill URI must be a non-empty string");
    const result = await this.server.request("skills/get", { uri }, options);
    const checked = this.checked(result.skill);
    if (canonicalUri(checked.entry.uri) !== canonicalUri(uri)) {
      throw new SkillError("entry", `skills/get for ${quote(uri)} answered with another skill, ${quote(checked.entry.uri)}`, { serverId: this.serverId, skillUri: uri, data: result.skill });
    }
    origins.set(checked.entry, this.serverId);
    return checked.entry;
  }

  async load(skill: SkillEntry | string, options?: CallOptions): Promise<LoadedSkill> {
    if (typeof skill !== "string" && !isObject(skill)) throw new InvalidArgumentError("load needs a skill entry or a SKILL.md URI");
    if (typeof skill !== "string") this.mine(skill);
    // A given entry is checked again: the host may have kept or built it.
    const { entry, location } = typeof skill === "string" ? this.checked(await this.get(skill, options)) : this.checked(skill);
    if (entry.resources === "dynamic" && !this.settings.allowDynamic) {
      throw new SkillError("dynamic", `skill ${quote(entry.uri)} has no digests ("resources": "dynamic"), and this host does not load such skills (allowDynamic)`, {
        serverId: this.serverId,
        skillUri: entry.uri,
        data: entry,
      });
    }
    const self = canonicalUri(entry.uri);
    const listed = entry.resources === "dynamic" ? undefined : entry.resources.find((file) => canonicalUri(file.uri) === self);
    const read = await this.server.readResource(entry.uri, handlerOnly("load", options));
    const file = await verifiedFile(read, { serverId: this.serverId, skillUri: entry.uri, uri: entry.uri, listed, budget: this.settings.maxBytes });
    const { body } = this.verifiedFrontmatter(entry, file, read);
    // The skill keeps its own copy of the entry it was loaded from: a listing the host changes
    // later does not change which files the loaded skill may read.
    const held = structuredClone(entry);
    return new Skill(this.server, { entry: held, location, frontmatter: held.frontmatter, body, file, maxBytes: this.settings.maxBytes });
  }

  /** The SKILL.md's body, once its front matter is found equal to the entry's. */
  private verifiedFrontmatter(entry: SkillEntry, file: SkillFile, read: ReadResourceResult): { body: string } {
    const fail = (message: string, differences?: string[]) =>
      new SkillError("frontmatter", message, { serverId: this.serverId, skillUri: entry.uri, fileUri: entry.uri, differences, data: read });
    const text = file.text ?? utf8(file.bytes);
    if (text === undefined) throw fail("SKILL.md is not UTF-8 text");
    const document = splitSkillDocument(text);
    if (typeof document === "string") throw fail(document);
    if (frontmatterTooLong(document.yaml)) {
      throw new SkillError("limit", `the front matter of ${excerpt(entry.uri)} is longer than the ${MAX_FRONTMATTER_BYTES} bytes this host reads`, {
        serverId: this.serverId,
        skillUri: entry.uri,
        fileUri: entry.uri,
        data: read,
      });
    }
    const parsed = readFrontmatter(document.yaml, this.settings.parseFrontmatter);
    if (typeof parsed === "string") throw fail(parsed);
    const differences = frontmatterDifferences(parsed, entry.frontmatter);
    if (differences.length > 0) throw fail(`the front matter of ${excerpt(entry.uri)} differs from its entry's: ${differences.slice(0, 3).join("; ")}`, differences);
    return { body: document.body };
  }

  /** Refuses an entry another server handed out. */
  private mine(entry: SkillEntry): void {
    const origin = origins.get(entry);
    if (origin === undefined || origin === this.serverId) return;
    throw new ClientError("usage", `skill ${quote(entry.uri)} was listed by server "${origin}", not by "${this.serverId}"`, { serverId: this.serverId });
  }

  /** An entry taken, or a `SkillError` saying why not. */
  private checked(raw: unknown): { entry: SkillEntry; location: SkillLocation } {
    const verdict = checkEntry(raw, this.settings);
    if (verdict.ok) return verdict;
    throw new SkillError(verdict.reason, `skill ${verdict.uri === undefined ? "entry" : quote(verdict.uri)}: ${verdict.message}`, { serverId: this.serverId, skillUri: verdict.uri, data: raw });
  }

  /**
   * The entries taken and those refused, in the server's order. A URI listed twice is refused
   * each time: which of the two the server meant cannot be known.
   */
  private sort(raw: readonly unknown[]): Sorted {
    const verdicts = raw.map((entry) => checkEntry(entry, this.settings));
    const counts = new Map<string, number>();
    for (const verdict of verdicts) {
      const key = verdict.ok ? canonicalUri(verdict.entry.uri) : undefined;
      if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const skills: SkillEntry[] = [];
    const refused: RefusedSkill[] = [];
    verdicts.forEach((verdict, index) => {
      if (!verdict.ok) return void refused.push({ index, uri: verdict.uri, reason: verdict.reason, message: verdict.message });
      if ((counts.get(canonicalUri(verdict.entry.uri) ?? "") ?? 0) > 1) {
        return void refused.push({ index, uri: verdict.entry.uri, reason: "entry", message: `${quote(verdict.entry.uri)} is listed more than once` });
      }
      origins.set(verdict.entry, this.serverId);
      skills.push(verdict.entry);
    });
    for (const skill of refused) this.server.dropped("skills/list", skill.index, skill.message);
    return { skills, refused };
  }

  private listing(page: Sorted, nextCursor: string | undefined, ttlMs: number | undefined): SkillListing {
    return { serverId: this.serverId, skills: page.skills, refused: page.refused, nextCursor, ttlMs };
  }

  private withinMaxSkills(count: number): void {
    if (count <= this.settings.maxSkills) return;
    throw new ClientError("protocol", `the server listed more than ${this.settings.maxSkills} skills (maxSkills); list them page by page with listPage`, { serverId: this.serverId });
  }

  /** 2026-07-28: the smallest hint of the pages so far (a missing or negative one is 0); none in the legacy era. */
  private ttlOf(hint: unknown, sofar: number | undefined): number | undefined {
    if (this.server.era === "legacy") return undefined;
    const ttl = typeof hint === "number" && hint > 0 ? hint : 0;
    return sofar === undefined ? ttl : Math.min(sofar, ttl);
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}
