/**
 * The view's requests the host itself answers, through its callbacks: `ui/open-link`,
 * `ui/message`, `ui/update-model-context`, `ui/request-display-mode`. Each is checked first
 * (`app-requests.ts`), then rated where it can start work for a person or a model, then handed
 * to the callback; the callback's wait is bounded by `limits.hostTimeout`. A request whose
 * callback the host did not give is not served (-32601): its capability was not declared.
 */
import { ErrorCode } from "../util/errors.js";
import { TokenBucket } from "../util/token-bucket.js";
import type { AppLimits } from "./app-limits.js";
import { AppMethod, type ContentModalities, type DisplayMode } from "./app-protocol.js";
import { checkChatMessage, checkDisplayMode, checkModelContext, checkOpenLink } from "./app-requests.js";
import { AppRefusal, POLICY, hostWait } from "./app-refusal.js";
import type { AppOrigin, AppSessionOptions, HostAnswer } from "./app-session-types.js";

const TEXT_ONLY: ContentModalities = Object.freeze({ text: {} });
const TEXT_AND_STRUCTURED: ContentModalities = Object.freeze({ text: {}, structuredContent: {} });

export interface HostServicesOptions {
  options: AppSessionOptions;
  limits: AppLimits;
  origin: AppOrigin;
  /** The session's life: its end ends the host's waits. */
  signal: AbortSignal;
  /** The display mode now, the modes the host lists, and those the view declared. */
  displayModes: () => { current: DisplayMode; host: readonly DisplayMode[] | undefined; view: readonly DisplayMode[] | undefined };
  /** The host switched the view to `mode`. */
  switchedTo: (mode: DisplayMode) => void;
}

export class AppHostServices {
  private readonly chatMessages: TokenBucket;
  private readonly contextUpdates: TokenBucket;

  constructor(private readonly services: HostServicesOptions) {
    this.chatMessages = new TokenBucket(services.limits.chatMessageRate);
    this.contextUpdates = new TokenBucket(services.limits.modelContextRate);
  }

  /** What the host takes in a `ui/message` or a context update (its own, or text and, for the context, structured content). */
  modalities(kind: "message" | "updateModelContext"): ContentModalities {
    return this.services.options.modalities?.[kind] ?? (kind === "message" ? TEXT_ONLY : TEXT_AND_STRUCTURED);
  }

  openLink(params: Record<string, unknown>): Promise<object> {
    const { options, origin } = this.services;
    const verdict = checkOpenLink(params, options.server.origin);
    if (!verdict.ok) throw AppRefusal.of(verdict.refusal);
    const onOpenLink = declared(options.onOpenLink, AppMethod.OpenLink);
    return this.answered("the link", onOpenLink({ ...verdict.value, ...origin }), "the host declined to open the link");
  }

  chatMessage(params: Record<string, unknown>): Promise<object> {
    const { options, origin, limits } = this.services;
    const onMessage = declared(options.onMessage, AppMethod.Message);
    const verdict = checkChatMessage(params, this.modalities("message"), limits);
    if (!verdict.ok) throw AppRefusal.of(verdict.refusal);
    if (!this.chatMessages.take()) throw new AppRefusal(POLICY, "too many messages for the conversation");
    return this.answered("the message", onMessage(verdict.value, origin), "the host declined the message");
  }

  updateModelContext(params: Record<string, unknown>): Promise<object> {
    const { options, origin, limits } = this.services;
    const onUpdate = declared(options.onUpdateModelContext, AppMethod.UpdateModelContext);
    const verdict = checkModelContext(params, this.modalities("updateModelContext"), limits);
    if (!verdict.ok) throw AppRefusal.of(verdict.refusal);
    if (!this.contextUpdates.take()) throw new AppRefusal(POLICY, "too many context updates");
    return this.answered("the context update", onUpdate(verdict.value, origin), "the host declined the context update");
  }

  /**
   * The spec: the host never switches to a mode the view did not declare, and answers with the
   * mode in effect, switched or not. Here it offers the host only a mode both list; without
   * `onDisplayMode` the answer is the current mode.
   */
  requestDisplayMode(params: Record<string, unknown>): object | Promise<object> {
    const verdict = checkDisplayMode(params);
    if (!verdict.ok) throw AppRefusal.of(verdict.refusal);
    const wanted = verdict.value;
    const { current, host, view } = this.services.displayModes();
    const allowed = (view === undefined || view.includes(wanted)) && (host === undefined || host.includes(wanted));
    const onDisplayMode = this.services.options.onDisplayMode;
    if (onDisplayMode === undefined || !allowed || wanted === current) return { mode: current };
    const { limits, signal, origin } = this.services;
    return hostWait(onDisplayMode(wanted, origin), limits.hostTimeout, signal, "the display mode").then((mode) => {
      // A host that names some other mode has not switched to what was asked.
      const now: DisplayMode = mode === wanted ? mode : current;
      if (now !== current) this.services.switchedTo(now);
      return { mode: now };
    });
  }

  private async answered(what: string, answer: HostAnswer, declined: string): Promise<object> {
    const verdict = await hostWait(answer, this.services.limits.hostTimeout, this.services.signal, what);
    if (verdict === false) throw new AppRefusal(POLICY, declined);
    return {};
  }
}

function declared<T>(callback: T | undefined, method: string): T {
  if (callback === undefined) throw new AppRefusal(ErrorCode.MethodNotFound, `this host does not serve ${method}`);
  return callback;
}
