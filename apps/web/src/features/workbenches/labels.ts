import type { WorkbenchSummary } from '@hdp/contract';
import type { WorkbenchMemberRole } from '@hdp/contract/workbench-rules';

/** How member roles read on screen. */
export const MEMBER_ROLE_LABELS: Record<WorkbenchMemberRole, string> = { OWNER: 'Owner', WRITER: 'Writer', READER: 'Reader' };

/** What each member role may do, for the role picker. */
export const MEMBER_ROLE_HELP: Record<WorkbenchMemberRole, string> = {
  OWNER: 'edits and deletes the workbench',
  WRITER: 'works in it',
  READER: 'reads it',
};

/** The caller's role, or why they see it without one (an administrator who is not a member). */
export function myRoleLabel(role: WorkbenchMemberRole | null): string {
  return role ? MEMBER_ROLE_LABELS[role] : 'Not a member (administrator)';
}

/** "1 cohort", "3 queries": a count with its noun. */
export function countOf(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? one : many}`;
}

/** The data and people of a workbench in one line: "2 members · 1 cohort · 0 queries · 3 documents". */
export function describeContents(workbench: Pick<WorkbenchSummary, 'member_count' | 'cohort_count' | 'query_count' | 'document_count'>): string {
  return [
    countOf(workbench.member_count, 'member', 'members'),
    countOf(workbench.cohort_count, 'cohort', 'cohorts'),
    countOf(workbench.query_count, 'query', 'queries'),
    countOf(workbench.document_count, 'document', 'documents'),
  ].join(' · ');
}
