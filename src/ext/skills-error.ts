/**
 * Why a skill or one of its files was not given to the host. A `SkillError` is a `ClientError`:
 * of kind `"protocol"` when the server sent what the extension does not allow (an invalid entry,
 * a file that fails verification), of kind `"unsupported"` when the host declines what it may
 * decline (a skill over its limits, a `"dynamic"` skill it did not opt into). `reason` says which.
 */
import { ClientError, type ClientErrorKind } from "../util/errors.js";

/**
 * - `entry`: the skill's entry breaks the extension's rules (URI, name, digests, sizes).
 * - `limit`: the skill is larger than the host accepts (files or bytes), or its SKILL.md's front
 *   matter is longer than the 64 KiB a host reads (`MAX_FRONTMATTER_BYTES`).
 * - `dynamic`: the skill has no digests (`"resources": "dynamic"`) and the host did not allow those.
 * - `unlisted`: a file the entry does not list (or outside the skill) was asked for.
 * - `size`: the file read is not as long as the entry says.
 * - `digest`: the file read does not hash to the entry's digest.
 * - `frontmatter`: the SKILL.md has no readable front matter, or it differs from the entry's.
 */
export type SkillFailure = "entry" | "limit" | "dynamic" | "unlisted" | "size" | "digest" | "frontmatter";

const KINDS: Readonly<Record<SkillFailure, ClientErrorKind>> = {
  entry: "protocol",
  limit: "unsupported",
  dynamic: "unsupported",
  unlisted: "protocol",
  size: "protocol",
  digest: "protocol",
  frontmatter: "protocol",
};

export interface SkillErrorOptions {
  serverId: string;
  /** The skill's SKILL.md URI, when known. */
  skillUri?: string | undefined;
  /** The file concerned, when one is. */
  fileUri?: string | undefined;
  /** For `frontmatter`: one line per field that differs. */
  differences?: readonly string[] | undefined;
  /** What the server sent: the entry, or the result of the read. */
  data?: unknown;
  cause?: unknown;
}

const skillErrorBrand = Symbol.for("conduit-mcp.SkillError");

export class SkillError extends ClientError {
  readonly reason: SkillFailure;
  readonly skillUri: string | undefined;
  readonly fileUri: string | undefined;
  readonly differences: readonly string[];

  constructor(reason: SkillFailure, message: string, options: SkillErrorOptions) {
    super(KINDS[reason], message, { serverId: options.serverId, data: options.data, cause: options.cause });
    this.reason = reason;
    this.skillUri = options.skillUri;
    this.fileUri = options.fileUri;
    this.differences = options.differences ?? [];
    Object.defineProperty(this, skillErrorBrand, { value: true });
  }

  // Its own brand: without it, every ClientError would pass `instanceof SkillError`.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[skillErrorBrand] === true;
  }
}
