import type { QueryGroup, QueryResult, ResultCell } from '@hdp/contract';
import { addAttritionCells, attritionFromRows, presentAttrition, type MeasuredAttrition } from './cohort-definition/attrition';
import { compileCohortAggregate, compileDefinitionAnswer, type CompiledPredicate } from './cohort-compiler';
import { datasetFacts } from './dataset-facts';
import { addKeys, KEY_RANGE, perturbCount, type PerturbationSettings } from './perturbation';
import { addCells, addKeysToCells, emptyCells, emptySketch, sketchKeys, withCellsList, type PersonSetSketch, type SketchCells } from './person-set-sketch';
import { cellsWithheldReason, settleRelease, WITHHELD_LABEL, type ReleaseContext, type SketchedCell } from './release-ledger';
import { belowThreshold, SUPPRESSED_LABEL, suppressSmallCounts, type CountTable } from './suppression';
import type { IntegerLists, WarehouseColumns, WarehouseEngine, WarehouseState } from './warehouse-engine';

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
  const facts = tree.cohortDefinition === undefined ? undefined : datasetFacts(warehouse, state.schema, options.timeoutMs);
  const answer = compileDefinitionAnswer(tree, state.schema, facts);
  if (answer) {
    const started = performance.now();
    const columns = await warehouse.queryColumns(answer.sql, answer.params, { timeoutMs: options.timeoutMs });
    const { attrition, stepSketches, groups, sketches } = readDefinitionAnswer(answer, columns);
    return aggregateResult(warehouse, state.schema, { sql: answer.sql, params: answer.params }, { ...options, source: state.source, attrition, stepSketches, fetched: { groups, sketches, started } });
  }
  const aggregate = compileCohortAggregate(tree, state.schema, { sketches: options.trackerDefence });
  return aggregateResult(warehouse, state.schema, aggregate, { ...options, source: state.source });
}

/** The true attrition of a query with a cohort definition (never released as it is: tests compare it with OHDSI's); null without one. */
export async function measureAttrition(warehouse: WarehouseEngine, schema: string, tree: QueryGroup, timeoutMs: number): Promise<MeasuredAttrition | null> {
  const answer = compileDefinitionAnswer(tree, schema);
  if (!answer) return null;
  return readDefinitionAnswer(answer, await warehouse.queryColumns(answer.sql, answer.params, { timeoutMs })).attrition;
}

/**
 * A definition answer's parts, added up from its one statement's groups (`compileDefinitionAnswer`):
 * each counted step's events, persons and key sums (the persons of the groups whose step mask holds
 * the step), the persons by inclusion-rule mask, each step's sketch (the sum of the sketches of the
 * step masks that hold it, each sketched once from its record keys), the answer's demographic
 * groups (the groups it counts, by sex, age band, race and ethnicity) and the sketches of its
 * persons and of each breakdown cell's (`splitAggregateRows`, from the groups' sketches).
 */
export function readDefinitionAnswer(
  answer: NonNullable<ReturnType<typeof compileDefinitionAnswer>>,
  columns: WarehouseColumns,
): { attrition: MeasuredAttrition; stepSketches: Map<number, PersonSetSketch>; groups: AggregateGroup[]; sketches: ReturnType<typeof splitAggregateRows> } {
  const [stepMask, ruleMask, inCohort, sex, ageBand, race, ethnicity, n, keySum] = ['step_mask', 'rule_mask', 'in_cohort', 'sex', 'age_band', 'race', 'ethnicity', 'n', 'key_sum'].map((c) =>
    columns.numbers(c),
  ) as Float64Array[];
  const counted = answer.sketchedSteps;
  const events = counted.map((i) => columns.numbers(`e${i}`));
  const eventKeys = counted.map((i) => columns.numbers(`ek${i}`));
  const lists = columns.integerLists('record_keys');
  const stepRows = counted.map((step) => ({ step, events: 0, persons: 0, person_key_sum: 0, event_key_sum: 0 }));
  const bits = counted.map((_step, b) => 2 ** b);
  const maskRows = new Map<number, { mask: number; persons: number; person_key_sum: number }>();
  // Each row's keys are added straight to the sketch of its step mask and, when counted, of its
  // demographic group (`sketchRows` below): one pass over the keys, no sketch per row (2,596 rows of
  // five rules spent ~10 ms clearing and adding up per-row sketches).
  const masks = new Map<number, number>();
  const demographic = new Map<string, AggregateGroup & { index: number }>();
  const rowMask = new Int32Array(columns.rowCount);
  const rowGroup = new Int32Array(columns.rowCount).fill(-1);
  for (let r = 0; r < columns.rowCount; r++) {
    const mask = stepMask![r]!;
    const persons = n![r]!;
    const personKeys = keySum![r]! % KEY_RANGE;
    for (let b = 0; b < counted.length; b++) {
      const row = stepRows[b]!;
      row.events += events[b]![r]!;
      row.event_key_sum = addKeys(row.event_key_sum, eventKeys[b]![r]! % KEY_RANGE);
      if (Math.floor(mask / bits[b]!) % 2 === 0) continue;
      row.persons += persons;
      row.person_key_sum = addKeys(row.person_key_sum, personKeys);
    }
    if (!Number.isNaN(ruleMask![r]!)) {
      const row = maskRows.get(ruleMask![r]!) ?? { mask: ruleMask![r]!, persons: 0, person_key_sum: 0 };
      row.persons += persons;
      row.person_key_sum = addKeys(row.person_key_sum, personKeys);
      maskRows.set(row.mask, row);
    }
    if (!masks.has(mask)) masks.set(mask, masks.size);
    rowMask[r] = masks.get(mask)!;
    if (inCohort![r] !== 1) continue;
    const group = { sex: categoryOf(sex![r]!), ageBand: categoryOf(ageBand![r]!), race: categoryOf(race![r]!), ethnicity: categoryOf(ethnicity![r]!) };
    const name = `${group.sex}|${group.ageBand}|${group.race}|${group.ethnicity}`;
    let found = demographic.get(name);
    if (found) {
      found.n += persons;
      found.keySum = addKeys(found.keySum, personKeys);
    } else demographic.set(name, (found = { ...group, n: persons, keySum: personKeys, keys: null, index: demographic.size }));
    rowGroup[r] = found.index;
  }
  const attrition = attritionFromRows(answer, stepRows, [...maskRows.values()]);
  const groups = [...demographic.values()].map(({ index: _index, ...group }) => group);
  // The masks' and groups' cells are lent: everything made of them is made here.
  const stepSketches = new Map<number, PersonSetSketch>();
  const sketches = withCellsList(masks.size + demographic.size, (cells) => {
    const [maskCells, groupCells] = sketchRows(lists, rowMask, masks.size, rowGroup, demographic.size, cells);
    for (const [mask, index] of masks) {
      const sketch = maskCells[index]!;
      counted.forEach((step, b) => {
        if (Math.floor(mask / bits[b]!) % 2 === 0) return;
        let target = stepSketches.get(step);
        if (!target) stepSketches.set(step, (target = emptySketch()));
        addCells(target, sketch);
      });
    }
    return splitAggregateRows(groups.map((group, index) => ({ ...group, cells: groupCells[index]! })));
  });
  // A step with the same events as an earlier one was not counted again: it has that step's sketch.
  answer.steps.forEach((step, i) => {
    if (step.sameAs !== undefined && stepSketches.has(step.sameAs)) stepSketches.set(i, stepSketches.get(step.sameAs)!);
  });
  return { attrition, stepSketches, groups, sketches };
}

/**
 * The sketches of a definition answer's step masks and demographic groups: each row's record keys
 * added to its mask's sketch and, when the row is counted (`rowGroup` not −1), to its group's. A
 * group whose rows all have one mask (the usual case: the cohort's persons are in every step) is
 * sketched alone and then added to its mask's sketch whole: a third fewer additions than each key
 * going to both.
 */
function sketchRows(lists: IntegerLists, rowMask: Int32Array, maskCount: number, rowGroup: Int32Array, groupCount: number, cells: SketchCells[]): [SketchCells[], SketchCells[]] {
  // Each group's one mask, or −2 where its rows have several (−1: no row yet).
  const groupMask = new Int32Array(groupCount).fill(-1);
  for (let r = 0; r < rowMask.length; r++) {
    const group = rowGroup[r]!;
    if (group < 0) continue;
    groupMask[group] = groupMask[group] === -1 || groupMask[group] === rowMask[r] ? rowMask[r]! : -2;
  }
  for (let r = 0; r < rowMask.length; r++) {
    const keys = lists.values.subarray(lists.offsets[r]!, lists.offsets[r + 1]!);
    if (keys.length === 0) continue;
    const group = rowGroup[r]!;
    if (group < 0) addKeysToCells(keys, cells[rowMask[r]!]!);
    else if (groupMask[group]! >= 0) addKeysToCells(keys, cells[maskCount + group]!);
    else addKeysToCells(keys, cells[rowMask[r]!]!, cells[maskCount + group]);
  }
  groupMask.forEach((mask, group) => {
    if (mask >= 0) addCells(cells[mask]!, cells[maskCount + group]!);
  });
  return [cells.slice(0, maskCount), cells.slice(maskCount)];
}

/**
 * One demographic group of an aggregate (a row of `aggregateStatement`), with its record keys when
 * sketched, or their sketch when already made (a definition's groups are sketched as its rows are read).
 */
export interface AggregateGroup extends AggregateRow {
  keys: Int32Array | null;
  cells?: SketchCells;
}

const categoryOf = (value: number) => (Number.isNaN(value) ? UNKNOWN : String(value));

/** The demographic groups of an aggregate statement's answer (`aggregateStatement`'s columns). */
export function aggregateGroups(columns: WarehouseColumns, { sketches }: { sketches: boolean }): AggregateGroup[] {
  const [sex, ageBand, race, ethnicity, n, keySum] = ['sex', 'age_band', 'race', 'ethnicity', 'n', 'key_sum'].map((name) => columns.numbers(name));
  const keys: IntegerLists | null = sketches ? columns.integerLists('record_keys') : null;
  return [...Array(columns.rowCount).keys()].map((i) => ({
    sex: categoryOf(sex![i]!),
    ageBand: categoryOf(ageBand![i]!),
    race: categoryOf(race![i]!),
    ethnicity: categoryOf(ethnicity![i]!),
    n: n![i]!,
    keySum: keySum![i]! % KEY_RANGE,
    keys: keys ? keys.values.subarray(keys.offsets[i]!, keys.offsets[i + 1]!) : null,
  }));
}

/** A breakdown cell's sketch name: its breakdown and its key (sex and age band for the pyramid's). */
export const cellSketchName = (breakdown: string, ...keys: string[]) => [breakdown, ...keys].join('|');

/**
 * The counts and sketches of an aggregate's groups: the demographic rows, the sketch of all the
 * persons, and the sketch of each breakdown cell's persons (by `cellSketchName`). A group's sketch
 * is made from its record keys (each key adds 1, itself and its check to one cell of each part,
 * as `sketchOfKeys`); a sketch is a sum, so each of the six sketches a group is in (the whole
 * answer's, its sex's, age band's, race's, ethnicity's and pyramid cell's) is the sum of its groups'.
 * Groups without keys (the tracker defence off) sketch nothing.
 */
export function splitAggregateRows(groups: readonly AggregateGroup[]): { rows: AggregateRow[]; sketch: PersonSetSketch; cellSketches: Map<string, PersonSetSketch> } {
  const rows: AggregateRow[] = groups.map(({ sex, ageBand, race, ethnicity, n, keySum }) => ({ sex, ageBand, race, ethnicity, n, keySum }));
  const sketch = emptySketch();
  const cellSketches = new Map<string, PersonSetSketch>();
  const cellSketch = (breakdown: string, ...keys: string[]) => {
    const name = cellSketchName(breakdown, ...keys);
    let target = cellSketches.get(name);
    if (!target) cellSketches.set(name, (target = emptySketch()));
    return target;
  };
  const cells = emptyCells();
  // Each group to its pyramid cell, race and ethnicity; then each pyramid cell to its sex and age
  // band, and each sex to the whole: the same sums, half the additions of each group to all six.
  const pyramid: { sex: string; ageBand: string; sketch: PersonSetSketch }[] = [];
  for (const group of groups) {
    const sketched = group.cells ?? (group.keys && group.keys.length > 0 ? (sketchKeys(group.keys, cells), cells) : null);
    if (!sketched) continue;
    const name = cellSketchName('sex_by_age_band', group.sex, group.ageBand);
    if (!cellSketches.has(name)) pyramid.push({ sex: group.sex, ageBand: group.ageBand, sketch: cellSketch('sex_by_age_band', group.sex, group.ageBand) });
    for (const target of [cellSketches.get(name)!, cellSketch('race', group.race), cellSketch('ethnicity', group.ethnicity)]) addCells(target, sketched);
  }
  const sexes = new Set<string>();
  for (const cell of pyramid) {
    sexes.add(cell.sex);
    addCells(cellSketch('sex', cell.sex), cell.sketch);
    addCells(cellSketch('age_band', cell.ageBand), cell.sketch);
  }
  for (const sex of sexes) addCells(sketch, cellSketch('sex', sex));
  return { rows, sketch, cellSketches };
}


/**
 * THE disclosure-control path: every aggregate the platform releases (explorer runs, saved runs,
 * cohort sizes, the home page's dataset summary; a new kind of aggregate too) is answered here.
 *
 * Runs an aggregate statement (as `aggregateStatement` in cohort-compiler.ts writes it: a row per
 * sex, age band, race and ethnicity with n, key_sum and, with the tracker defence, the group's record
 * keys) and turns it into the released result. One aggregate query does the counting; every released cell
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
    /** The aggregate's groups and their sketches, already read (with the attrition, in one statement), and when that read started. */
    fetched?: { groups: AggregateGroup[]; sketches: ReturnType<typeof splitAggregateRows>; started: number };
  },
): Promise<QueryResult> {
  const started = options.fetched?.started ?? performance.now();
  const groups = options.fetched?.groups ?? aggregateGroups(await warehouse.queryColumns(compiled.sql, compiled.params, { timeoutMs: options.timeoutMs }), { sketches: options.trackerDefence });
  const { rows, sketch, cellSketches } = options.fetched?.sketches ?? splitAggregateRows(groups);
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
