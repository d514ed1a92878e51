import type { QueryGroup } from '@hdp/contract';
import { aggregateStatement, compileCohortPredicate, compileDefinitionPeriods, type CompiledPredicate } from './cohort-compiler';
import type { WarehouseEngine, WarehouseState } from './warehouse-engine';

/**
 * Cohort snapshots: the person ids a cohort version holds, kept in the warehouse beside the data
 * they come from and never sent anywhere. They sit in their own schema, which dataset loads
 * (that build and swap `cdm_*` schemas) leave alone.
 */
export const SNAPSHOT_TABLE = '"hdp_cohorts"."cohort_person"';
/**
 * The cohort periods (start and end per person, one row per period) of a version whose query has a
 * cohort definition, as OMOP's `cohort` table holds them; versions of plain queries have none.
 */
export const PERIOD_TABLE = '"hdp_cohorts"."cohort_period"';
const WRITE = { readWrite: true } as const;

/** Creating the table once per warehouse; concurrent first calls share the one promise. */
const prepared = new WeakMap<WarehouseEngine, Promise<void>>();

function prepare(warehouse: WarehouseEngine): Promise<void> {
  let ready = prepared.get(warehouse);
  if (!ready) {
    ready = (async () => {
      await warehouse.query('CREATE SCHEMA IF NOT EXISTS "hdp_cohorts"', [], WRITE);
      await warehouse.query(`CREATE TABLE IF NOT EXISTS ${SNAPSHOT_TABLE} (cohort_version_id VARCHAR NOT NULL, person_id BIGINT NOT NULL)`, [], WRITE);
      await warehouse.query(`CREATE TABLE IF NOT EXISTS ${PERIOD_TABLE} (cohort_version_id VARCHAR NOT NULL, person_id BIGINT NOT NULL, start_date DATE NOT NULL, end_date DATE NOT NULL)`, [], WRITE);
      // DuckDB scans these tables fast enough by zone maps; PostgreSQL wants an index to find one version.
      if (warehouse.kind === 'postgres') {
        await warehouse.query(`CREATE INDEX IF NOT EXISTS cohort_person_version_idx ON ${SNAPSHOT_TABLE} (cohort_version_id)`, [], WRITE);
        await warehouse.query(`CREATE INDEX IF NOT EXISTS cohort_period_version_idx ON ${PERIOD_TABLE} (cohort_version_id)`, [], WRITE);
      }
    })();
    ready.catch(() => prepared.delete(warehouse));
    prepared.set(warehouse, ready);
  }
  return ready;
}

/**
 * Stores the persons `tree` selects in the dataset `state` as version `versionId`, and answers how
 * many there are. One INSERT … SELECT: the ids never pass through the API process.
 */
export async function takeSnapshot(
  warehouse: WarehouseEngine,
  state: WarehouseState,
  versionId: string,
  tree: QueryGroup,
  timeoutMs: number,
): Promise<number> {
  await prepare(warehouse);
  const predicate = compileCohortPredicate(tree, state.schema);
  const version = `CAST($${predicate.params.length + 1} AS VARCHAR)`;
  await warehouse.query(
    `INSERT INTO ${SNAPSHOT_TABLE} (cohort_version_id, person_id) SELECT ${version}, p."person_id" FROM "${state.schema}"."person" p WHERE ${predicate.sql}`,
    [...predicate.params, versionId],
    { timeoutMs, ...WRITE },
  );
  // With a cohort definition, each person's periods too (of the persons kept: the tree's own rules may narrow them).
  const periods = compileDefinitionPeriods(tree, state.schema);
  if (periods) {
    const periodVersion = `CAST($${periods.params.length + 1} AS VARCHAR)`;
    await warehouse.query(
      `INSERT INTO ${PERIOD_TABLE} (cohort_version_id, person_id, start_date, end_date)
       SELECT ${periodVersion}, x.person_id, x.start_date, x.end_date FROM (${periods.sql}) x
       WHERE x.person_id IN (SELECT s.person_id FROM ${SNAPSHOT_TABLE} s WHERE s.cohort_version_id = ${periodVersion})`,
      [...periods.params, versionId],
      { timeoutMs, ...WRITE },
    );
  }
  return countSnapshot(warehouse, versionId);
}

/** How many cohort periods a version holds (0 for a version of a query without a cohort definition). */
export async function countPeriods(warehouse: WarehouseEngine, versionId: string): Promise<number> {
  await prepare(warehouse);
  const [row] = await warehouse.query(`SELECT COUNT(*) AS n FROM ${PERIOD_TABLE} WHERE cohort_version_id = CAST($1 AS VARCHAR)`, [versionId]);
  return Number(row?.n ?? 0);
}

export async function countSnapshot(warehouse: WarehouseEngine, versionId: string): Promise<number> {
  await prepare(warehouse);
  const [row] = await warehouse.query(`SELECT COUNT(*) AS n FROM ${SNAPSHOT_TABLE} WHERE cohort_version_id = CAST($1 AS VARCHAR)`, [versionId]);
  return Number(row?.n ?? 0);
}

/** Removes a version's persons (when the version could not be recorded). */
export async function dropSnapshot(warehouse: WarehouseEngine, versionId: string): Promise<void> {
  await prepare(warehouse);
  await warehouse.query(`DELETE FROM ${SNAPSHOT_TABLE} WHERE cohort_version_id = CAST($1 AS VARCHAR)`, [versionId], WRITE);
  await warehouse.query(`DELETE FROM ${PERIOD_TABLE} WHERE cohort_version_id = CAST($1 AS VARCHAR)`, [versionId], WRITE);
}

/** The aggregate of a snapshot's persons, as found in the dataset in `schema` (with their record keys when `sketches`, for the tracker defence). */
export function compileSnapshotAggregate(schema: string, versionId: string, options: { sketches: boolean }): CompiledPredicate {
  return {
    sql: aggregateStatement(`FROM ${SNAPSHOT_TABLE} c JOIN "${schema}"."person" p ON p."person_id" = c.person_id WHERE c.cohort_version_id = CAST($1 AS VARCHAR)`, options),
    params: [versionId],
  };
}
