import type { Cohort, CohortDefinition, CohortDetail, CohortVersion, QueryResult } from '@hdp/contract';
import { belowThreshold } from '../warehouse/suppression';
import type { CohortVersionView, CohortView } from './cohort-repository';

/** A cohort's person count as shown: the released (perturbed) count, hidden below the suppression threshold. */
export function shownCount(count: number, threshold: number): { person_count: number | null; person_count_display: string } {
  const small = count > 0 && count < threshold;
  return { person_count: small ? null : count, person_count_display: small ? belowThreshold(threshold) : String(count) };
}

/**
 * The version a viewer sees as the cohort's current one: its author and data stewards (`reviewer`)
 * see the newest, which may await review; everyone else the published one.
 */
export function shownVersion(row: Pick<CohortView, 'version' | 'publishedVersion'>, reviewer: boolean): number {
  return reviewer || row.publishedVersion === null ? row.version : row.publishedVersion;
}

/**
 * The fields of a cohort that leave the server. `servedSchema` is the warehouse schema served now:
 * a published version taken from another one can no longer be released (the data were reloaded).
 */
export function presentCohort(row: CohortView, threshold: number, reviewer: boolean, servedSchema: string | null): Cohort {
  const version = shownVersion(row, reviewer);
  const count = version === row.version || row.publishedPersonCount === null ? row.personCount : row.publishedPersonCount;
  const published = row.publishedVersion !== null && row.publishedPersonCount !== null ? shownCount(row.publishedPersonCount, threshold) : null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags,
    status: row.status,
    version,
    published_version: row.publishedVersion,
    ...shownCount(count, threshold),
    published_person_count: published?.person_count ?? null,
    published_person_count_display: published?.person_count_display ?? null,
    published_on_current_data: row.publishedDatasetSchema === null ? null : row.publishedDatasetSchema === servedSchema,
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

export function presentVersion(row: CohortVersionView, threshold: number, definition: CohortDefinition | null): CohortVersion {
  return {
    version: row.version,
    origin: row.origin,
    query_version: row.queryVersion,
    execution_id: row.executionId,
    ...shownCount(row.personCount, threshold),
    dataset: row.dataset,
    definition,
    created_by: { id: row.createdBy, email: row.createdByEmail },
    created_at: row.createdAt.toISOString(),
  };
}

export function presentCohortDetail(
  row: CohortView,
  versions: { row: CohortVersionView; definition: CohortDefinition | null }[],
  result: QueryResult,
  threshold: number,
  reviewer: boolean,
  servedSchema: string | null,
): CohortDetail {
  return { ...presentCohort(row, threshold, reviewer, servedSchema), versions: versions.map((v) => presentVersion(v.row, threshold, v.definition)), result };
}
