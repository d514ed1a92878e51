import type { Me, WorkbenchSummary } from '@hdp/contract';

/** Whether the user may edit and delete a workbench: its OWNERs and any administrator (mirrors the API's rule). */
export function canManageWorkbench(workbench: Pick<WorkbenchSummary, 'my_role'>, me: Pick<Me, 'roles'> | undefined): boolean {
  return workbench.my_role === 'OWNER' || (me?.roles.includes('ADMIN') ?? false);
}

/** A missing workbench, or one the user is not a member of: the API says 404 for both (and 400 for a malformed id). */
export function isNotFound(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return status === 404 || status === 400;
}

/** The API's sentence saying who deleted the workbench and when (told to its former members), if that is why it is missing. */
export function deletedDetail(error: unknown): string | undefined {
  const detail = (error as { data?: { detail?: unknown } } | undefined)?.data?.detail;
  return typeof detail === 'string' && detail.startsWith('This workbench') && detail.includes(' was deleted by ') ? detail : undefined;
}
