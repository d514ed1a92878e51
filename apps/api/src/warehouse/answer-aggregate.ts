import type { QueryGroup } from '@hdp/contract';
import { AGE_BAND_SQL, compileCohortPredicate, type CompiledPredicate } from './cohort-compiler';
import { cellSql, checkSql } from './person-set-sketch';
import { RECORD_KEY_COLUMN } from './record-keys';

/**
 * The aggregate of an explorer answer (a query without a cohort definition), in one scan of the
 * matching persons, with grouping sets:
 * - rows of `part` 7: persons by sex, age band, race and ethnicity with the sum of their record keys;
 * - with the tracker defence, the sketches (person-set-sketch.ts) of the pyramid's cells, grouped by
 *   sex, age band and each part's cell (`dims` 3), and of every race × ethnicity, by race, ethnicity
 *   and each part's cell (`dims` 12).
 *
 * Each sketch comes back as one row of text (`cells`). Sketches are sums, so every other sketch the ledger needs is added up from these in the API
 * (`splitAggregateRows`): a sex's from its row of the pyramid, an age band's from its column, the
 * whole answer's from every pyramid cell, a race's and an ethnicity's from the race × ethnicity
 * groups. Six grouping sets of the sketch over the matching persons rather than eighteen (one per
 * breakdown and part, and the whole answer's three): each is a hash aggregate over every matching
 * person, and they were most of the statement's cost. Without the defence nothing is sketched.
 */
export function compileAnswerAggregate(tree: QueryGroup, schema: string, { sketches }: { sketches: boolean }): CompiledPredicate {
  const predicate = compileCohortPredicate(tree, schema);
  const key = `p."${RECORD_KEY_COLUMN}"`;
  const cells = sketches ? `, ${[0, 1, 2].map((part) => `${cellSql(key, part)} AS c${part}`).join(', ')}, ${checkSql(key)} AS h` : '';
  // Without sketches every row is a demographic one (part 7, as GROUPING(c0, c1, c2) marks them).
  const marks = sketches ? 'c0, c1, c2, GROUPING(c0, c1, c2) AS part, COUNT(*) AS n, SUM(k) AS key_sum, SUM(h) AS check_sum, GROUPING(sex, age_band, race, ethnicity) AS dims' : '7 AS part, COUNT(*) AS n, SUM(k) AS key_sum';
  const sketchSets = sketches ? [0, 1, 2].flatMap((part) => [`(sex, age_band, c${part})`, `(race, ethnicity, c${part})`]) : [];
  const grouped =
    `SELECT sex, age_band, race, ethnicity, ${marks} FROM (` +
    `SELECT p."gender_concept_id" AS sex, ${AGE_BAND_SQL} AS age_band, p."race_concept_id" AS race, p."ethnicity_concept_id" AS ethnicity, ${key} AS k${cells} FROM "${schema}"."person" p WHERE ${predicate.sql}` +
    `) s GROUP BY GROUPING SETS ((sex, age_band, race, ethnicity)${sketchSets.map((set) => `, ${set}`).join('')})`;
  if (!sketches) return { sql: grouped, params: predicate.params };
  // A row per pyramid cell or race × ethnicity and part, its sketch cells in one text of
  // "cell n key_sum check_sum" fours: some 200 rows rather than 8,000, which took longer to hand over
  // from the engine than to compute. Demographic rows have no sketch cell (the text is null).
  const four = ['COALESCE(c0, c1, c2)', 'n', 'key_sum', 'check_sum'].map((column) => `CAST(${column} AS VARCHAR)`).join(` || ' ' || `);
  const sql = `SELECT sex, age_band, race, ethnicity, part, dims, SUM(n) AS n, SUM(key_sum) AS key_sum, string_agg(${four}, ' ') AS cells FROM (${grouped}) g GROUP BY sex, age_band, race, ethnicity, part, dims`;
  return { sql, params: predicate.params };
}
