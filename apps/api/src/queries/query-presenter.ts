import type { ConceptSetUpdateNotice, QueryExecution, SavedQuery } from '@hdp/contract';
import type { QueryExecutionRow, QueryWithOwner } from './query-repository';

/** The fields of a saved query that leave the server. */
export function presentQuery(row: QueryWithOwner, conceptSetUpdates: ConceptSetUpdateNotice[] = []): SavedQuery {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    query: row.query,
    version: row.version,
    created_by: row.ownerId,
    created_by_email: row.ownerEmail,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(conceptSetUpdates.length > 0 && { concept_set_updates: conceptSetUpdates }),
  };
}

/** The fields of an execution that leave the server (never the audit context it keeps). */
export function presentExecution(row: QueryExecutionRow): QueryExecution {
  return {
    id: row.id,
    query_id: row.queryId,
    query_version: row.queryVersion,
    status: row.status,
    result: row.result ?? null,
    error: row.error ?? null,
    requested_by: row.requestedBy,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}
