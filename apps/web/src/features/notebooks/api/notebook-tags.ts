import type { Notebook } from '@hdp/contract';

/** The cache tag of a workbench's notebooks list: any change to one of its notebooks refreshes it. */
export function notebookListTag(workbenchId: string) {
  return { type: 'Notebooks' as const, id: `LIST-${workbenchId}` };
}

/** The tags a notebooks list provides: each notebook on the page and the list itself. */
export function notebookListTags(workbenchId: string, notebooks: readonly Pick<Notebook, 'id'>[] | undefined) {
  return [...(notebooks ?? []).map((notebook) => ({ type: 'Notebooks' as const, id: notebook.id })), notebookListTag(workbenchId)];
}

/** The tags a change to one notebook invalidates (on success only: a refused change changed nothing). */
export function notebookChangeTags(workbenchId: string, notebookId: string | undefined, error: unknown) {
  if (error) return [];
  return notebookId ? [{ type: 'Notebooks' as const, id: notebookId }, notebookListTag(workbenchId)] : [notebookListTag(workbenchId)];
}
