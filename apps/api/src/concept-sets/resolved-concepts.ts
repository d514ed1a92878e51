import type { ConceptSetItem } from '@hdp/contract';
import { DefinitionCompiler } from '../warehouse/cohort-definition/definition-compiler';
import { SCHEMA_NAME, type WarehouseEngine } from '../warehouse/warehouse-engine';

/**
 * How many concepts a concept set's items stand for in the dataset now served: the listed concepts,
 * plus descendants where asked, less the exclusions, plus the concepts mapped to them where asked.
 * The same SQL a cohort definition matches events with (the definition compiler's `codesets`), so
 * the count is what a criterion on the set matches. Null while no dataset is loaded.
 */
export async function resolvedConceptCount(warehouse: WarehouseEngine, items: ConceptSetItem[], timeoutMs: number): Promise<number | null> {
  const schema = warehouse.state?.schema;
  if (!schema || !SCHEMA_NAME.test(schema)) return null;
  const params: unknown[] = [];
  const compiler = new DefinitionCompiler(schema, (value, sqlType) => {
    params.push(value);
    return `CAST($${params.length} AS ${sqlType})`;
  });
  // A definition that only carries the set: its `codesets` relation is the set's members.
  const compiled = compiler.compile({
    conceptSets: [{ id: 0, name: 'set', expression: { items } }],
    primaryCriteria: { criteriaList: [{ kind: 'ObservationPeriod' }] },
  });
  const codesets = compiled.ctes.find((cte) => cte.startsWith('codesets AS'));
  if (!codesets) return 0;
  // The sets are compiled first, so their values are the first parameters; the rest belong to the entry event.
  const used = Math.max(0, ...[...codesets.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  const [row] = await warehouse.query(`WITH ${codesets} SELECT COUNT(DISTINCT concept_id) AS n FROM codesets`, params.slice(0, used), { timeoutMs });
  return Number(row?.n ?? 0);
}
