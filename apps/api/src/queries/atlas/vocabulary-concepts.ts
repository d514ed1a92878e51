import type { WarehouseEngine } from '../../warehouse/warehouse-engine';
import type { CirceConcept } from './circe-export';

/**
 * What the warehouse's vocabulary holds of these concept ids, in Circe's `Concept` fields; null
 * when no data is loaded (nothing to check against). Ids are whole numbers, written into the SQL
 * in batches.
 */
export async function vocabularyConcepts(warehouse: WarehouseEngine, ids: readonly number[]): Promise<Map<number, CirceConcept> | null> {
  const state = warehouse.state;
  if (!state) return null;
  const found = new Map<number, CirceConcept>();
  const safe = [...new Set(ids)].filter((id) => Number.isSafeInteger(id));
  for (let i = 0; i < safe.length; i += 1000) {
    const rows = await warehouse.query(
      `SELECT c.concept_id, c.concept_name, c.standard_concept, c.invalid_reason, c.concept_code, c.domain_id, c.vocabulary_id, c.concept_class_id
       FROM "${state.schema}"."concept" c WHERE c.concept_id IN (${safe.slice(i, i + 1000).map(String).join(', ')})`,
      [],
      { timeoutMs: 10_000 },
    );
    for (const r of rows) {
      const id = Number(r.concept_id);
      found.set(id, {
        CONCEPT_ID: id,
        CONCEPT_NAME: String(r.concept_name ?? ''),
        STANDARD_CONCEPT: r.standard_concept === null || r.standard_concept === undefined ? null : String(r.standard_concept),
        INVALID_REASON: r.invalid_reason === null || r.invalid_reason === undefined ? null : String(r.invalid_reason),
        CONCEPT_CODE: String(r.concept_code ?? ''),
        DOMAIN_ID: String(r.domain_id ?? ''),
        VOCABULARY_ID: String(r.vocabulary_id ?? ''),
        CONCEPT_CLASS_ID: String(r.concept_class_id ?? ''),
      });
    }
  }
  return found;
}
