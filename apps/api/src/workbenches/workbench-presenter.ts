import type { Workbench, WorkbenchMemberRole, WorkbenchSummary } from '@hdp/contract';
import { shownCount } from '../cohorts/cohort-presenter';
import type { MemberView, ReleaseView, WorkbenchDocumentRow, WorkbenchQueryRow, WorkbenchSummaryView, WorkbenchView } from './workbench-repository';

function presentBase(row: WorkbenchView, myRole: WorkbenchMemberRole | null) {
  return {
    id: row.id,
    name: row.name,
    purpose: row.purpose,
    version: row.version,
    my_role: myRole,
    state: row.state,
    created_by: { id: row.createdBy, email: row.createdByEmail },
    updated_by: { id: row.updatedBy, email: row.updatedByEmail },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A list row: the workbench and how much it holds. */
export function presentWorkbenchSummary(row: WorkbenchSummaryView): WorkbenchSummary {
  return {
    ...presentBase(row, row.myRole),
    member_count: row.memberCount,
    cohort_count: row.cohortCount,
    query_count: row.queryCount,
    document_count: row.documentCount,
  };
}

/** The whole workbench: members, released cohorts with their provisioning state, copied queries and documents. */
export function presentWorkbench(
  row: WorkbenchView,
  parts: { myRole: WorkbenchMemberRole | null; members: MemberView[]; releases: ReleaseView[]; queries: WorkbenchQueryRow[]; documents: WorkbenchDocumentRow[] },
  threshold: number,
  servedSchema: string | null,
): Workbench {
  return {
    ...presentBase(row, parts.myRole),
    members: parts.members.map((m) => ({ id: m.userId, email: m.email, name: m.name, role: m.role })),
    cohorts: parts.releases.map((r) => ({
      id: r.cohortId,
      name: r.cohortName,
      tags: r.tags,
      version: r.cohortVersion,
      latest_version: r.latestVersion,
      ...shownCount(r.personCount, threshold),
      latest_person_count_display: r.latestPersonCount === null ? null : shownCount(r.latestPersonCount, threshold).person_count_display,
      latest_releasable: r.cohortPublished && r.latestDatasetSchema !== null && r.latestDatasetSchema === servedSchema,
      state: r.state,
      progress: Math.min(1, Math.max(0, r.progress)),
      error: r.error,
      row_counts: r.rowCounts ?? null,
      released_at: r.releasedAt.toISOString(),
    })),
    queries: parts.queries.map((q) => ({
      id: q.id,
      source_query_id: q.sourceQueryId,
      name: q.name,
      description: q.description,
      query: q.query,
      copied_at: q.copiedAt.toISOString(),
    })),
    documents: parts.documents.map((d) => ({
      id: d.id,
      source_document_id: d.sourceDocumentId,
      name: d.name,
      content_type: d.contentType,
      size_bytes: d.sizeBytes,
      copied_at: d.copiedAt.toISOString(),
    })),
  };
}
