import type { SavedConceptSet } from '@hdp/contract';
import type { ConceptSetVersionRow, ConceptSetWithVersion } from './concept-set-repository';

/** The fields of a saved concept set that leave the server. */
export function presentConceptSet(row: ConceptSetWithVersion, extra: { resolvedConceptCount: number | null; versions: ConceptSetVersionRow[] }): SavedConceptSet {
  return {
    id: row.set.id,
    name: row.current.name,
    description: row.current.description,
    items: row.current.items,
    version: row.current.version,
    latest_version: row.set.version,
    resolved_concept_count: extra.resolvedConceptCount,
    used_by_queries: row.usedByQueries,
    created_by: row.set.ownerId,
    created_by_email: row.ownerEmail,
    created_at: row.set.createdAt.toISOString(),
    updated_at: row.set.updatedAt.toISOString(),
    versions: extra.versions.map((v) => ({ version: v.version, name: v.name, item_count: v.items.length, created_by: v.createdBy, created_at: v.createdAt.toISOString() })),
  };
}
