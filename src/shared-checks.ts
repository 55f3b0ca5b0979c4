/**
 * The checks of the input pipeline that an MCP App's session applies too, reached from ext/
 * through this one file: a view's `ui/open-link` is vetted as a URL elicitation is, and a
 * view's log entries are cleaned as a server's are. One function each, called from both, so
 * that the two can never drift apart.
 */
export { vetUrl, MAX_URL_LENGTH, type VettedUrl } from "./input/elicitation.js";
export { sanitizeLog } from "./input/notifications.js";
