import type { Concept } from '@hdp/contract';
import type { WarehouseEngine } from './warehouse-engine';

/**
 * Concepts by name (case-insensitive, anywhere in the name) or by exact code or id, within a
 * domain when one is given. Standard concepts first, then shorter names.
 */
export async function searchConcepts(
  warehouse: WarehouseEngine,
  options: { search?: string; domain?: string; limit: number },
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
  const rows = await warehouse.query(
    `SELECT c.concept_id, c.concept_name, c.domain_id, c.vocabulary_id, c.concept_code, c.standard_concept
     FROM "${state.schema}"."concept" c ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
     ORDER BY CASE WHEN c.standard_concept = 'S' THEN 0 ELSE 1 END, length(c.concept_name), c.concept_id
     LIMIT ${Math.min(Math.max(1, Math.floor(options.limit)), 100)}`,
    params,
    { timeoutMs: 10_000 },
  );
  return rows.map((r) => ({
    concept_id: Number(r.concept_id),
    concept_name: String(r.concept_name ?? ''),
    domain_id: String(r.domain_id ?? ''),
    vocabulary_id: String(r.vocabulary_id ?? ''),
    concept_code: String(r.concept_code ?? ''),
    standard_concept: r.standard_concept === null || r.standard_concept === undefined ? null : String(r.standard_concept),
  }));
}
