/**
 * The target of a connect — a command to spawn (stdio) or a URL (Streamable HTTP or HTTP+SSE,
 * authorized with OAuth when `auth` says how) — checked, and the transport made from it. This
 * is the one file of the core that reaches into `auth/` (eslint.config.js: the auth seam).
 */
import { OAuthAuthorizer, type AuthTracing } from "./auth/oauth.js";
import { AUTH_OPTION_KEYS, type AuthOptions } from "./auth/options.js";
import { CONNECT_DEFAULTS, type ConnectOptions } from "./options.js";
import { runtime } from "./platform.js";
import { ChannelTransport, type ChannelTarget, type HostTransport } from "./transport/channel.js";
import type { HttpBackend } from "./transport/http-exchange.js";
import { HTTP_TARGET_KEYS, HttpTransport, type HttpTarget } from "./transport/http.js";
import { STDIO_TARGET_KEYS, type StdioTarget } from "./transport/stdio-target.js";
import type { Transport } from "./transport/transport.js";
import { knownKeys } from "./util/arguments.js";
import { ClientError, InvalidArgumentError } from "./util/errors.js";
import type { Logger } from "./util/logger.js";
import { MAX_TIMER_MS } from "./util/time.js";

export type { AuthTracing };

/** A remote server: Streamable HTTP or HTTP+SSE, authorized with OAuth when `auth` says how. */
export interface RemoteTarget extends HttpTarget {
  auth?: AuthOptions | undefined;
}

export type ServerTarget = StdioTarget | RemoteTarget | ChannelTarget;

/** The keys each kind of target may have, for those who check targets before any connect. */
export { STDIO_TARGET_KEYS };
export const REMOTE_TARGET_KEYS: ReadonlySet<string> = new Set([...HTTP_TARGET_KEYS, "auth"]);
export const CHANNEL_TARGET_KEYS: ReadonlySet<string> = new Set(["transport"]);

/** A target that is a host's own transport (`{ transport }` with no `url`: an HTTP target's `transport` is a word). */
export function isChannelTarget(target: ServerTarget): target is ChannelTarget {
  return !("command" in target) && !("url" in target) && "transport" in target;
}

/** What the transports of one server's connections share (a restart makes a new transport). */
export interface SharedAcrossConnections {
  authorizer?: OAuthAuthorizer | undefined;
}

/**
 * Checks a target as every connect does, before anything starts: `connect` and `connectAll`
 * (which checks them all before the first connect) call this one function.
 */
export function checkTarget(target: unknown): asserts target is ServerTarget {
  if (typeof target !== "object" || target === null) throw new InvalidArgumentError("a server target must be an object");
  const given = target as Record<string, unknown>;
  if ("command" in given) {
    knownKeys("a stdio target", given, STDIO_TARGET_KEYS);
    if (typeof given.command !== "string" || given.command === "") throw new InvalidArgumentError("a stdio target needs a non-empty `command`");
    const args: unknown = given.args;
    if (args !== undefined && (!Array.isArray(args) || !(args as unknown[]).every((arg) => typeof arg === "string"))) throw new InvalidArgumentError("a stdio target's `args` must be an array of strings");
    stringMap("a stdio target's `env`", given.env);
    if (given.cwd !== undefined && typeof given.cwd !== "string") throw new InvalidArgumentError("a stdio target's `cwd` must be a string");
    if (given.inheritEnv !== undefined && typeof given.inheritEnv !== "boolean") throw new InvalidArgumentError("a stdio target's `inheritEnv` must be a boolean");
    return;
  }
  if (!("url" in given) && "transport" in given) {
    knownKeys("a target of a host's transport", given, CHANNEL_TARGET_KEYS);
    const transport = given.transport;
    if (typeof transport === "function") return;
    if (typeof transport !== "object" || transport === null) throw new InvalidArgumentError("a target's `transport` must be a transport (start, send and close) or a function that makes one");
    checkHostTransport(transport);
    return;
  }
  if (!("url" in given)) throw new InvalidArgumentError("a server target needs `command` (stdio), `url` (Streamable HTTP) or `transport` (a transport of the host's own)");
  knownKeys("an HTTP target", given, REMOTE_TARGET_KEYS);
  const url = typeof given.url === "string" || given.url instanceof URL ? String(given.url) : "";
  const protocol = URL.canParse(url) ? new URL(url).protocol : "";
  if (protocol !== "http:" && protocol !== "https:") throw new InvalidArgumentError("an HTTP target needs an http: or https: `url`");
  stringMap("an HTTP target's `headers`", given.headers);
  if (given.transport !== undefined && given.transport !== "sse" && given.transport !== "streamable-http") throw new InvalidArgumentError('an HTTP target\'s `transport` is "streamable-http" or "sse"');
  if (given.fetch !== undefined && typeof given.fetch !== "function") throw new InvalidArgumentError("an HTTP target's `fetch` must be a function");
  if (given.credentials !== undefined && given.credentials !== "omit" && given.credentials !== "same-origin" && given.credentials !== "include") {
    throw new InvalidArgumentError('an HTTP target\'s `credentials` is "omit", "same-origin" or "include"');
  }
  if (given.proxy !== undefined && given.proxy !== false && (typeof given.proxy !== "string" || !/^https?:\/\/[^/]/i.test(given.proxy) || !URL.canParse(given.proxy))) {
    // The value may hold credentials: the message never quotes it.
    throw new InvalidArgumentError("an HTTP target's `proxy` must be an http: or https: URL, or false");
  }
  const ca = given.ca;
  if (ca !== undefined && typeof ca !== "string" && !(Array.isArray(ca) && (ca as unknown[]).every((pem) => typeof pem === "string"))) {
    throw new InvalidArgumentError("an HTTP target's `ca` must be PEM text or an array of them");
  }
  if (given.socketPath !== undefined && (typeof given.socketPath !== "string" || given.socketPath === "")) throw new InvalidArgumentError("an HTTP target's `socketPath` must be a non-empty path");
  if (given.auth !== undefined) checkAuthOptions(given.auth as AuthOptions);
}

/** The members the core calls are functions; the optional ones are functions when given. */
function checkHostTransport(transport: object): asserts transport is HostTransport {
  const members = transport as Record<string, unknown>;
  for (const name of ["start", "send", "close"]) {
    if (typeof members[name] !== "function") throw new InvalidArgumentError(`a host's transport needs a \`${name}\` method`);
  }
  for (const name of ["destroy", "abandon", "configure", "describe"]) {
    if (members[name] !== undefined && typeof members[name] !== "function") throw new InvalidArgumentError(`a host's transport's \`${name}\` must be a method when given`);
  }
}

function stringMap(what: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.values(value).every((item) => typeof item === "string")) {
    throw new InvalidArgumentError(`${what} must be an object of strings`);
  }
}

export function createTransport(target: ServerTarget, options: ConnectOptions, logger: Logger, backend: HttpBackend, clientName: string, shared: SharedAcrossConnections = {}, traced?: AuthTracing): Transport {
  checkTarget(target);
  const maxMessageBytes = options.maxMessageBytes ?? CONNECT_DEFAULTS.maxMessageBytes;
  if (isChannelTarget(target)) {
    const given = target.transport;
    let made: unknown;
    try {
      made = typeof given === "function" ? given() : given;
    } catch (error) {
      throw new ClientError("transport", `the function that makes a host's transport threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (typeof made !== "object" || made === null) throw new InvalidArgumentError("the function given as a target's `transport` must return a transport");
    checkHostTransport(made);
    return new ChannelTransport(made, maxMessageBytes);
  }
  if ("command" in target) {
    const stdio = runtime().stdio;
    // A browser or a Worker cannot start a process; the Node entry (Node, Bun, Deno) can.
    if (stdio === undefined) throw new ClientError("usage", "a stdio server needs a runtime that starts processes: import Conduit from conduit-mcp/node (Node, Bun or Deno)");
    return stdio(target, {
      maxMessageBytes,
      closeGracePeriod: options.closeGracePeriod ?? CONNECT_DEFAULTS.closeGracePeriod,
      stdinGracePeriod: options.stdinGracePeriod ?? options.closeGracePeriod ?? CONNECT_DEFAULTS.closeGracePeriod,
      stderrTailBytes: CONNECT_DEFAULTS.stderrTailBytes,
      logger,
      onStderr: options.onStderr,
    });
  }
  const { auth, ...http } = target;
  // One authorizer for every connection of the server: a restart keeps its tokens.
  const authorizer = auth === undefined ? undefined : (shared.authorizer ??= authorizerFor(http, auth, clientName, logger, traced));
  const endWhenUnreachable = options.restart !== undefined && options.restart !== false;
  return new HttpTransport(http, { logger, maxMessageBytes, backend, authorizer, endWhenUnreachable });
}

function checkAuthOptions(auth: AuthOptions): AuthOptions {
  if (typeof auth !== "object" || auth === null) throw new InvalidArgumentError("an HTTP target's `auth` must be an object");
  knownKeys("an HTTP target's `auth`", auth, AUTH_OPTION_KEYS);
  const grant = auth.grant;
  if (grant === undefined) {
    if (typeof auth.redirectUri !== "string") throw new InvalidArgumentError("`auth.redirectUri` must be a string");
    if (typeof auth.authorize !== "function") throw new InvalidArgumentError("`auth.authorize` must be a function");
  } else if (typeof grant !== "object" || grant === null || !["client_credentials", "jwt_bearer", "enterprise"].includes(grant.type)) {
    throw new InvalidArgumentError('`auth.grant.type` is "client_credentials", "jwt_bearer" or "enterprise"');
  } else if (grant.type === "client_credentials" && auth.clientId === undefined) {
    throw new InvalidArgumentError("`auth.grant` client_credentials needs `auth.clientId`");
  }
  const limit = auth.authorizeTimeout;
  if (limit !== undefined && !(typeof limit === "number" && limit > 0 && limit <= MAX_TIMER_MS)) throw new InvalidArgumentError(`\`auth.authorizeTimeout\` must be a number of ms between 1 and ${MAX_TIMER_MS}`);
  for (const name of ["clientId", "clientSecret", "clientMetadataUrl", "clientName", "issuer", "scope"] as const) {
    if (auth[name] !== undefined && typeof auth[name] !== "string") throw new InvalidArgumentError(`\`auth.${name}\` must be a string`);
  }
  return auth;
}

function authorizerFor(target: HttpTarget, auth: AuthOptions, clientName: string, logger: Logger, traced: AuthTracing | undefined): OAuthAuthorizer {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new InvalidArgumentError(`an HTTP target needs a valid URL`);
  }
  const given = target.fetch;
  const fetchFn = given === undefined ? (input: string, init?: RequestInit) => fetch(input, init) : (input: string, init?: RequestInit) => given(input, init);
  return new OAuthAuthorizer(url, auth, clientName, fetchFn, logger, traced);
}
