// Summaries of the per-round samples.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Relative spread of the samples, (max − min) / median: how much noise the rounds saw. */
export function spread(values) {
  return (Math.max(...values) - Math.min(...values)) / median(values);
}

/** Ratio oriented so that > 1 means Conduit is better. */
export function ratio(better, conduit, other) {
  if (conduit == null || other == null || conduit === 0 || other === 0) return null;
  return better === "lower" ? other / conduit : conduit / other;
}
