import type { WorkbenchSummary } from '@hdp/contract';

/** The cache tag of every workbenches list: a change to any workbench refreshes them. */
export const WORKBENCH_LIST_TAG = { type: 'Workbenches', id: 'LIST' } as const;

/** The cache tags a change to one workbench invalidates: that workbench and every list. */
export function workbenchChangeTags(workbenchId: string) {
  return [{ type: 'Workbenches' as const, id: workbenchId }, WORKBENCH_LIST_TAG];
}

/** The cache tags a workbenches list provides: each workbench on the page and the list itself. */
export function workbenchListTags(workbenches: readonly Pick<WorkbenchSummary, 'id'>[] | undefined) {
  return [...(workbenches ?? []).map((workbench) => ({ type: 'Workbenches' as const, id: workbench.id })), WORKBENCH_LIST_TAG];
}
