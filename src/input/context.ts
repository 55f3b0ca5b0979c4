/**
 * The `ctx` a Handler callback gets. Each kind is built by one object literal, so that every
 * context of a kind has one shape (the engine then reads them fast), and `signal` is an own
 * getter: made only if read, and kept by a spread (`{ ...ctx }`).
 */
import type { VettedUrl } from "./elicitation-url.js";
import type { FieldInfo, FormElicitationContext, InputContext, UrlElicitationContext } from "./handler.js";
import type { InputSource } from "./pipeline.js";
import type { SignalSource } from "./supervisor.js";

export function inputContext(client: string, source: InputSource, signals: SignalSource): InputContext {
  return {
    client,
    serverId: source.serverId,
    era: source.era,
    assigns: source.assigns,
    relatedRequestId: source.relatedRequestId,
    get signal(): AbortSignal {
      return signals.signal;
    },
  };
}

export function formContext(
  client: string,
  source: InputSource,
  signals: SignalSource,
  fields: Readonly<Record<string, FieldInfo>>,
): FormElicitationContext {
  return {
    client,
    serverId: source.serverId,
    era: source.era,
    assigns: source.assigns,
    relatedRequestId: source.relatedRequestId,
    get signal(): AbortSignal {
      return signals.signal;
    },
    mode: "form",
    fields,
  };
}

export function urlContext(client: string, source: InputSource, signals: SignalSource, vetted: VettedUrl): UrlElicitationContext {
  return {
    client,
    serverId: source.serverId,
    era: source.era,
    assigns: source.assigns,
    relatedRequestId: source.relatedRequestId,
    get signal(): AbortSignal {
      return signals.signal;
    },
    mode: "url",
    url: vetted.url,
    host: vetted.host,
    idn: vetted.idn,
    originMismatch: vetted.originMismatch,
  };
}
