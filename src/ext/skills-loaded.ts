/**
 * A loaded skill and the reads of its files (SEP-2640 "Integrity and verification"): while a host
 * acts on a skill it holds the entry the skill was loaded from, reads only the files that entry
 * lists — an unlisted file is a verification failure, refused before anything is sent — and
 * verifies each read against the entry. Reads go to the server the skill came from, and only
 * when asked for. A `"dynamic"` skill has no list: a file under its directory may be read, up to
 * the skill's byte budget.
 */
import type { CallOptions } from "../protocol/methods.js";
import { handlerOnly } from "../call-options.js";
import type { ServerHandle } from "../server.js";
import { InvalidArgumentError } from "../util/errors.js";
import { excerpt, quote } from "../util/text.js";
import { verifiedFile } from "./skills-content.js";
import { SkillError } from "./skills-error.js";
import type { LoadedSkill, SkillEntry, SkillFile, SkillFrontmatter, SkillResourceEntry } from "./skills-types.js";
import { canonicalUri, isUnder, resolveReference, type SkillLocation } from "./skills-uri.js";

export interface LoadedParts {
  readonly entry: SkillEntry;
  readonly location: SkillLocation;
  readonly frontmatter: SkillFrontmatter;
  readonly body: string;
  readonly file: SkillFile;
  /** The skill's byte budget: what its `"dynamic"` files may add up to, SKILL.md included. */
  readonly maxBytes: number;
}

export class Skill implements LoadedSkill {
  readonly serverId: string;
  readonly uri: string;
  readonly name: string;
  readonly root: string;
  readonly entry: SkillEntry;
  readonly frontmatter: SkillFrontmatter;
  readonly body: string;
  readonly file: SkillFile;
  private readonly maxBytes: number;
  /** Bytes of a dynamic skill read so far. */
  private used: number;

  constructor(
    private readonly server: ServerHandle,
    parts: LoadedParts,
  ) {
    this.serverId = server.id;
    this.uri = parts.entry.uri;
    this.name = parts.location.name;
    this.root = parts.location.root;
    this.entry = parts.entry;
    this.frontmatter = parts.frontmatter;
    this.body = parts.body;
    this.file = parts.file;
    this.maxBytes = parts.maxBytes;
    this.used = parts.file.bytes.length;
  }

  async readFile(reference: string, options?: CallOptions): Promise<SkillFile> {
    if (typeof reference !== "string" || reference === "") throw new InvalidArgumentError("a skill file reference must be a non-empty string");
    const { uri, listed } = this.locate(reference);
    const read = await this.server.readResource(uri, handlerOnly("readFile", options));
    const file = await verifiedFile(read, { serverId: this.serverId, skillUri: this.uri, uri, listed, budget: this.maxBytes - this.used });
    if (listed === undefined) {
      // Reads of a dynamic skill may run side by side: the budget is settled as each ends.
      if (this.used + file.bytes.length > this.maxBytes) {
        throw new SkillError("limit", `the files read of ${excerpt(this.uri)} add up to more than the ${this.maxBytes} bytes this host accepts`, {
          serverId: this.serverId,
          skillUri: this.uri,
          fileUri: uri,
        });
      }
      this.used += file.bytes.length;
    }
    return file;
  }

  /** The URI to read for `reference`, and the entry's record of it; refused when the entry does not allow it. */
  private locate(reference: string): { uri: string; listed: SkillResourceEntry | undefined } {
    const wanted = resolveReference(reference, this.root);
    const resources = this.entry.resources;
    if (wanted !== undefined && resources !== "dynamic") {
      const listed = resources.find((file) => canonicalUri(file.uri) === wanted);
      if (listed !== undefined) return { uri: listed.uri, listed };
    }
    const root = canonicalUri(this.root);
    if (wanted !== undefined && resources === "dynamic" && root !== undefined && isUnder(wanted, root)) return { uri: wanted, listed: undefined };
    const why = resources === "dynamic" ? "is not in the skill's directory" : "is not among the files its entry lists";
    throw new SkillError("unlisted", `${quote(reference)} of skill ${quote(this.uri)} ${why}`, { serverId: this.serverId, skillUri: this.uri, fileUri: wanted });
  }
}
