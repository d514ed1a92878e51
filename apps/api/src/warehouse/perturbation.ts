/**
 * Consistent perturbation by the cell-key method (as ABS TableBuilder and ONS Cantabular use it).
 *
 * Every person has a secret record key, a random whole number in [0, KEY_RANGE), made when the
 * dataset is loaded. A released count of n persons whose keys add up to s is shown as
 * n + perturbation(n, s mod KEY_RANGE). The same persons always give the same n and the same key
 * sum, so they always get the same answer, however the question was put.
 */
export const KEY_RANGE = 2 ** 24;

/** The perturbation settings: `maxChange` 0 switches perturbation off. */
export interface PerturbationSettings {
  maxChange: number;
}

/**
 * The perturbation table for counts of `n`: the changes it may get and their probabilities.
 * Zero stays zero; one stays one; otherwise changes run from −m to +m with m = min(maxChange, n − 1)
 * (so a count never drops below 1), weighted maxChange + 1 − |change| (a triangle). The table is
 * symmetric, so the mean change is 0 for every n: no count is pushed up or down on average.
 */
export function perturbationRow(n: number, maxChange: number): { change: number; probability: number }[] {
  const m = Math.max(0, Math.min(maxChange, n - 1));
  const weights = [];
  for (let change = -m; change <= m; change++) weights.push({ change, weight: maxChange + 1 - Math.abs(change) });
  const total = weights.reduce((s, w) => s + w.weight, 0);
  return weights.map((w) => ({ change: w.change, probability: w.weight / total }));
}

/** Rows of the table by n, built once per setting (every n ≥ maxChange + 1 shares the last row). */
const rowsCache = new Map<number, { change: number; upTo: number }[][]>();

function cumulativeRow(n: number, maxChange: number): { change: number; upTo: number }[] {
  let rows = rowsCache.get(maxChange);
  if (!rows) {
    rows = [];
    for (let k = 0; k <= maxChange + 1; k++) {
      let upTo = 0;
      rows.push(perturbationRow(k, maxChange).map(({ change, probability }) => ({ change, upTo: (upTo += probability) })));
    }
    rowsCache.set(maxChange, rows);
  }
  return rows[Math.min(n, maxChange + 1)]!;
}

/** The released count of `n` persons whose record keys add up to `keySum` (mod KEY_RANGE). */
export function perturbCount(n: number, keySum: number, settings: PerturbationSettings): number {
  if (n <= 1 || settings.maxChange <= 0) return n;
  const position = (((keySum % KEY_RANGE) + KEY_RANGE) % KEY_RANGE) / KEY_RANGE;
  const row = cumulativeRow(n, settings.maxChange);
  const found = row.find((entry) => position < entry.upTo) ?? row[row.length - 1]!;
  return n + found.change;
}

/** Adds two key sums, staying below KEY_RANGE so sums of many groups stay exact. */
export const addKeys = (a: number, b: number) => (a + (b % KEY_RANGE)) % KEY_RANGE;
