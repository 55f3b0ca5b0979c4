/**
 * Which occurrences of something a server can repeat at will get a log line: each of the first
 * few (ten unless said), so that the distinct problems of a broken server all show, then the
 * powers of ten above them (the 100th, 1 000th, …); the others are only counted. A line per
 * message would be a flood of its own, in the host's log.
 */
import type { Logger } from "./logger.js";

export function worthLogging(occurrence: number, eachOfFirst = 10): boolean {
  if (occurrence <= eachOfFirst) return occurrence >= 1;
  let power = 10;
  while (power < occurrence) power *= 10;
  return power === occurrence;
}

/**
 * A count of one kind of occurrence that has no counter of its own in `stats()`. Its holders make
 * it with the first occurrence: most connections never see one, and each would keep it.
 */
export class Occurrences {
  count = 0;

  /** Counts one more; whether this one is worth a log line. */
  next(): boolean {
    this.count += 1;
    return worthLogging(this.count);
  }
}

/** What a sparse log line adds once lines are skipped: how many there were. */
export function soFar(occurrences: Occurrences): string {
  return occurrences.count > 10 ? ` (${occurrences.count} so far)` : "";
}

/** An entry of a server's list that the checks dropped (`CheckContext.dropped`), logged sparsely. */
export function logDroppedEntry(logger: Logger, serverId: string, seen: Occurrences, method: string, index: number, reason: string): void {
  if (seen.next()) logger.warn(`server "${serverId}": dropped entry ${index} of ${method}: ${reason}${soFar(seen)}`);
}
