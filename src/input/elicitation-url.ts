/**
 * URL-mode elicitation (2025-11-25 client/elicitation): the client shows the URL and the user
 * may open it. Conduit never fetches or opens it; it only decides whether to let the host see
 * it. Accepted: absolute `https` URLs without userinfo (a `user@` part can disguise the real
 * host). The verdict carries what the host should show: the full URL, its host, whether the
 * host is punycode, and whether it leads away from the server's own origin.
 */
import { ErrorCode } from "../util/errors.js";
import { pass, refuse, type Verdict } from "./refusal.js";

const INVALID_PARAMS = ErrorCode.InvalidParams;

export interface VettedUrl {
  url: string;
  host: string;
  idn: boolean;
  originMismatch: boolean;
}

export function vetUrl(raw: unknown, serverOrigin: string | undefined): Verdict<VettedUrl> {
  if (typeof raw !== "string") return refuse(INVALID_PARAMS, "url must be a string");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(INVALID_PARAMS, "url must be an absolute URL");
  }
  // https is a special scheme: the URL parser refuses one without a host, so a host there is.
  if (url.protocol !== "https:") return refuse(INVALID_PARAMS, `url must use https, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "") return refuse(INVALID_PARAMS, "url must not carry a user name or password");
  return pass({
    url: url.href,
    host: url.host,
    idn: url.hostname.split(".").some((label) => label.startsWith("xn--")),
    originMismatch: serverOrigin === undefined || url.origin !== serverOrigin,
  });
}
