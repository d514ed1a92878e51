import type { Highs } from 'highs';
import type { QueryResult } from '@hdp/contract';

/** What a reader of an answer sees: each cell's shown value (null when hidden) and the lines that add up. */
export interface ReaderView {
  shown: (number | null)[];
  lines: readonly { total: number; parts: readonly number[] }[];
}

/**
 * What a reader knows from a released answer, as LP text for HiGHS (a separate path from the API's
 * auditor, which builds its model from arrays): each line adds up, shown cells are their values,
 * hidden cells are at least 1 (zeros are shown, unless every cell but the person count is withheld).
 * `integer` makes the reader solve in whole numbers, as an attacker would.
 */
function readerModel(view: ReaderView, objective: string, sense: 'Minimize' | 'Maximize', integer: boolean): string {
  const hidden = (cell: number) => view.shown[cell] === null;
  const constraints = view.lines.flatMap((line, i) => {
    const known = line.parts.filter((p) => !hidden(p)).reduce((s, p) => s + view.shown[p]!, 0);
    const terms = [...line.parts.filter(hidden).map((p) => `+ x${p}`), ...(hidden(line.total) ? [`- x${line.total}`] : [])];
    const rhs = (hidden(line.total) ? 0 : view.shown[line.total]!) - known;
    return terms.length > 0 ? [` l${i}: ${terms.join(' ')} = ${rhs}`] : [];
  });
  const variables = view.shown.flatMap((v, cell) => (v === null ? [`x${cell}`] : []));
  // Only the person count shown: zeros may be among the hidden cells, so a hidden cell may be 0.
  const lowest = view.shown.filter((v) => v !== null).length <= 1 ? 0 : 1;
  return [
    sense,
    ` obj: ${objective}`,
    'Subject To',
    ...constraints,
    'Bounds',
    ...variables.map((v) => ` ${v} >= ${lowest}`),
    ...(integer && variables.length > 0 ? ['General', ` ${variables.join(' ')}`] : []),
    'End',
  ].join('\n');
}

/** The interval a hidden cell can take, as the reader solves for it. */
export function readerInterval(highs: Highs, view: ReaderView, cell: number, integer: boolean): { lower: number; upper: number } {
  const bound = (sense: 'Minimize' | 'Maximize') => {
    const solution = highs.solve(readerModel(view, `x${cell}`, sense, integer), { output_flag: false } as never);
    if (solution.Status === 'Optimal') return solution.ObjectiveValue;
    // The minimum was found first, so the model is feasible: "infeasible or unbounded" means unbounded.
    if ((solution.Status === 'Unbounded' || solution.Status === 'Primal infeasible or unbounded') && sense === 'Maximize') return Infinity;
    throw new Error(`reader model: ${solution.Status}`);
  };
  return { lower: bound('Minimize'), upper: bound('Maximize') };
}

/**
 * The reader's view of an API answer: the person count, the four breakdowns, and the sex × age
 * grid whose rows add up to the sex cells and columns to the age cells. `names` says which is which
 * (`sex:8532`, `grid:8532:4`, …), to match cells across answers.
 */
export function viewOfResult(result: QueryResult): ReaderView & { names: string[] } {
  const shown: (number | null)[] = [];
  const names: string[] = [];
  const add = (name: string, value: number | null) => {
    names.push(name);
    shown.push(value);
    return shown.length - 1;
  };
  const root = add('total', result.person_count);
  const b = result.breakdowns;
  const list = (name: string, cells: QueryResult['breakdowns']['sex']) => cells.map((c) => add(`${name}:${c.key}`, c.count));
  const sex = list('sex', b.sex);
  const age = list('age', b.age_band);
  const race = list('race', b.race);
  const eth = list('ethnicity', b.ethnicity);
  const grid = b.sex_by_age_band.map((row) => row.cells.map((c) => add(`grid:${row.key}:${c.key}`, c.count)));
  return {
    names,
    shown,
    lines: [
      { total: root, parts: sex },
      { total: root, parts: age },
      { total: root, parts: race },
      { total: root, parts: eth },
      ...grid.map((row, i) => ({ total: sex[i]!, parts: row })),
      ...age.map((cell, j) => ({ total: cell, parts: grid.map((row) => row[j]!) })),
    ],
  };
}

/** What the reader knows of a hidden cell from the shape alone: at least 1, a total of k hidden parts at least k. */
export function floorOf(view: ReaderView, cell: number): number {
  return Math.max(1, ...view.lines.filter((l) => l.total === cell).map((l) => l.parts.filter((p) => view.shown[p] === null).length));
}
