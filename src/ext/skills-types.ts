/**
 * The skills extension's shapes (SEP-2640), as a host sees them: an entry of `skills/list` or
 * `skills/get` once checked, a listing, a loaded skill and one of its files, and the host's
 * bounds. Entries keep the server's field names and every field the server sent.
 */
import type { CallOptions } from "../protocol/methods.js";
import type { ListOptions } from "../server.js";
import type { JsonValue } from "../util/json.js";
import type { FrontmatterParser } from "./skills-frontmatter.js";

/** A SKILL.md's YAML front matter, as JSON: `name` and `description` at least. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: JsonValue;
}

/** One file of a skill, with what verifies it. */
export interface SkillResourceEntry {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits, of the file's raw bytes. */
  digest: string;
  /** The file's length in bytes. */
  size: number;
  [key: string]: unknown;
}

/** A skill as the server lists it: checked against the extension's rules. */
export interface SkillEntry {
  /** The skill's SKILL.md. */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill (SKILL.md too), or `"dynamic"`: generated, without digests. */
  resources: SkillResourceEntry[] | "dynamic";
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** A listed entry the client did not take, and why. */
export interface RefusedSkill {
  /** Its place in the listing (counted across pages). */
  readonly index: number;
  /** Its SKILL.md URI, when it had one. */
  readonly uri: string | undefined;
  /** `entry`: it breaks the extension's rules; `limit`: it is larger than the host accepts. */
  readonly reason: "entry" | "limit";
  readonly message: string;
}

export interface SkillListing {
  readonly serverId: string;
  /** The entries taken, in the server's order. Names may repeat: a skill is its `uri`. */
  readonly skills: SkillEntry[];
  readonly refused: RefusedSkill[];
  /** One page only (`listPage`): the cursor of the next, if there is one. */
  readonly nextCursor?: string | undefined;
  /** 2026-07-28: how long the listing may be kept (the smallest of its pages'), in ms. */
  readonly ttlMs: number | undefined;
}

/** A skill file as read and verified. */
export interface SkillFile {
  /** The URI read (the entry's spelling of it). */
  readonly uri: string;
  readonly mimeType: string | undefined;
  /** Exactly the bytes that the entry's size and digest describe. */
  readonly bytes: Uint8Array;
  /** The content as text, when the server sent text (a blob is not decoded). */
  readonly text: string | undefined;
  /** Size and digest were checked; false only for a `"dynamic"` skill. */
  readonly verified: boolean;
}

/**
 * A skill loaded: its SKILL.md read and verified against the entry it was loaded from, which it
 * holds while the host acts on the skill (SEP-2640: its files are read only as that entry lists
 * them). Its files come from the same server, and only when asked for.
 */
export interface LoadedSkill {
  readonly serverId: string;
  /** The SKILL.md URI. */
  readonly uri: string;
  readonly name: string;
  /** The skill's directory (`skill://pdf-processing`), against which its references resolve. */
  readonly root: string;
  readonly entry: SkillEntry;
  readonly frontmatter: SkillFrontmatter;
  /** The markdown after the front matter. */
  readonly body: string;
  /** The SKILL.md as read and verified. */
  readonly file: SkillFile;
  /**
   * Reads one file of the skill and verifies it: `reference` is a path from the skill's root
   * (`references/FORMS.md`) or an absolute URI. A file the entry does not list is refused
   * before anything is sent.
   */
  readFile(reference: string, options?: CallOptions): Promise<SkillFile>;
}

/** The host's bounds and choices. */
export interface SkillsOptions {
  /** Entries a listing may have, across its pages (default 10 000; `Infinity`: no bound). */
  maxSkills?: number | undefined;
  /** Files a skill may have (default 512, the extension's floor for hosts). */
  maxFiles?: number | undefined;
  /** Bytes a skill's files may add up to (default 16 MiB, the extension's floor for hosts). */
  maxBytes?: number | undefined;
  /**
   * Load skills whose entry has no digests (`"resources": "dynamic"`); their files are then not
   * verified, only bounded by `maxBytes` as they are read. Off by default.
   */
  allowDynamic?: boolean | undefined;
  /** Parses front matter YAML in place of the built-in reader (which refuses anchors, tags, ...). */
  parseFrontmatter?: FrontmatterParser | undefined;
}

export type { CallOptions, ListOptions };
