import type { Concept, ConceptUnit } from '@hdp/contract';
import type { WarehouseEngine } from './warehouse-engine';

/**
 * Concepts by name (case-insensitive, anywhere in the name) or by exact code or id, within a
 * domain when one is given; or the concepts of a list of ids (`ids`, comma-separated, each of them
 * answered). Standard concepts first, then shorter names.
 */
export async function searchConcepts(
  warehouse: WarehouseEngine,
  options: { search?: string; domain?: string; ids?: string; limit: number },
): Promise<Concept[]> {
  const state = warehouse.state;
  if (!state) return [];
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `CAST($${params.length} AS VARCHAR)`;
  };
  const conditions: string[] = [];
  if (options.domain) conditions.push(`c.domain_id = ${bind(options.domain)}`);
  if (options.search) {
    const term = bind(options.search);
    conditions.push(`(strpos(lower(c.concept_name), lower(${term})) > 0 OR c.concept_code = ${term} OR CAST(c.concept_id AS VARCHAR) = ${term})`);
  }
  const ids = [...new Set((options.ids ?? '').split(',').filter(Boolean).map(Number))];
  if (ids.length) conditions.push(`c.concept_id IN (${ids.map((id) => `CAST(${bind(String(id))} AS BIGINT)`).join(', ')})`);
  const limit = ids.length ? ids.length : options.limit;
  const rows = await warehouse.query(
    `SELECT c.concept_id, c.concept_name, c.domain_id, c.vocabulary_id, c.concept_code, c.standard_concept
     FROM "${state.schema}"."concept" c ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
     ORDER BY CASE WHEN c.standard_concept = 'S' THEN 0 ELSE 1 END, length(c.concept_name), c.concept_id
     LIMIT ${Math.min(Math.max(1, Math.floor(limit)), 100)}`,
    params,
    { timeoutMs: 10_000 },
  );
  const concepts = rows.map((r) => ({
    concept_id: Number(r.concept_id),
    concept_name: String(r.concept_name ?? ''),
    domain_id: String(r.domain_id ?? ''),
    vocabulary_id: String(r.vocabulary_id ?? ''),
    concept_code: String(r.concept_code ?? ''),
    standard_concept: r.standard_concept === null || r.standard_concept === undefined ? null : String(r.standard_concept),
  }));
  const measured = concepts.filter((c) => c.domain_id === 'Measurement').map((c) => c.concept_id);
  if (measured.length === 0) return concepts;
  const units = await measurementUnits(warehouse, state.schema, measured);
  return concepts.map((c) => (c.domain_id === 'Measurement' ? { ...c, units: units.get(c.concept_id) ?? [] } : c));
}

/**
 * The units the data record for each measurement concept (`measurement.unit_concept_id`), most
 * used first. Record counts decide the order only; they never leave the server.
 */
export async function measurementUnits(warehouse: WarehouseEngine, schema: string, conceptIds: readonly number[]): Promise<Map<number, ConceptUnit[]>> {
  const ids = conceptIds.filter((id) => Number.isSafeInteger(id));
  const byConcept = new Map<number, ConceptUnit[]>();
  if (ids.length === 0) return byConcept;
  const rows = await warehouse.query(
    `SELECT m.measurement_concept_id AS concept_id, m.unit_concept_id AS unit_id, u.concept_code AS code, u.concept_name AS name, COUNT(*) AS n
     FROM "${schema}"."measurement" m JOIN "${schema}"."concept" u ON u.concept_id = m.unit_concept_id
     WHERE m.measurement_concept_id IN (${ids.map((id) => String(id)).join(', ')}) AND m.unit_concept_id <> 0
     GROUP BY m.measurement_concept_id, m.unit_concept_id, u.concept_code, u.concept_name
     ORDER BY m.measurement_concept_id, COUNT(*) DESC, m.unit_concept_id`,
    [],
    { timeoutMs: 10_000 },
  );
  for (const r of rows) {
    const list = byConcept.get(Number(r.concept_id)) ?? [];
    list.push({ concept_id: Number(r.unit_id), code: String(r.code ?? ''), name: String(r.name ?? '') });
    byConcept.set(Number(r.concept_id), list);
  }
  return byConcept;
}
