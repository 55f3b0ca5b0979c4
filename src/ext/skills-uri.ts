/**
 * Skill URIs (SEP-2640 "Resource Mapping"): a skill's SKILL.md is `<scheme>://<skill-path>/SKILL.md`
 * whatever the scheme (`skill://` by convention), the last segment of the skill path is the
 * skill's name, and its files lie under `<scheme>://<skill-path>/`. A reference inside a skill
 * resolves against that root, as a relative path does on a file system. Two spellings of one
 * URI (`%7E` and `~`, `a/./b` and `a/b`) compare equal in their canonical form.
 */

/** What a SKILL.md URI says. */
export interface SkillLocation {
  /** The skill's directory: the URI without `/SKILL.md`. */
  readonly root: string;
  /** The last segment of the skill path, which must be the skill's name. */
  readonly name: string;
}

const SKILL_MD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^?#]+)\/SKILL\.md$/;

/** The root and name of a SKILL.md URI, or undefined when `uri` is not one. */
export function skillLocation(uri: string): SkillLocation | undefined {
  const match = SKILL_MD.exec(uri);
  if (match === null) return undefined;
  const segments = (match[1] as string).split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) return undefined;
  return { root: uri.slice(0, -"/SKILL.md".length), name: segments[segments.length - 1] as string };
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** The form two spellings of one URI share, or undefined when `uri` does not parse. */
export function canonicalUri(uri: string): string | undefined {
  let href: string;
  try {
    href = new URL(uri).href;
  } catch {
    return undefined;
  }
  return href.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
}

/** Whether the canonical URI `file` lies under the canonical skill root `root`. */
export function isUnder(file: string, root: string): boolean {
  return file.startsWith(`${root}/`) && file.length > root.length + 1;
}

/**
 * A reference made from a skill (`references/FORMS.md`, or an absolute URI) as a canonical URI,
 * its fragment dropped; undefined when it does not parse.
 */
export function resolveReference(reference: string, root: string): string | undefined {
  let url: URL;
  try {
    url = new URL(reference, `${root}/`);
  } catch {
    return undefined;
  }
  url.hash = "";
  return canonicalUri(url.href);
}
