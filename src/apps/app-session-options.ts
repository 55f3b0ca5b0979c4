/**
 * What an `AppSession` checks of the host's options (a misspelt callback would otherwise leave
 * a capability undeclared without a word), and what its debug log says of each view request.
 */
import { knownKeys } from "../util/arguments.js";
import { InvalidArgumentError } from "../util/errors.js";
import { isObject } from "../util/json.js";
import { safeText } from "../util/sanitize.js";
import { AppMethod } from "./app-protocol.js";
import type { AppSessionOptions } from "./app-session-types.js";

const OPTION_KEYS: ReadonlySet<string> = new Set([
  "server", "tool", "send", "consent", "onOpenLink", "onMessage", "onUpdateModelContext", "onSizeChange", "onDisplayMode",
  "onRequestTeardown", "onInitialized", "hostInfo", "hostContext", "sandbox", "modalities", "tools", "logger", "limits",
]);

/** What the host's debug log shows of a request: the part that says what it is for, cleaned and short. */
export function summary(method: string, params: Record<string, unknown>): Record<string, unknown> {
  const text = (value: unknown): string | undefined => (typeof value === "string" ? safeText(value, 256) : undefined);
  switch (method) {
    case AppMethod.ToolsCall:
      return { name: text(params.name) };
    case AppMethod.ResourcesRead:
      return { uri: text(params.uri) };
    case AppMethod.OpenLink:
      return { url: text(params.url) };
    case AppMethod.RequestDisplayMode:
      return { mode: text(params.mode) };
    default:
      return {};
  }
}

export function checkOptions(options: AppSessionOptions): void {
  if (!isObject(options)) throw new InvalidArgumentError("AppSession needs options");
  knownKeys("AppSession options", options, OPTION_KEYS);
  const { server, tool, send } = options;
  if (!isObject(server) || typeof server.id !== "string") throw new InvalidArgumentError("AppSession needs the server the tool belongs to");
  if (!isObject(tool) || typeof tool.name !== "string") throw new InvalidArgumentError("AppSession needs the tool whose view it serves");
  if (typeof send !== "function") throw new InvalidArgumentError("AppSession needs send, to reach the view");
  for (const key of ["consent", "onOpenLink", "onMessage", "onUpdateModelContext", "onSizeChange", "onDisplayMode", "onRequestTeardown", "onInitialized", "tools"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "function") throw new InvalidArgumentError(`AppSession: ${key} must be a function`);
  }
  if (options.hostContext !== undefined && !isObject(options.hostContext)) throw new InvalidArgumentError("AppSession: hostContext must be an object");
}
