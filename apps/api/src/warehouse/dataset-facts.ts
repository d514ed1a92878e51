import type { WarehouseEngine } from './warehouse-engine';

/**
 * What the compiler of cohort definitions may rely on beyond the SQL both engines share: facts of the
 * loaded dataset (its rows are known to satisfy them, so it leaves out work only data breaking them
 * would need, as a database uses a constraint) and the engine's way with a relation read twice.
 */
export interface DatasetFacts {
  /** No person's observation periods overlap or touch (the CDM's rule): an event is in at most one. */
  observationPeriodsDisjoint: boolean;
  /**
   * The engine computes a relation of at most one event per person again where it is read twice
   * faster than it keeps it: DuckDB does (a kept relation is written out and scanned; measured 14 %
   * of a definition's statement), PostgreSQL does not (14 % slower inlined).
   */
  inlineOneEventPerPerson: boolean;
}

/** Nothing known: the compiler assumes nothing of the data. */
export const NO_FACTS: DatasetFacts = { observationPeriodsDisjoint: false, inlineOneEventPerPerson: false };

/** A look at a dataset failed (a timeout): tried again after this long, not on every run. */
const RETRY_AFTER_MS = 10 * 60_000;

interface Known {
  schema: string;
  /** Null while the look is under way, or after it failed. */
  facts: DatasetFacts | null;
  retryAt?: number;
}
const known = new WeakMap<WarehouseEngine, Known>();

/**
 * The facts of `schema` (the dataset served now). A dataset never changes once loaded (a load makes
 * a new schema), so its facts are found once, by one statement started the first time they are
 * asked for, and kept while that dataset is served. No run waits for them: until they are known
 * (and if the look fails) the answer is compiled assuming nothing of the data, which gives the same
 * answer by a little more work.
 */
export function datasetFacts(warehouse: WarehouseEngine, schema: string, timeoutMs: number): DatasetFacts {
  const assumed: DatasetFacts = { ...NO_FACTS, inlineOneEventPerPerson: warehouse.kind === 'duckdb' };
  const entry = known.get(warehouse);
  if (entry?.schema === schema && (entry.facts || (entry.retryAt ?? Infinity) > Date.now())) return entry.facts ?? assumed;
  const looking: Known = { schema, facts: null };
  known.set(warehouse, looking);
  findFacts(warehouse, schema, timeoutMs).then(
    (facts) => {
      looking.facts = facts;
    },
    () => {
      looking.retryAt = Date.now() + RETRY_AFTER_MS;
    },
  );
  return assumed;
}

/** The facts found for `schema`, or null while they are not (yet) known. */
export function knownDatasetFacts(warehouse: WarehouseEngine, schema: string): DatasetFacts | null {
  const entry = known.get(warehouse);
  return entry?.schema === schema ? entry.facts : null;
}

async function findFacts(warehouse: WarehouseEngine, schema: string, timeoutMs: number): Promise<DatasetFacts> {
  // A period starting on or before the latest end of the person's earlier periods overlaps one of
  // them. Only persons with more than one period can have such a period: they alone are ordered
  // (a window over every period took seconds at 1,000,000 persons, the grouping a fraction of that).
  const table = `"${schema}"."observation_period"`;
  const [row] = await warehouse.query(
    `SELECT COUNT(*) AS overlapping FROM (
       SELECT op."observation_period_start_date" AS start_date,
         MAX(op."observation_period_end_date") OVER (PARTITION BY op."person_id" ORDER BY op."observation_period_start_date", op."observation_period_end_date" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earlier_end
       FROM ${table} op
       WHERE op."person_id" IN (SELECT "person_id" FROM ${table} GROUP BY "person_id" HAVING COUNT(*) > 1)) p
     WHERE start_date <= earlier_end`,
    [],
    { timeoutMs },
  );
  return { observationPeriodsDisjoint: Number(row?.overlapping ?? 1) === 0, inlineOneEventPerPerson: warehouse.kind === 'duckdb' };
}
