/**
 * A view's log entry (`notifications/message`) in the host's logger: cleaned by the same
 * sanitiser as a server's entries (level, logger name and data kept, every string cleaned and
 * clamped), at the host level that matches its RFC 5424 level, under a message that names the
 * app, so that a host can tell the view's lines from its own.
 */
import type { Logger } from "../util/logger.js";
import { sanitizeLog } from "../shared-checks.js";
import type { AppOrigin } from "./app-session-types.js";

export function logViewEntry(logger: Logger, origin: AppOrigin, params: Record<string, unknown>): void {
  const entry = sanitizeLog(params);
  const fields = { ...origin, level: entry.level, logger: entry.logger, data: entry.data };
  const message = `app log (tool "${origin.tool}", server "${origin.serverId}")`;
  switch (entry.level) {
    case "debug":
      return logger.debug(message, fields);
    case "info":
    case "notice":
      return logger.info(message, fields);
    case "warning":
      return logger.warn(message, fields);
    default:
      return logger.error(message, fields);
  }
}
