import type { Cohort, CohortDetail, CohortVersion, QueryResult } from '@hdp/contract';
import { displayCount } from '../warehouse/suppression';
import type { CohortVersionView, CohortView } from './cohort-repository';

/** A cohort's person count as shown: hidden below the suppression threshold, like every count. */
export function shownCount(count: number, threshold: number): { person_count: number | null; person_count_display: string } {
  const suppressed = count > 0 && count < threshold ? 'small' : null;
  return { person_count: suppressed ? null : count, person_count_display: displayCount({ count, suppressed }, threshold) };
}

/** The fields of a cohort that leave the server. */
export function presentCohort(row: CohortView, threshold: number): Cohort {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags,
    status: row.status,
    version: row.version,
    ...shownCount(row.personCount, threshold),
    source_query: row.sourceQuery && {
      id: row.sourceQuery.id,
      name: row.sourceQuery.name,
      version: row.sourceQuery.version,
      created_by: row.sourceQuery.ownerId,
    },
    author: { id: row.authorId, email: row.authorEmail },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
    published_by: row.publishedBy ? { id: row.publishedBy, email: row.publishedByEmail } : null,
  };
}

export function presentVersion(row: CohortVersionView, threshold: number): CohortVersion {
  return {
    version: row.version,
    origin: row.origin,
    query_version: row.queryVersion,
    execution_id: row.executionId,
    ...shownCount(row.personCount, threshold),
    dataset: row.dataset,
    created_by: { id: row.createdBy, email: row.createdByEmail },
    created_at: row.createdAt.toISOString(),
  };
}

export function presentCohortDetail(row: CohortView, versions: CohortVersionView[], result: QueryResult, threshold: number): CohortDetail {
  return { ...presentCohort(row, threshold), versions: versions.map((v) => presentVersion(v, threshold)), result };
}
