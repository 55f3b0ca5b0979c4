/** What every step of authorizing one server shares: the resource, the host's options, and the means. */
import type { AuthRecords } from "./auth-records.js";
import type { FetchFn } from "./auth-fetch.js";
import type { AuthOptions } from "./options.js";
import type { TokenEndpoint } from "./token-endpoint.js";
import type { UrlPolicy } from "./url-policy.js";

export interface AuthContext {
  readonly resourceUrl: URL;
  readonly options: AuthOptions;
  /** The Client's `name`, registered when the host gave no `clientName`. */
  readonly clientName: string;
  readonly fetchFn: FetchFn;
  readonly policy: UrlPolicy;
  readonly records: AuthRecords;
  readonly endpoint: TokenEndpoint;
  /** Aborts when the connection ends: a flow waiting on the person ends with it. */
  readonly life: AbortSignal;
  /** Told when the flow starts and stops waiting on the person (the transport's bounds pause). */
  readonly person: { onWait?: ((waiting: boolean) => void) | undefined };
}
