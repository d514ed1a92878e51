import { createRequire } from "node:module"; const require = createRequire(import.meta.url);
import { DuckDbWarehouse } from '../apps/api/src/warehouse/duckdb-warehouse';
import { compileDefinitionAnswer } from '../apps/api/src/warehouse/cohort-compiler';
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
const a = compileDefinitionAnswer({ combinator: 'and', rules: [], cohortDefinition: def } as any, s)!;
const rows = await w.query(`EXPLAIN ANALYZE ${a.sql}`, a.params);
const text = String(rows[0]!.explain_value);
// Operators with their timing, largest first.
require("node:fs").writeFileSync("/tmp/capi29-x/explain.txt", text);
const ops: [string, number][] = [];
ops.sort((x, y) => y[1] - x[1]);
console.log(ops.slice(0, 25).map(([o, t]) => `${t.toFixed(3)} ${o}`).join('\n'));
console.log(text.match(/Total Time: [\d.]+s/)?.[0]);
await w.close();
