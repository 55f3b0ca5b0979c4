/**
 * An MCP App's view, read and made ready to render: `readAppResource(server, uri)` reads the
 * `ui://` resource with `resources/read` (the spec's one way to fetch it), checks the content
 * (`app-content.ts`) and its `_meta.ui` (`app-meta.ts`), and returns the HTML with what the
 * host puts on the frame — the Content-Security-Policy (`app-csp.ts`) and the `allow` attribute
 * (`app-permissions.ts`) — and the fingerprint a host pins the user's consent to
 * (`app-fingerprint.ts`).
 *
 * What the server got wrong in `_meta.ui` is dropped, never loosened, and reported in one
 * warning per read through the client's logger; the policy and permissions of every read are
 * logged at `info`, the audit trail the spec asks hosts to keep ("Host SHOULD log CSP
 * configurations").
 *
 * @see apps.mdx 2026-01-26, "UI Resource Format" and "Resource Discovery"
 */
import { CALL_OPTION_KEYS, type CallOptions } from "../protocol/methods.js";
import { handlerOnly } from "../call-options.js";
import type { Resource } from "../protocol/types/index.js";
import type { ServerHandle } from "../server.js";
import { knownKeys } from "../util/arguments.js";
import { InvalidArgumentError } from "../util/errors.js";
import { excerpt, quote } from "../util/text.js";
import { appContent } from "./app-content.js";
import { appCsp } from "./app-csp.js";
import { appFingerprint } from "./app-fingerprint.js";
import { appUiMeta, withFallback, type AppUiMeta, type DroppedField } from "./app-meta.js";
import { appAllow } from "./app-permissions.js";
import { AppResourceError } from "./app-resource-error.js";

/**
 * The bound on an app's HTML when the host gives none. A view is one HTML file with its scripts
 * and styles inlined (the default policy lets it load nothing else), so a bundled app of a
 * framework and its libraries is some hundreds of KiB, a couple of MiB with inlined images or
 * fonts. 8 MiB leaves room for those while keeping a server from making the host hold, hash and
 * post into a frame a hundred MiB for every view it opens.
 */
export const APP_RESOURCE_DEFAULTS = Object.freeze({ maxBytes: 8 * 1024 * 1024 });

export interface ReadAppResourceOptions extends CallOptions {
  /** Bytes of HTML (UTF-8) at most; `Infinity` for no bound. Default 8 MiB. */
  maxBytes?: number | undefined;
  /**
   * The resource's entry in `resources/list`, when the host has it: its `_meta.ui` gives the
   * fields the content item does not (the spec's fallback). Not listed for you: servers may
   * leave app resources out of their lists.
   */
  listed?: Pick<Resource, "uri" | "_meta"> | undefined;
}

/** An app's view, checked, and what the host puts on its frame. */
export interface AppResource {
  readonly serverId: string;
  readonly uri: string;
  /** The HTML, exactly as the server sent it (decoded from UTF-8 when it was a blob). */
  readonly html: string;
  /** The `Content-Security-Policy` header value; its first directive is `default-src 'none'`. */
  readonly csp: string;
  /** The iframe's `allow` attribute; `""` when the app asks for no permission. */
  readonly allow: string;
  /** The resource's `_meta.ui`, validated (the content's, the listing's where it has none). */
  readonly meta: AppUiMeta;
  /** `sha256:…` of the HTML, the declared origins and the permissions (`appFingerprint`). */
  readonly fingerprint: string;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([...CALL_OPTION_KEYS, "maxBytes", "listed"]);

/** Reads the app resource `uri` of `server`; rejects with an `AppResourceError` when a check fails. */
export async function readAppResource(server: ServerHandle, uri: string, options: ReadAppResourceOptions = {}): Promise<AppResource> {
  if (typeof server !== "object" || server === null || typeof server.readResource !== "function") throw new InvalidArgumentError("readAppResource needs a server handle");
  if (typeof uri !== "string") throw new InvalidArgumentError("an app resource URI must be a string");
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("readAppResource options must be an object");
  knownKeys("readAppResource options", options, OPTION_KEYS);
  const { maxBytes: givenMax, listed, ...call } = options;
  const maxBytes = checkedMaxBytes(givenMax);
  checkListed(listed, uri);
  if (!uri.startsWith("ui://") || uri.length <= "ui://".length) {
    throw new AppResourceError("uri", `${quote(uri)} is not an app resource: an app's URI is ui://…`, { serverId: server.id, uri });
  }
  const read = await server.readResource(uri, handlerOnly("readAppResource", call));
  const content = appContent(read, { serverId: server.id, uri, maxBytes });
  const problems: DroppedField[] = [];
  const drop = (problem: DroppedField) => void problems.push(problem);
  const listedMeta = listed?._meta;
  const listedUi = typeof listedMeta === "object" && listedMeta !== null && Object.hasOwn(listedMeta, "ui") ? listedMeta.ui : undefined;
  const meta = withFallback(appUiMeta(content.ui, drop, "contents _meta.ui"), appUiMeta(listedUi, drop, "listed _meta.ui"));
  const app: AppResource = { serverId: server.id, uri, html: content.html, csp: appCsp(meta), allow: appAllow(meta), meta, fingerprint: await appFingerprint({ html: content.html, meta }) };
  report(server, app, problems);
  return app;
}

function checkedMaxBytes(value: unknown): number {
  if (value === undefined) return APP_RESOURCE_DEFAULTS.maxBytes;
  if (value === Infinity || (Number.isSafeInteger(value) && (value as number) > 0)) return value as number;
  throw new InvalidArgumentError(`readAppResource option \`maxBytes\` must be a positive integer or Infinity, got ${quote(value)}`);
}

function checkListed(listed: unknown, uri: string): void {
  if (listed === undefined) return;
  if (typeof listed !== "object" || listed === null) throw new InvalidArgumentError("readAppResource option `listed` must be the resource's entry of resources/list");
  const listedUri = (listed as { uri?: unknown }).uri;
  if (listedUri !== undefined && listedUri !== uri) throw new InvalidArgumentError(`readAppResource option \`listed\` is the entry of ${quote(listedUri)}, not of ${quote(uri)}`);
}

/** One warning for what was dropped (bounded), and the policy at `info` for the audit trail. */
function report(server: ServerHandle, app: AppResource, problems: readonly DroppedField[]): void {
  const fields = { serverId: app.serverId, uri: excerpt(app.uri) };
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).map((problem) => `${problem.field}: ${problem.reason}`);
    const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : "";
    server.logger.warn(`app resource ${excerpt(app.uri)} of server "${app.serverId}": ${problems.length} malformed _meta.ui field(s) dropped: ${shown.join("; ")}${more}`, {
      ...fields,
      dropped: problems.slice(0, 20),
    });
  }
  server.logger.info(`app resource ${excerpt(app.uri)} of server "${app.serverId}" read`, { ...fields, csp: app.csp, allow: app.allow, fingerprint: app.fingerprint });
}
