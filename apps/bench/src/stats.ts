// The statistics of the harness: medians, percentiles, and ratios computed within each repetition.

/**
 * The `p`-th percentile (0–100) of already sorted values, interpolating linearly between the two nearest ranks
 * (the "type 7" definition used by numpy and spreadsheets). NaN for no values.
 */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const rank = ((sorted.length - 1) * p) / 100;
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const low = sorted[lower]!;
  return lower === upper ? low : low + (sorted[upper]! - low) * (rank - lower);
}

/** The `p`-th percentile (0–100) of `values` (not modified). NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  return percentileSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

/** The median: the middle value, or the mean of the two middle values. NaN for no values. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Finite values only (a failed or skipped measurement is recorded as undefined or NaN). */
export function finite(values: ReadonlyArray<number | undefined>): number[] {
  return values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

/** Median, minimum and maximum of the finite values, and how many there were. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** Summarises the finite values (NaN fields when there are none). */
export function summarize(values: ReadonlyArray<number | undefined>): Summary {
  const ok = finite(values).sort((a, b) => a - b);
  if (ok.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  return { median: percentileSorted(ok, 50), min: ok[0]!, max: ok[ok.length - 1]!, n: ok.length };
}

/**
 * The ratio `value(id) / value(reference)` within each repetition, for the repetitions where both were measured
 * (finite, and a non-zero reference). Each repetition ran every implementation once, close together in time, so
 * the ratio cancels most of what a noisy machine does to both.
 */
export function ratiosPerRepetition(
  repetitions: ReadonlyArray<Readonly<Record<string, number | undefined>>>,
  id: string,
  reference: string,
): number[] {
  const ratios: number[] = [];
  for (const repetition of repetitions) {
    const value = repetition[id];
    const base = repetition[reference];
    if (typeof value !== 'number' || typeof base !== 'number' || !Number.isFinite(value) || !Number.isFinite(base) || base === 0) continue;
    ratios.push(value / base);
  }
  return ratios;
}

/** The median of the per-repetition ratios (see {@link ratiosPerRepetition}), with their range. */
export function medianRatio(
  repetitions: ReadonlyArray<Readonly<Record<string, number | undefined>>>,
  id: string,
  reference: string,
): Summary {
  return summarize(ratiosPerRepetition(repetitions, id, reference));
}

/** The order of `items` in repetition `repetition`: rotated by one place per repetition. */
export function rotate<T>(items: readonly T[], repetition: number): T[] {
  if (items.length === 0) return [];
  const shift = ((repetition % items.length) + items.length) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
