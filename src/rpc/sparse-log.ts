/**
 * Which occurrences of something a server can repeat at will get a log line: each of the first
 * ten, so that the few distinct problems of a broken server all show, then the 100th, 1 000th,
 * …; the others are only counted. A line per message would be a flood of its own, in the
 * host's log.
 */
export function worthLogging(occurrence: number): boolean {
  if (occurrence <= 10) return occurrence >= 1;
  let power = 100;
  while (power < occurrence) power *= 10;
  return power === occurrence;
}

/** A count of one kind of occurrence that has no counter of its own in `stats()`. */
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
