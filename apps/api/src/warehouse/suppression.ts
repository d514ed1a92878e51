import loadHighs, { type Highs, type Model } from 'highs';

/**
 * What every hidden cell shows, whatever hid it: a small count and a cell hidden to protect one look
 * the same, so the reader cannot tell which hidden cell is the small one.
 */
export const SUPPRESSED_LABEL = 'suppressed';

/** What a person count below the threshold shows: "< 20". */
export const belowThreshold = (threshold: number) => `< ${threshold}`;

/**
 * A table of counts as one answer releases it: every cell (the person count, each breakdown's
 * cells, each cross-table cell) and the additive relations between them. A reader of the answer
 * knows these relations, so the audit gives them to the solver too.
 */
export interface CountTable {
  /** The true count of every cell. */
  counts: readonly number[];
  /** What each cell would show (the perturbed count; equal to `counts` when perturbation is off). */
  released: readonly number[];
  /** `parts` add up to `total` (a breakdown to the person count, a cross-table row to its margin). */
  lines: readonly { total: number; parts: readonly number[] }[];
  /** The cell every line finally adds up to (the person count): hidden only when it is small itself. */
  root: number;
}

/** The interval a hidden cell can take given everything else shown. */
export interface CellInterval {
  cell: number;
  lower: number;
  upper: number;
}

let highsLoading: Promise<Highs> | undefined;

/** The HiGHS solver (WebAssembly), loaded once per process. */
export function solver(): Promise<Highs> {
  highsLoading ??= loadHighs();
  return highsLoading;
}

/**
 * The protection rule: a hidden small cell is protected when a reader who solves for it from
 * everything shown can neither rule out its lowest possible value nor a value `threshold - 1`
 * above it: its interval [lower, upper] holds at least `threshold` whole numbers, and `lower` is
 * no higher than the structure alone forces. Zero cells are shown, so a reader knows every hidden
 * cell is at least 1, and a margin made of k hidden cells at least k (`floor`, 1 for any other
 * cell); a lower bound above that would come from the data, and is refused.
 */
export function isProtected(interval: { lower: number; upper: number }, threshold: number, floor = 1): boolean {
  return interval.lower <= floor + EPSILON && interval.upper - interval.lower >= threshold - 1 - EPSILON;
}

/** What a reader knows of a hidden cell from the table's shape alone: at least 1, and a total of k hidden parts at least k. */
export function structuralFloor(table: Pick<CountTable, 'lines'>, hidden: readonly boolean[], cell: number): number {
  let floor = 1;
  for (const line of table.lines) {
    if (line.total === cell) floor = Math.max(floor, line.parts.filter((p) => hidden[p]).length);
  }
  return floor;
}

const EPSILON = 1e-6;

/**
 * The audit of one answer: a linear program over every cell of the table, with one equality per
 * line (its parts add up to its total). A shown cell is fixed at its count; a hidden cell is free
 * from 1 up (zero cells are never hidden, and a reader who knows the algorithm knows that). The
 * reader is assumed to know the true value of every shown cell (perturbation only widens what they
 * know). Hiding a cell only frees its column, so the model is built once per answer.
 *
 * Every solution found is kept: each is a table a reader cannot rule out, and hiding more cells
 * never rules one out, so a cell that kept solutions show at its floor and `threshold - 1` above it
 * is protected without another solve.
 */
export class SuppressionAuditor {
  private readonly model: Model;
  private readonly solutions: Float64Array[];
  private readonly protectedCells = new Set<number>();
  private readonly hidden: boolean[];
  /** Linear programs solved so far (for the benchmark and the tests). */
  solves = 0;

  private constructor(
    private readonly highs: Highs,
    private readonly table: CountTable,
    private readonly threshold: number,
  ) {
    const numCols = table.counts.length;
    const starts = [0];
    const indices: number[] = [];
    const values: number[] = [];
    for (const line of table.lines) {
      for (const part of line.parts) {
        indices.push(part);
        values.push(1);
      }
      indices.push(line.total);
      values.push(-1);
      starts.push(indices.length);
    }
    const zeros = new Array<number>(table.lines.length).fill(0);
    this.model = highs.createModel({
      numCols,
      numRows: table.lines.length,
      colCost: new Array<number>(numCols).fill(0),
      colLower: [...table.counts],
      colUpper: [...table.counts],
      rowLower: zeros,
      rowUpper: zeros,
      matrix: { format: 'csr', starts, indices, values, numRows: table.lines.length, numCols },
    });
    this.model.options.set({ output_flag: false, presolve: 'off', solver: 'simplex' });
    this.solutions = [Float64Array.from(table.counts)];
    this.hidden = table.counts.map(() => false);
  }

  static async create(table: CountTable, threshold: number): Promise<SuppressionAuditor> {
    return new SuppressionAuditor(await solver(), table, threshold);
  }

  /** Frees a cell's column: the reader no longer sees it, but knows it is not 0. */
  hide(cell: number): void {
    if (this.table.counts[cell]! < 1) throw new Error('suppression audit: a zero cell is never hidden');
    this.model.changeColBounds(cell, 1, this.highs.infinity);
    this.hidden[cell] = true;
  }

  /** The hidden small cells among `cells` whose interval is too narrow, with that interval. */
  exposed(cells: readonly number[]): CellInterval[] {
    const exposed: CellInterval[] = [];
    for (const cell of cells) {
      if (this.protectedCells.has(cell)) continue;
      const interval = this.check(cell);
      if (interval) exposed.push(interval);
      else this.protectedCells.add(cell);
    }
    return exposed;
  }

  dispose(): void {
    this.model.dispose();
  }

  /** Undefined when the kept solutions, and as few solves as needed, prove the cell protected. */
  private check(cell: number): CellInterval | undefined {
    let low = Math.min(...this.solutions.map((s) => s[cell]!));
    let high = Math.max(...this.solutions.map((s) => s[cell]!));
    let lowExact = false;
    const floor = structuralFloor(this.table, this.hidden, cell);
    const enough = () => isProtected({ lower: low, upper: high }, this.threshold, floor);
    if (enough()) return undefined;
    if (low > floor + EPSILON) {
      low = this.solve(cell, 'min');
      lowExact = true;
      // Pinned from below: no upper end can make it protected.
      if (low > floor + EPSILON) return { cell, lower: low, upper: Math.max(high, low) };
    }
    high = this.solve(cell, 'max');
    if (enough()) return undefined;
    if (!lowExact) low = this.solve(cell, 'min');
    return enough() ? undefined : { cell, lower: low, upper: high };
  }

  private solve(cell: number, direction: 'min' | 'max'): number {
    const { minimize, maximize } = this.highs.constants.objectiveSense;
    this.model.changeColCost(cell, 1);
    this.model.changeObjectiveSense(direction === 'min' ? minimize : maximize);
    try {
      this.solves++;
      this.model.run();
      const status = this.model.getModelStatus();
      const codes = this.highs.constants.modelStatus;
      if (status === codes.optimal) {
        this.solutions.push(Float64Array.from(this.model.getSolution().colValue));
        return this.model.getObjectiveValue();
      }
      if (direction === 'max' && (status === codes.unbounded || status === codes.unboundedOrInfeasible)) return Infinity;
      // The shown counts come from one real table, so the model is always feasible; anything else is a bug.
      throw new Error(`suppression audit: the solver ended with status ${status}`);
    } finally {
      this.model.changeColCost(cell, 0);
    }
  }
}

/**
 * Small-count suppression, audited.
 *
 * 1. Every cell whose released count is from 1 to `threshold - 1` is hidden (a sensitive cell).
 *    When the root (the person count) is small, every cell is hidden.
 * 2. A quick pass hides, in every line holding a hidden sensitive cell, the smallest shown non-zero
 *    cells until the line has two hidden cells adding up to at least the threshold.
 * 3. The LP audit checks every hidden sensitive cell's interval; while one is exposed, the
 *    smallest shown non-zero cell nearest to it (in its lines, then in the lines of the hidden
 *    cells of those lines, …; a line's total counts as a cell of that line) is hidden too, and
 *    the audit runs again. Each round hides more, so this ends; when nothing is left to hide but
 *    the root, every other cell is withheld, zeros included (and the root too when its true count
 *    is below `threshold - 1`).
 *
 * `primary` cells (found near an earlier answer's persons by the release ledger) are treated as
 * sensitive cells whatever their count.
 *
 * Returns which cells are hidden and how many linear programs were solved.
 */
export async function suppressSmallCounts(table: CountTable, threshold: number, primary: readonly number[] = []): Promise<{ hidden: boolean[]; solves: number }> {
  const n = table.counts.length;
  // A primary cell (one the release ledger found near an earlier answer's persons) is protected
  // like a small one, whatever its count: no window narrower than the threshold, its floor possible.
  const forced = new Set(primary.filter((cell) => cell !== table.root && table.counts[cell]! > 0));
  const sensitive = table.released.map((v, cell) => (v > 0 && v < threshold) || forced.has(cell));
  if (sensitive[table.root]) return { hidden: new Array<boolean>(n).fill(true), solves: 0 };
  const hidden = [...sensitive];
  const targets = sensitive.flatMap((s, cell) => (s ? [cell] : []));
  if (targets.length === 0) return { hidden, solves: 0 };
  const linesOf: number[][] = Array.from({ length: n }, () => []);
  table.lines.forEach((line, i) => {
    for (const cell of [line.total, ...line.parts]) linesOf[cell]!.push(i);
  });
  const canHide = (cell: number) => !hidden[cell] && cell !== table.root && table.counts[cell]! > 0;
  const smallest = (cells: number[]) => cells.filter(canHide).sort((a, b) => table.released[a]! - table.released[b]! || a - b)[0];

  for (const line of table.lines) {
    if (!line.parts.some((p) => sensitive[p])) continue;
    for (;;) {
      const hiddenParts = line.parts.filter((p) => hidden[p]);
      const sum = hiddenParts.reduce((s, p) => s + table.counts[p]!, 0);
      if (hiddenParts.length >= 2 && sum >= threshold) break;
      const next = smallest([...line.parts]);
      if (next === undefined) break;
      hidden[next] = true;
    }
  }

  const auditor = await SuppressionAuditor.create(table, threshold);
  try {
    hidden.forEach((h, cell) => h && auditor.hide(cell));
    for (;;) {
      const exposed = auditor.exposed(targets);
      if (exposed.length === 0) return { hidden, solves: auditor.solves };
      // One more cell per exposed cell before auditing again: fewer audits, at the cost of hiding a little more.
      let stuck = true;
      for (const { cell } of exposed) {
        const next = nearestShownCell(table, linesOf, cell, hidden, smallest);
        if (next === undefined) continue;
        hidden[next] = true;
        auditor.hide(next);
        stuck = false;
      }
      // Nothing near is left to hide (e.g. a person count of 20 made of 1 and 19): every cell but
      // the person count is withheld, zeros included. A reader can then no longer tell a hidden zero
      // from a hidden count, so each cell may be anything from 0 to the person count: protected when
      // that window holds `threshold` values. A person count perturbed up to the threshold from below
      // is withheld too.
      if (stuck) {
        const rootToo = table.counts[table.root]! < threshold - 1;
        return { hidden: table.counts.map((_n, cell) => rootToo || cell !== table.root), solves: auditor.solves };
      }
    }
  } finally {
    auditor.dispose();
  }
}

/** Breadth-first over lines, from the exposed cell through hidden cells: the first lines holding a cell that can be hidden. */
function nearestShownCell(
  table: CountTable,
  linesOf: number[][],
  start: number,
  hidden: readonly boolean[],
  smallest: (cells: number[]) => number | undefined,
): number | undefined {
  const seenLines = new Set<number>();
  const seenCells = new Set<number>([start]);
  let frontier = [start];
  while (frontier.length > 0) {
    const lines = [...new Set(frontier.flatMap((cell) => linesOf[cell]!))].filter((l) => !seenLines.has(l));
    lines.forEach((l) => seenLines.add(l));
    const cells = lines.flatMap((l) => [table.lines[l]!.total, ...table.lines[l]!.parts]);
    const found = smallest(cells);
    if (found !== undefined) return found;
    frontier = cells.filter((c) => hidden[c] && !seenCells.has(c));
    frontier.forEach((c) => seenCells.add(c));
  }
  return undefined;
}
