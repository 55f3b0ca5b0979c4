/**
 * The Handler: what a host implements to answer what servers ask of the user (the handler
 * contract, seed ConduitMcp.Client.Handler). Which callbacks it has decides the capabilities
 * the client declares. One Handler serves both eras.
 */
import type { ElicitationMode, Era } from "../protocol/versions.js";
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  ListRootsResult,
  LogParams,
  LoggingLevel,
} from "../protocol/types/index.js";
import type { RequestId } from "../util/json.js";
import type { Awaitable } from "../util/awaitable.js";
import type { VettedUrl } from "./elicitation.js";
import type { InputSource } from "./pipeline.js";
import type { SignalSource } from "./supervisor.js";

export interface NotificationContext {
  /** The client's `name`. */
  readonly client: string;
  readonly serverId: string;
  readonly era: Era;
}

export interface InputContext extends NotificationContext {
  /** The related call's `assigns`, or the client's when the input is tied to no call. */
  readonly assigns: unknown;
  /** The in-flight request this input belongs to (legacy), else null; always null in modern. */
  readonly relatedRequestId: RequestId | null;
  /** Aborts when the server cancels, the handler times out, or the call is abandoned. */
  readonly signal: AbortSignal;
}

export interface FieldInfo {
  /** The field looks like it asks for a secret (a password, a token, a card number, …). */
  readonly sensitiveSuspected: boolean;
}

export interface FormElicitationContext extends InputContext {
  readonly mode: "form";
  readonly fields: Readonly<Record<string, FieldInfo>>;
}

export interface UrlElicitationContext extends InputContext {
  readonly mode: "url";
  /** The parsed URL's `href`: show it in full before the user agrees to open it. */
  readonly url: string;
  /** The URL's `host`: highlight it. */
  readonly host: string;
  /** A label of the host is punycode (`xn--`): the name may imitate another. */
  readonly idn: boolean;
  /** True unless the URL's origin is the server's own (always true when that is unknown). */
  readonly originMismatch: boolean;
}

export type ElicitationContext = FormElicitationContext | UrlElicitationContext;

export interface Handler {
  /** The approval point for sampling: return the model's answer, or throw `RpcError` to refuse. */
  handleSampling?(params: CreateMessageParams, ctx: InputContext): Awaitable<CreateMessageResult>;
  /** Ask the user; a decline or cancel is an answer (`{ action: "decline" }`), not an error. */
  handleElicitation?(params: ElicitFormParams | ElicitUrlParams, ctx: ElicitationContext): Awaitable<ElicitResult>;
  /** The modes `handleElicitation` can present; default `["form"]`. */
  readonly elicitationModes?: readonly ElicitationMode[];
  /** The roots to share with this server (only local `file://` URIs are sent). */
  listRoots?(ctx: InputContext): Awaitable<ListRootsResult>;
  /** Every server notification the client does not consume itself. Return value ignored. */
  handleNotification?(method: string, params: Record<string, unknown>, ctx: NotificationContext): unknown;
  /** Each log entry (`notifications/message`), sanitised. Return value ignored. */
  handleLog?(level: LoggingLevel, params: LogParams, ctx: NotificationContext): unknown;
}

// ---- the contexts, as built ------------------------------------------------------------------

/** Where a context's `signal` getter finds the callback's signals: a symbol, not a name a Handler reads. */
const SIGNALS = Symbol("conduit.signals");

interface WithSignals {
  readonly [SIGNALS]: SignalSource;
}

/**
 * `signal` as an own, enumerable getter (made only if read, and kept by a spread, `{ ...ctx }`),
 * one function for every context. A getter written in the literal is a new function each time,
 * and V8 shares no map between objects whose accessors differ: each context went to dictionary
 * mode as it was made (0.6 µs, against 0.14 µs now), and every read of it was a slow one.
 */
const SIGNAL: PropertyDescriptor = {
  get(this: WithSignals): AbortSignal {
    return this[SIGNALS].signal;
  },
  enumerable: true,
  configurable: true,
};

function withSignal<T extends WithSignals>(ctx: T): T & { readonly signal: AbortSignal } {
  return Object.defineProperty(ctx, "signal", SIGNAL) as T & { readonly signal: AbortSignal };
}

/**
 * The `ctx` a Handler callback gets. Each kind is built by one object literal and the shared
 * `signal` getter, so that every context of a kind has one shape (the engine then reads them fast); the
 * symbol goes last, since a computed key in a literal makes the keys after it slower to add.
 */
export function inputContext(client: string, source: InputSource, signals: SignalSource): InputContext {
  return withSignal({
    client,
    serverId: source.serverId,
    era: source.era,
    assigns: source.assigns,
    relatedRequestId: source.relatedRequestId,
    [SIGNALS]: signals,
  });
}

export function formContext(
  client: string,
  source: InputSource,
  signals: SignalSource,
  fields: Readonly<Record<string, FieldInfo>>,
): FormElicitationContext {
  return withSignal({
    client,
    serverId: source.serverId,
    era: source.era,
    assigns: source.assigns,
    relatedRequestId: source.relatedRequestId,
    mode: "form" as const,
    fields,
    [SIGNALS]: signals,
  });
}

export function urlContext(client: string, source: InputSource, signals: SignalSource, vetted: VettedUrl): UrlElicitationContext {
  return withSignal({
    client,
    serverId: source.serverId,
    era: source.era,
    assigns: source.assigns,
    relatedRequestId: source.relatedRequestId,
    mode: "url" as const,
    url: vetted.url,
    host: vetted.host,
    idn: vetted.idn,
    originMismatch: vetted.originMismatch,
    [SIGNALS]: signals,
  });
}
