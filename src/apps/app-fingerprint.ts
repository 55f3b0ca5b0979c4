/**
 * A fingerprint of an MCP App as the user would allow it: its HTML, the origins its policy names
 * and the permissions it asks for. A host keeps the fingerprint of the app the user allowed and
 * asks again when a later read gives another (the spec's "Predeclared Resource Review": hash
 * resources, allow or block by hash).
 *
 * It is a function of meaning, not of spelling: the origins are hashed in their canonical form
 * (sorted, deduplicated, lowercase, no default port) and the permissions as a set, so that a
 * server that reorders its keys or lists does not ask the user again, while any change to the
 * HTML (a byte is a byte), to an origin or to a permission does. `domain` and `prefersBorder`
 * are left out: the first is the host's to vet, the second is looks. An entry the sanitiser
 * refuses is not part of the app as rendered, so it is not part of the fingerprint either.
 *
 * SHA-256 by Web Crypto, which Node, browsers, Deno, Bun and Workers all have.
 */
import { utf8 } from "../util/bytes.js";
import { InvalidArgumentError } from "../util/errors.js";
import { cspDomains } from "./app-csp.js";
import type { AppUiMeta } from "./app-meta.js";
import { askedPermissions } from "./app-permissions.js";

/** What a fingerprint is taken of. */
export interface AppFingerprintInput {
  readonly html: string;
  /** The app's `_meta.ui`; its origins go through the sanitiser again. */
  readonly meta?: AppUiMeta | undefined;
}

/** Bumped if what is hashed ever changes, so that an old fingerprint cannot match a new one by chance. */
const FORMAT = "conduit-mcp app fingerprint 1";

/** `sha256:<64 hex digits>` of the app's HTML, declared origins and permissions. */
export async function appFingerprint(app: AppFingerprintInput): Promise<string> {
  if (typeof app !== "object" || app === null || typeof app.html !== "string") throw new InvalidArgumentError("appFingerprint needs { html, meta } with html a string");
  const csp = cspDomains(app.meta?.csp);
  // An array of fixed shape: key order cannot vary, and JSON quotes every string unambiguously.
  const canonical = JSON.stringify([FORMAT, app.html, csp.connectDomains, csp.resourceDomains, csp.frameDomains, csp.baseUriDomains, askedPermissions(app.meta)]);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", utf8(canonical) as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}
