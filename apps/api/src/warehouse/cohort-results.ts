import type { QueryGroup, QueryResult, ResultCell } from '@hdp/contract';
import { compileCohortAggregate, type CompiledPredicate } from './cohort-compiler';
import { displayCount, suppressSmallCounts, type Line, type SuppressibleCell } from './suppression';
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

interface MutableCell extends SuppressibleCell {
  key: string;
  label: string;
}

interface AggregateRow {
  sex: string;
  ageBand: string;
  race: string;
  ethnicity: string;
  n: number;
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
 * race and ethnicity, and the sex × age band pyramid, with small counts suppressed.
 * `state` pins the dataset to count in (the one served now, by default).
 */
export async function runCohortQuery(
  warehouse: WarehouseEngine,
  tree: QueryGroup,
  options: { threshold: number; timeoutMs: number; state?: WarehouseState | null },
): Promise<QueryResult> {
  const state = options.state === undefined ? warehouse.state : options.state;
  if (!state) throw new WarehouseEmptyError();
  return aggregateResult(warehouse, state.schema, compileCohortAggregate(tree, state.schema), options);
}

/**
 * Runs an aggregate statement (rows of sex, age_band, race, ethnicity, n, as compileCohortAggregate
 * writes them) and turns it into the suppressed result. One aggregate query does the counting;
 * the breakdowns are sums of its rows.
 */
export async function aggregateResult(
  warehouse: WarehouseEngine,
  schema: string,
  compiled: CompiledPredicate,
  options: { threshold: number; timeoutMs: number },
): Promise<QueryResult> {
  const started = performance.now();
  const rows: AggregateRow[] = (await warehouse.query(compiled.sql, compiled.params, { timeoutMs: options.timeoutMs })).map((r) => ({
    sex: key(r.sex),
    ageBand: key(r.age_band),
    race: key(r.race),
    ethnicity: key(r.ethnicity),
    n: Number(r.n),
  }));
  const names = await conceptNames(warehouse, schema, rows.flatMap((r) => [r.sex, r.race, r.ethnicity]), options.timeoutMs);
  const conceptLabel = (k: string) => (k === UNKNOWN || k === '0' ? 'Unknown' : (names.get(k) ?? `Concept ${k}`));
  const ageLabel = (k: string) => (k === UNKNOWN ? 'Unknown' : (AGE_BAND_LABELS[Number(k)] ?? k));

  const total: MutableCell = { key: 'total', label: 'Total', count: rows.reduce((sum, r) => sum + r.n, 0), suppressed: null };
  const breakdown = (pick: (r: AggregateRow) => string, label: (k: string) => string, order?: (a: MutableCell, b: MutableCell) => number) => {
    const cells = new Map<string, MutableCell>();
    for (const row of rows) {
      const k = pick(row);
      const cell = cells.get(k) ?? { key: k, label: label(k), count: 0, suppressed: null };
      cell.count += row.n;
      cells.set(k, cell);
    }
    return [...cells.values()].sort(order ?? ((a, b) => b.count - a.count || a.key.localeCompare(b.key)));
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
    cells: ageBand.map<MutableCell>((a) => ({
      key: a.key,
      label: a.label,
      count: rows.filter((r) => r.sex === s.key && r.ageBand === a.key).reduce((sum, r) => sum + r.n, 0),
      suppressed: null,
    })),
  }));

  const threshold = options.threshold;
  if (total.count > 0 && total.count < threshold) total.suppressed = 'small';
  const shown = (cell: MutableCell) => () => !cell.suppressed;
  const lines: Line[] = [
    { cells: sex, totalShown: shown(total) },
    { cells: ageBand, totalShown: shown(total) },
    { cells: race, totalShown: shown(total) },
    { cells: ethnicity, totalShown: shown(total) },
    ...pyramid.map((row) => ({ cells: row.cells, totalShown: shown(row.marginal) })),
    ...ageBand.map((band, i) => ({ cells: pyramid.map((row) => row.cells[i]!), totalShown: shown(band) })),
  ];
  suppressSmallCounts(lines, threshold);

  const present = (cell: MutableCell): ResultCell => ({
    key: cell.key,
    label: cell.label,
    count: cell.suppressed ? null : cell.count,
    display: displayCount(cell, threshold),
    suppressed: cell.suppressed,
  });
  return {
    person_count: total.suppressed ? null : total.count,
    person_count_display: displayCount(total, threshold),
    suppression_threshold: threshold,
    breakdowns: {
      sex: sex.map(present),
      age_band: ageBand.map(present),
      race: race.map(present),
      ethnicity: ethnicity.map(present),
      sex_by_age_band: pyramid.map((row) => ({ key: row.key, label: row.label, cells: row.cells.map(present) })),
    },
    execution_time_ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
