import { DuckDbWarehouse } from '../apps/api/src/warehouse/duckdb-warehouse';
import { compileCohortAggregate, compileDefinitionAnswer, compileDefinitionParts } from '../apps/api/src/warehouse/cohort-compiler';
import { CONCEPT as C } from '../apps/api/src/warehouse/synthetic-vocabulary';
const w = await DuckDbWarehouse.open('/tmp/capi29-x/w.duckdb');
const s = w.state!.schema;
const ALL_BEFORE = { start: { coeff: -1 as const }, end: { days: 1, coeff: -1 as const } };
const def: any = {
  conceptSets: [
    { id: 0, name: 'Lisinopril', expression: { items: [{ conceptId: C.lisinopril, includeDescendants: true }] } },
    { id: 1, name: 'CKD', expression: { items: [{ conceptId: C.ckd, includeDescendants: true }] } },
  ],
  primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 0, first: true }], observationWindow: { priorDays: 365, postDays: 0 }, primaryCriteriaLimit: { type: 'First' } },
  inclusionRules: [{ name: 'No prior CKD', expression: { type: 'ALL', criteriaList: [{ criteria: { kind: 'ConditionOccurrence', codesetId: 1 }, startWindow: ALL_BEFORE, occurrence: { type: 'EXACTLY', count: 0 } }] } }],
};
const tree: any = { combinator: 'and', rules: [], cohortDefinition: def };
const parts = compileDefinitionParts(tree, s)!;
const agg = compileCohortAggregate(tree, s);
const time = async (name: string, sql: string, params: unknown[]) => {
  const xs: number[] = [];
  for (let i = 0; i < 5; i++) { const t0 = performance.now(); await w.query(sql, params); xs.push(performance.now() - t0); }
  xs.sort((a, b) => a - b);
  console.log(name, xs.map((x) => x.toFixed(0)).join(' '));
};
if (process.argv[2] === 'sql') { console.log(parts.attrition.sql); console.log('----'); console.log(agg.sql); process.exit(0); }
const combined = compileDefinitionAnswer(tree, s)!;
await time('combined', combined.sql, combined.params);
const plainCombined = combined.sql.replace(/ AS MATERIALIZED \(/g, ' AS (');
await time('combined-not-materialized', plainCombined, combined.params);
await time('attrition', parts.attrition.sql, parts.attrition.params);
await time('masks', parts.masks!.sql, parts.masks!.params);
await time('aggregate', agg.sql, agg.params);
await time('periods', `SELECT COUNT(*) FROM (${parts.periods.sql}) x`, parts.periods.params);
if (process.argv[2] === 'explain') {
  const rows = await w.query(`EXPLAIN ANALYZE ${parts.attrition.sql}`, parts.attrition.params);
  console.log(String(rows[0]!.explain_value));
}
await w.close();
