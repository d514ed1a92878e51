import type { QueryGroup, QueryResult, ResultCell } from '@hdp/contract';
import { addAttritionCells, attritionFromRows, presentAttrition, type MeasuredAttrition } from './cohort-definition/attrition';
import { compileAnswerAggregate } from './answer-aggregate';
import { ANSWER_COLUMNS, BREAKDOWN_COLUMNS, BREAKDOWN_DIMS, compileDefinitionAnswer, type CompiledPredicate } from './cohort-compiler';
import { addKeys, KEY_RANGE, perturbCount, type PerturbationSettings } from './perturbation';
import { addToSketch, CELLS_PER_PART, emptySketch, type PersonSetSketch } from './person-set-sketch';
import { cellsWithheldReason, settleRelease, WITHHELD_LABEL, type ReleaseContext, type SketchedCell } from './release-ledger';
import { belowThreshold, SUPPRESSED_LABEL, suppressSmallCounts, type CountTable } from './suppression';
import type { WarehouseEngine, WarehouseState } from './warehouse-engine';

/** No dataset is loaded: nothing to count. */
export class WarehouseEmptyError extends Error {
  constructor() {
    super('No health data is loaded yet; an administrator loads it with `hdp import omop <dir>` or `hdp generate`.');
    this.name = 'WarehouseEmptyError';
  }
}

export const AGE_BAND_LABELS = ['0–9', '10–19', '20–29', '30–39', '40–49', '50–59', '60–69', '70–79', '80–89', '90+'];
const UNKNOWN = 'unknown';

interface MutableCell {
  key: string;
  label: string;
  /** Index of the cell in the audited table. */
  index: number;
}

interface AggregateRow {
  sex: string;
  ageBand: string;
  race: string;
  ethnicity: string;
  n: number;
  keySum: number;
}

/** How answers are protected: the suppression threshold, the perturbation settings and the tracker defence. */
export interface DisclosureSettings {
  threshold: number;
  perturbation: PerturbationSettings;
  /** Check every answer against the answers released before it (release-ledger.ts); off only to measure. */
  trackerDefence: boolean;
}

/** Everything a released answer needs: the settings, the time limit, and what releases it to whom (for the ledger). */
export type ReleaseOptions = DisclosureSettings & { timeoutMs: number; release?: ReleaseContext; cost?: DisclosureCost };

/** The person count as released (perturbed, before suppression): what a cohort keeps as its size. */
export interface ReleasedCount {
  personCount: number;
}

/** What the last suppression cost, for the execution's audit entry and the benchmark. */
export interface DisclosureCost {
  suppressionAuditMs: number;
  linearPrograms: number;
  /** The release ledger's check and write (release-ledger.ts). */
  trackerCheckMs?: number;
}

/** Names of the concepts breakdowns show (sexes, races, ethnicities), kept per loaded dataset. */
const nameCache = new WeakMap<WarehouseEngine, { schema: string; names: Map<string, string> }>();

async function conceptNames(warehouse: WarehouseEngine, schema: string, keys: string[], timeoutMs: number): Promise<Map<string, string>> {
  let cached = nameCache.get(warehouse);
  if (!cached || cached.schema !== schema) {
    cached = { schema, names: new Map() };
    nameCache.set(warehouse, cached);
  }
  const names = cached.names;
  const missing = [...new Set(keys)].filter((k) => k !== UNKNOWN && !names.has(k));
  if (missing.length > 0) {
    const placeholders = missing.map((_id, i) => `CAST($${i + 1} AS BIGINT)`).join(', ');
    const found = await warehouse.query(
      `SELECT concept_id, concept_name FROM "${schema}"."concept" WHERE concept_id IN (${placeholders})`,
      missing.map(Number),
      { timeoutMs },
    );
    for (const k of missing) names.set(k, `Concept ${k}`);
    for (const row of found) names.set(String(row.concept_id), String(row.concept_name));
  }
  return names;
}

const key = (value: unknown) => (value === null || value === undefined ? UNKNOWN : String(value));

/**
 * Runs a query tree and answers aggregates only: the person count, breakdowns by sex, age band,
 * race and ethnicity, and the sex × age band pyramid, perturbed and with small counts suppressed.
 * `state` pins the dataset to count in (the one served now, by default).
 */
export async function runCohortQuery(
  warehouse: WarehouseEngine,
  tree: QueryGroup,
  options: ReleaseOptions & { state?: WarehouseState | null },
): Promise<QueryResult> {
  const state = options.state === undefined ? warehouse.state : options.state;
  if (!state) throw new WarehouseEmptyError();
  // A query with a cohort definition answers its attrition too, released in the same table; the
  // attrition, the inclusion-rule masks and the persons' aggregate come from one statement.
  const answer = compileDefinitionAnswer(tree, state.schema);
  if (answer) {
    const started = performance.now();
    const rows = await warehouse.query(answer.sql, answer.params, { timeoutMs: options.timeoutMs });
    const of = (kind: number, names: readonly string[]) =>
      rows.filter((r) => Number(r.kind) === kind).map((r) => Object.fromEntries(names.map((name, i) => [name, r[ANSWER_COLUMNS[i]!]])));
    const attrition = attritionFromRows(
      answer,
      of(0, ['step', 'events', 'persons', 'person_key_sum', 'event_key_sum']),
      of(1, ['mask', 'persons', 'person_key_sum']),
    );
    // Each step's persons' sketch (kind 3), summed like an answer's.
    const stepSketches = new Map<number, PersonSetSketch>();
    for (const r of of(3, ['step', 'c0', 'c1', 'c2', 'part', 'n', 'key_sum', 'check_sum'])) {
      const part = SKETCH_PART_MARKS.indexOf(Number(r.part));
      const step = Number(r.step);
      const stepSketch = stepSketches.get(step) ?? emptySketch();
      stepSketches.set(step, stepSketch);
      addToSketch(stepSketch, part, Number(r[`c${part}`]), Number(r.n), Number(r.key_sum ?? 0), Number(r.check_sum ?? 0));
    }
    // A step with the same events as an earlier one was not sketched again: it has that step's sketch.
    answer.steps.forEach((step, i) => {
      if (step.sameAs !== undefined && stepSketches.has(step.sameAs)) stepSketches.set(i, stepSketches.get(step.sameAs)!);
    });
    const aggregateRows = of(2, ['sex', 'age_band', 'race', 'ethnicity', 'c0', 'c1', 'c2', 'part', 'n', 'key_sum', 'check_sum', 'dims']);
    return aggregateResult(warehouse, state.schema, { sql: answer.sql, params: answer.params }, { ...options, source: state.source, attrition, stepSketches, fetched: { rows: aggregateRows, started } });
  }
  const aggregate = compileAnswerAggregate(tree, state.schema, { sketches: options.trackerDefence });
  return aggregateResult(warehouse, state.schema, aggregate, { ...options, source: state.source });
}

/** The grouping sets' marks (`GROUPING(c0, c1, c2)`) of the sketch's three parts, in order; 7 marks the demographic rows. */
const SKETCH_PART_MARKS = [3, 5, 6];
const DEMOGRAPHIC_ROWS = 7;

const BREAKDOWN_OF_DIMS = new Map(Object.entries(BREAKDOWN_DIMS).map(([breakdown, dims]) => [dims, breakdown as keyof typeof BREAKDOWN_COLUMNS]));
const ROW_COLUMN = { sex: 'sex', age_band: 'age_band', race: 'race', ethnicity: 'ethnicity' } as const;
/** The name of a breakdown cell's sketch: its breakdown and its key (sex and age band for the pyramid's). */
export const cellSketchName = (breakdown: string, ...keys: string[]) => [breakdown, ...keys].join('|');

/**
 * The rows of an aggregate statement: the demographic rows, the persons' sketch summed from its
 * cells' rows, and the sketch of each breakdown cell's persons (by `cellSketchName`). A statement
 * that sketches each demographic group (`compileAnswerAggregate`: rows with `cells`) has every
 * sketch added up from the groups', and its demographic rows are its first part's; one that
 * sketches each breakdown (`aggregateStatement`) has them as they are.
 */
export function splitAggregateRows(raw: Record<string, unknown>[]): { rows: AggregateRow[]; sketch: PersonSetSketch; cellSketches: Map<string, PersonSetSketch> } {
  const rows: AggregateRow[] = [];
  const sketch = emptySketch();
  const cellSketches = new Map<string, PersonSetSketch>();
  const cellSketch = (breakdown: string, ...keys: string[]) => {
    const name = cellSketchName(breakdown, ...keys);
    let target = cellSketches.get(name);
    if (!target) cellSketches.set(name, (target = emptySketch()));
    return target;
  };
  for (const r of raw) {
    const part = Number(r.part);
    const n = Number(r.n);
    const partIndex = SKETCH_PART_MARKS.indexOf(part);
    if (typeof r.cells === 'string') {
      // A demographic group's sketch, one part of it: added to every sketch the group is in.
      const [sex, ageBand, race, ethnicity] = [key(r.sex), key(r.age_band), key(r.race), key(r.ethnicity)];
      if (partIndex === 0) rows.push({ sex, ageBand, race, ethnicity, n, keySum: Number(r.key_sum ?? 0) % KEY_RANGE });
      const targets = [sketch, cellSketch('sex', sex), cellSketch('age_band', ageBand), cellSketch('race', race), cellSketch('ethnicity', ethnicity), cellSketch('sex_by_age_band', sex, ageBand)];
      const values = r.cells.split(' ');
      const first = partIndex * CELLS_PER_PART;
      for (let v = 0; v + 3 < values.length; v += 4) {
        const i = first + Number(values[v]);
        const count = Number(values[v + 1]);
        const keySum = Number(values[v + 2]);
        const checkSum = Number(values[v + 3]);
        // addToSketch, inlined: six sketches for each of some 40,000 cells of a large answer.
        for (const target of targets) {
          target.counts[i]! += count;
          target.keySums[i]! += keySum;
          target.checkSums[i]! += checkSum;
        }
      }
      continue;
    }
    if (part === DEMOGRAPHIC_ROWS) {
      rows.push({ sex: key(r.sex), ageBand: key(r.age_band), race: key(r.race), ethnicity: key(r.ethnicity), n, keySum: Number(r.key_sum ?? 0) % KEY_RANGE });
      continue;
    }
    // Statements written before cells were sketched have no `dims`: their sketch rows are the whole answer's.
    const breakdown = r.dims === undefined || r.dims === null ? undefined : BREAKDOWN_OF_DIMS.get(Number(r.dims));
    const target = breakdown ? cellSketch(breakdown, ...BREAKDOWN_COLUMNS[breakdown].map((column) => key(r[ROW_COLUMN[column]]))) : sketch;
    // Key sums of a sketch cell are kept whole (at most 2^24 × persons: exact as a double).
    addToSketch(target, partIndex, Number(r[`c${partIndex}`]), n, Number(r.key_sum ?? 0), Number(r.check_sum ?? 0));
  }
  return { rows, sketch, cellSketches };
}

/**
 * THE disclosure-control path: every aggregate the platform releases (explorer runs, saved runs,
 * cohort sizes, the home page's dataset summary; a new kind of aggregate too) is answered here.
 *
 * Runs an aggregate statement (as `aggregateStatement` in cohort-compiler.ts writes it: rows of sex,
 * age_band, race, ethnicity, n, key_sum, and the rows of the persons' set-difference sketch) and
 * turns it into the released result. One aggregate query does the counting; every released cell
 * (person count, breakdowns, pyramid) is a sum of its rows, perturbed from its own count and key sum;
 * the whole answer is suppressed and audited by linear programs; then the release ledger compares its
 * persons with those of every earlier answer and releases it, gives the same persons' earlier answer,
 * or withholds it (release-ledger.ts).
 */
export async function aggregateResult(
  warehouse: WarehouseEngine,
  schema: string,
  compiled: CompiledPredicate,
  options: ReleaseOptions & {
    released?: ReleasedCount;
    source?: string;
    attrition?: MeasuredAttrition;
    /** The sketch of each attrition step's persons, by step index. */
    stepSketches?: Map<number, PersonSetSketch>;
    /** The aggregate's rows, already read (with the attrition, in one statement), and when that read started. */
    fetched?: { rows: Record<string, unknown>[]; started: number };
  },
): Promise<QueryResult> {
  const started = options.fetched?.started ?? performance.now();
  const { rows, sketch, cellSketches } = splitAggregateRows(options.fetched?.rows ?? (await warehouse.query(compiled.sql, compiled.params, { timeoutMs: options.timeoutMs })));
  const names = await conceptNames(warehouse, schema, rows.flatMap((r) => [r.sex, r.race, r.ethnicity]), options.timeoutMs);
  const conceptLabel = (k: string) => (k === UNKNOWN || k === '0' ? 'Unknown' : (names.get(k) ?? `Concept ${k}`));
  const ageLabel = (k: string) => (k === UNKNOWN ? 'Unknown' : (AGE_BAND_LABELS[Number(k)] ?? k));

  // Every released cell: its true count and key sum, in one table the audit sees whole.
  const counts: number[] = [];
  const keySums: number[] = [];
  const newCell = (matching: AggregateRow[]) => {
    counts.push(matching.reduce((sum, r) => sum + r.n, 0));
    keySums.push(matching.reduce((sum, r) => addKeys(sum, r.keySum), 0));
    return counts.length - 1;
  };
  const total: MutableCell = { key: 'total', label: 'Total', index: newCell(rows) };
  const breakdown = (pick: (r: AggregateRow) => string, label: (k: string) => string, order?: (a: MutableCell, b: MutableCell) => number) => {
    const groups = new Map<string, AggregateRow[]>();
    for (const row of rows) {
      const k = pick(row);
      const group = groups.get(k);
      if (group) group.push(row);
      else groups.set(k, [row]);
    }
    const cells = [...groups.entries()].map(([k, matching]) => ({ key: k, label: label(k), index: newCell(matching) }));
    return cells.sort(order ?? ((a, b) => counts[b.index]! - counts[a.index]! || a.key.localeCompare(b.key)));
  };
  const byAge = (a: MutableCell, b: MutableCell) => Number(a.key === UNKNOWN ? 99 : a.key) - Number(b.key === UNKNOWN ? 99 : b.key);
  const sex = breakdown((r) => r.sex, conceptLabel);
  const ageBand = breakdown((r) => r.ageBand, ageLabel, byAge);
  const race = breakdown((r) => r.race, conceptLabel);
  const ethnicity = breakdown((r) => r.ethnicity, conceptLabel);
  const pyramid = sex.map((s) => ({
    key: s.key,
    label: s.label,
    marginal: s,
    cells: ageBand.map<MutableCell>((a) => ({ key: a.key, label: a.label, index: newCell(rows.filter((r) => r.sex === s.key && r.ageBand === a.key)) })),
  }));

  const parts = (cells: MutableCell[]) => cells.map((c) => c.index);
  const lines: { total: number; parts: readonly number[] }[] = [
      { total: total.index, parts: parts(sex) },
      { total: total.index, parts: parts(ageBand) },
      { total: total.index, parts: parts(race) },
      { total: total.index, parts: parts(ethnicity) },
      ...pyramid.map((row) => ({ total: row.marginal.index, parts: parts(row.cells) })),
      ...ageBand.map((band, i) => ({ total: band.index, parts: pyramid.map((row) => row.cells[i]!.index) })),
  ];
  // Cells a reader can only derive (an attrition drop) are judged by their true count.
  const exact = new Set<number>();
  const attritionLayout = options.attrition ? addAttritionCells(options.attrition, { counts, keySums, exact, lines, root: total.index }) : null;
  const released = counts.map((n, i) => (exact.has(i) ? n : perturbCount(n, keySums[i]!, options.perturbation)));
  const table: CountTable = { counts, released, root: total.index, lines };
  if (options.released) options.released.personCount = released[total.index]!;
  const threshold = options.threshold;
  const auditStarted = performance.now();
  const first = await suppressSmallCounts(table, threshold);
  if (options.cost) {
    options.cost.suppressionAuditMs = performance.now() - auditStarted;
    options.cost.linearPrograms = first.solves;
  }

  /** The result as released when `hidden` are hidden; `withheld` are the cells the release ledger hid (shown as withheld). */
  const presentResult = (hidden: boolean[], withheld: ReadonlySet<number> = new Set()): QueryResult => {
  const present = (cell: MutableCell): ResultCell => ({
    key: cell.key,
    label: cell.label,
    count: hidden[cell.index] ? null : released[cell.index]!,
    display: withheld.has(cell.index) ? WITHHELD_LABEL : hidden[cell.index] ? SUPPRESSED_LABEL : String(released[cell.index]),
    suppressed: hidden[cell.index]!,
  });
  const personCountHidden = hidden[total.index]!;
  return {
    person_count: personCountHidden ? null : released[total.index]!,
    // Below the threshold it says so; withheld with the whole answer (rare, see suppression.ts), it is labelled like any hidden cell.
    person_count_display: personCountHidden ? (released[total.index]! < threshold ? belowThreshold(threshold) : SUPPRESSED_LABEL) : String(released[total.index]),
    suppression_threshold: threshold,
    perturbed: options.perturbation.maxChange > 0,
    breakdowns: {
      sex: sex.map(present),
      age_band: ageBand.map(present),
      race: race.map(present),
      ethnicity: ethnicity.map(present),
      sex_by_age_band: pyramid.map((row) => ({ key: row.key, label: row.label, cells: row.cells.map(present) })),
    },
    execution_time_ms: 0,
    ...(options.source !== undefined && { dataset: options.source }),
    ...(options.attrition && attritionLayout && { attrition: presentAttrition(options.attrition, attritionLayout, hidden, released) }),
    ...(withheld.size > 0 && { withheld_cells: cellsWithheldReason(threshold) }),
  };
  };
  const result = presentResult(first.hidden);
  const ledgerStarted = performance.now();
  let settled = result;
  if (options.trackerDefence) {
    // No answer leaves unchecked: a caller that releases must say what releases it, and to whom.
    if (!options.release) throw new Error('disclosure: an answer released with the tracker defence needs its release context');
    // Every breakdown cell is a count of persons too: the ledger compares each shown one with every kept set.
    const sketched: SketchedCell[] = [];
    const sketchCells = (breakdown: string, cells: MutableCell[], keys: (cell: MutableCell) => string[]) => {
      for (const cell of cells) {
        const cellSketch = cellSketches.get(cellSketchName(breakdown, ...keys(cell)));
        if (cellSketch) sketched.push({ index: cell.index, breakdown, key: keys(cell).join('|'), label: cell.label, personCount: counts[cell.index]!, shown: released[cell.index]!, sketch: cellSketch });
      }
    };
    sketchCells('sex', sex, (c) => [c.key]);
    sketchCells('age_band', ageBand, (c) => [c.key]);
    sketchCells('race', race, (c) => [c.key]);
    sketchCells('ethnicity', ethnicity, (c) => [c.key]);
    for (const row of pyramid) sketchCells('sex_by_age_band', row.cells, (c) => [row.key, c.key]);
    // Each attrition row's persons, like a cell (its events are not a set of persons, and drops and masks are never shown).
    options.attrition?.steps.forEach((step, i) => {
      const stepSketch = options.stepSketches?.get(i);
      const index = attritionLayout?.steps[i]?.persons;
      if (stepSketch && index !== undefined) sketched.push({ index, breakdown: 'attrition', key: String(i), label: step.label, personCount: counts[index]!, shown: released[index]!, sketch: stepSketch });
    });
    settled = await settleRelease({ dataset: schema, result, personCount: counts[total.index]!, sketch }, options.release, {
      cells: sketched,
      shown: (index) => !first.hidden[index] && counts[index]! > 0,
      // A cell near a kept set is a primary suppression: the audit then hides whatever would give it back.
      withhold: async (primary) => {
        const again = await suppressSmallCounts(table, threshold, primary);
        if (options.cost) options.cost.linearPrograms += again.solves;
        return { result: presentResult(again.hidden, new Set(primary)), shown: (index: number) => !again.hidden[index] && counts[index]! > 0 };
      },
    });
  }
  if (options.cost) options.cost.trackerCheckMs = performance.now() - ledgerStarted;
  return { ...settled, execution_time_ms: Math.round((performance.now() - started) * 10) / 10 };
}
