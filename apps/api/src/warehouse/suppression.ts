/** One published count and how it is shown. */
export interface SuppressibleCell {
  count: number;
  suppressed: 'small' | 'complementary' | null;
}

/** A set of cells that add up to a published total (a breakdown, a row or a column of a cross-table). */
export interface Line {
  cells: SuppressibleCell[];
  /** Whether the total of these cells is shown (if it is hidden, nothing can be worked out from it). */
  totalShown: () => boolean;
}

/**
 * Small-count suppression with complementary suppression.
 *
 * 1. Every count from 1 to `threshold - 1` is hidden ("small").
 * 2. In every line whose total is shown, hidden cells must not be recoverable: while a line has a
 *    small cell and either (a) only one hidden cell, or (b) hidden cells adding up to less than
 *    `2 × threshold + smalls - 2` (below which a small cell's range narrows, knowing that a
 *    complementary cell holds at least `threshold`), the smallest shown non-zero cell is hidden too.
 * 3. Lines share cells (a cross-table's rows, columns and margins), so this repeats until nothing changes.
 */
export function suppressSmallCounts(lines: Line[], threshold: number): void {
  for (const line of lines) {
    for (const cell of line.cells) if (cell.count > 0 && cell.count < threshold) cell.suppressed = 'small';
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const line of lines) {
      if (!line.totalShown()) continue;
      for (;;) {
        const hidden = line.cells.filter((c) => c.suppressed);
        const smalls = hidden.filter((c) => c.suppressed === 'small').length;
        if (smalls === 0) break;
        const sum = hidden.reduce((total, c) => total + c.count, 0);
        if (hidden.length >= 2 && sum >= 2 * threshold + smalls - 2) break;
        const candidates = line.cells.filter((c) => !c.suppressed && c.count > 0).sort((a, b) => a.count - b.count);
        if (candidates.length === 0) break;
        candidates[0]!.suppressed = 'complementary';
        changed = true;
      }
    }
  }
}

/** What a cell shows: the count, "< threshold" for a small one, "suppressed" for a complementary one. */
export function displayCount(cell: SuppressibleCell, threshold: number): string {
  if (cell.suppressed === 'small') return `< ${threshold}`;
  if (cell.suppressed === 'complementary') return 'suppressed';
  return String(cell.count);
}
