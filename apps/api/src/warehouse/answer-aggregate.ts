import type { QueryGroup } from '@hdp/contract';
import { AGE_BAND_SQL, compileCohortPredicate, type CompiledPredicate } from './cohort-compiler';
import { cellSql, checkSql } from './person-set-sketch';
import { RECORD_KEY_COLUMN } from './record-keys';

/**
 * The aggregate of an explorer answer (a query without a cohort definition), in one scan of the
 * matching persons. Without the tracker defence, persons by sex, age band, race and ethnicity with
 * the sum of their record keys (rows of `part` 7). With it, the sketch (person-set-sketch.ts) of
 * each of those demographic groups instead: grouping sets `(sex, age_band, race, ethnicity, c0)`,
 * `(…, c1)` and `(…, c2)` (`part` 3, 5, 6), and a row per group and part carrying its sketch cells
 * in one text of "cell n key_sum check_sum" fours (`cells`), with the group's persons and key sum.
 *
 * Sketches are sums, so every sketch the ledger needs is added up from the groups' in the API
 * (`splitAggregateRows`): the whole answer's, each sex's, age band's, race's, ethnicity's and
 * pyramid cell's; and the demographic counts are the first part's. Three hash aggregates over the
 * matching persons, where a grouping set per breakdown and part made eighteen more (most of the
 * statement's cost), and a few hundred rows back rather than 10,000 (which took longer to hand over
 * from the engine than to compute).
 */
export function compileAnswerAggregate(tree: QueryGroup, schema: string, { sketches }: { sketches: boolean }): CompiledPredicate {
  const predicate = compileCohortPredicate(tree, schema);
  const key = `p."${RECORD_KEY_COLUMN}"`;
  const persons = `SELECT p."gender_concept_id" AS sex, ${AGE_BAND_SQL} AS age_band, p."race_concept_id" AS race, p."ethnicity_concept_id" AS ethnicity, ${key} AS k`;
  const from = `FROM "${schema}"."person" p WHERE ${predicate.sql}`;
  if (!sketches) {
    return { sql: `SELECT sex, age_band, race, ethnicity, 7 AS part, COUNT(*) AS n, SUM(k) AS key_sum FROM (${persons} ${from}) s GROUP BY sex, age_band, race, ethnicity`, params: predicate.params };
  }
  const cells = [0, 1, 2].map((part) => `${cellSql(key, part)} AS c${part}`).join(', ');
  const groups = [0, 1, 2].map((part) => `(sex, age_band, race, ethnicity, c${part})`).join(', ');
  const grouped =
    `SELECT sex, age_band, race, ethnicity, c0, c1, c2, GROUPING(c0, c1, c2) AS part, COUNT(*) AS n, SUM(k) AS key_sum, SUM(h) AS check_sum ` +
    `FROM (${persons}, ${checkSql(key)} AS h, ${cells} ${from}) s GROUP BY GROUPING SETS (${groups})`;
  const four = ['COALESCE(c0, c1, c2)', 'n', 'key_sum', 'check_sum'].map((column) => `CAST(${column} AS VARCHAR)`).join(` || ' ' || `);
  return {
    sql: `SELECT sex, age_band, race, ethnicity, part, SUM(n) AS n, SUM(key_sum) AS key_sum, string_agg(${four}, ' ') AS cells FROM (${grouped}) g GROUP BY sex, age_band, race, ethnicity, part`,
    params: predicate.params,
  };
}
