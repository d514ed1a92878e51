import { NOTEBOOK_TRANSITIONAL_STATUSES, type NotebookStatus } from '@hdp/contract/notebook-lifecycle';

export const NOTEBOOK_STATUS_LABELS: Record<NotebookStatus, string> = {
  PROVISIONING: 'Provisioning',
  RUNNING: 'Running',
  STOPPING: 'Stopping',
  STOPPED: 'Stopped',
  STARTING: 'Starting',
  FAILED: 'Failed',
  DELETING: 'Deleting',
};

/** Whether a job is still moving the notebook (the list polls until none is). */
export function isTransitional(status: NotebookStatus): boolean {
  return NOTEBOOK_TRANSITIONAL_STATUSES.includes(status);
}

/** How often the list asks again while a notebook is on its way somewhere; starts take seconds. */
export const NOTEBOOK_POLL_MS = 1000;

/** Notebooks the list shows per page. */
export const NOTEBOOK_PAGE_SIZE = 10;
