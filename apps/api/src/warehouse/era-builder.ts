import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Eras: runs of records of one person (and one concept) merged while the next one starts no later
 * than `pad` days after the latest end so far. The same SQL on DuckDB and PostgreSQL.
 *
 * `source` yields person_id, a grouping column `grp_key` (the concept, or a constant), start_date
 * and end_date; the result yields person_id, grp_key, start_date, end_date (the latest end, not
 * padded) and n (records merged). `padSql` is a SQL integer expression (a literal or a bound value).
 */
export function eraSql(source: string, padSql: string): string {
  return `SELECT person_id, grp_key, MIN(start_date) AS start_date, MAX(end_date) AS end_date, COUNT(*) AS n
FROM (
  SELECT person_id, grp_key, start_date, end_date,
    SUM(is_start) OVER (PARTITION BY person_id, grp_key ORDER BY start_date, end_date ROWS UNBOUNDED PRECEDING) AS era_index
  FROM (
    SELECT person_id, grp_key, start_date, end_date,
      CASE WHEN MAX(end_date) OVER (PARTITION BY person_id, grp_key ORDER BY start_date, end_date ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) + ${padSql} >= start_date THEN 0 ELSE 1 END AS is_start
    FROM (${source}) era_source
  ) era_marked
) era_grouped
GROUP BY person_id, grp_key, era_index`;
}

/** OHDSI's persistence window: exposures (or occurrences) up to 30 days apart make one era. */
export const ERA_PERSISTENCE_DAYS = 30;

async function isEmpty(db: DuckDBConnection, schema: string, table: string): Promise<boolean> {
  const rows = (await db.runAndReadAll(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM "${schema}"."${table}" LIMIT 1) t`)).getRowObjectsJS();
  return Number(rows[0]!.n) === 0;
}

/**
 * Builds `drug_era` and `condition_era` when a dataset holds none, by OHDSI's era rules: drug
 * exposures rolled up to their ingredient (RxNorm `Ingredient` ancestors; a drug with none stands
 * for itself), an exposure's end its recorded end, else start + days supply, else start + 1 day;
 * records of the same concept 30 days apart or closer joined into one era.
 */
export async function buildMissingEras(db: DuckDBConnection, schema: string): Promise<void> {
  const s = (table: string) => `"${schema}"."${table}"`;
  if (await isEmpty(db, schema, 'drug_era')) {
    const exposures = `SELECT de.person_id, COALESCE(ing.ancestor_concept_id, de.drug_concept_id) AS grp_key, de.drug_exposure_start_date AS start_date,
        COALESCE(de.drug_exposure_end_date, de.drug_exposure_start_date + CAST(de.days_supply AS INTEGER), de.drug_exposure_start_date + 1) AS end_date
      FROM ${s('drug_exposure')} de
      LEFT JOIN (
        SELECT ca.descendant_concept_id, MIN(ca.ancestor_concept_id) AS ancestor_concept_id
        FROM ${s('concept_ancestor')} ca JOIN ${s('concept')} c ON c.concept_id = ca.ancestor_concept_id
        WHERE c.concept_class_id = 'Ingredient' AND c.vocabulary_id IN ('RxNorm', 'RxNorm Extension')
        GROUP BY ca.descendant_concept_id
      ) ing ON ing.descendant_concept_id = de.drug_concept_id
      WHERE de.drug_concept_id IS NOT NULL AND de.drug_concept_id <> 0 AND de.drug_exposure_start_date IS NOT NULL`;
    await db.run(`INSERT INTO ${s('drug_era')} (drug_era_id, person_id, drug_concept_id, drug_era_start_date, drug_era_end_date, drug_exposure_count, gap_days)
      SELECT row_number() OVER (ORDER BY person_id, grp_key, start_date), person_id, grp_key, start_date, end_date, n, 0
      FROM (${eraSql(exposures, String(ERA_PERSISTENCE_DAYS))}) eras`);
  }
  if (await isEmpty(db, schema, 'condition_era')) {
    const occurrences = `SELECT person_id, condition_concept_id AS grp_key, condition_start_date AS start_date,
        COALESCE(condition_end_date, condition_start_date + 1) AS end_date
      FROM ${s('condition_occurrence')} WHERE condition_concept_id IS NOT NULL AND condition_concept_id <> 0 AND condition_start_date IS NOT NULL`;
    await db.run(`INSERT INTO ${s('condition_era')} (condition_era_id, person_id, condition_concept_id, condition_era_start_date, condition_era_end_date, condition_occurrence_count)
      SELECT row_number() OVER (ORDER BY person_id, grp_key, start_date), person_id, grp_key, start_date, end_date, n
      FROM (${eraSql(occurrences, String(ERA_PERSISTENCE_DAYS))}) eras`);
  }
}
