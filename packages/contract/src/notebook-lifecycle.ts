/**
 * The notebook lifecycle without zod: the web app's browser bundle imports this entry
 * (`@hdp/contract/notebook-lifecycle`) for the status tags and which actions to offer.
 */

/** Where a notebook is: PROVISIONING → RUNNING → STOPPING → STOPPED → STARTING → RUNNING; FAILED; DELETING. */
export const NOTEBOOK_STATUSES = ['PROVISIONING', 'RUNNING', 'STOPPING', 'STOPPED', 'STARTING', 'FAILED', 'DELETING'] as const;
export type NotebookStatus = (typeof NOTEBOOK_STATUSES)[number];

/** What a user asks of a notebook. */
export type NotebookAction = 'start' | 'stop' | 'delete' | 'open';

/**
 * The states each action is accepted from, and the state it moves the notebook to. Everything
 * else is refused with 409. Open moves nothing: it needs a RUNNING notebook.
 */
export const NOTEBOOK_TRANSITIONS: Readonly<Record<NotebookAction, { from: readonly NotebookStatus[]; to: NotebookStatus }>> = {
  start: { from: ['STOPPED', 'FAILED'], to: 'STARTING' },
  stop: { from: ['RUNNING'], to: 'STOPPING' },
  delete: { from: ['RUNNING', 'STOPPED', 'FAILED'], to: 'DELETING' },
  open: { from: ['RUNNING'], to: 'RUNNING' },
};

/** Whether `action` is accepted while the notebook is in `status`. */
export function notebookActionAllowed(action: NotebookAction, status: NotebookStatus): boolean {
  return NOTEBOOK_TRANSITIONS[action].from.includes(status);
}

/** Statuses that last only while a job works (the list follows them until they settle). */
export const NOTEBOOK_TRANSITIONAL_STATUSES: readonly NotebookStatus[] = ['PROVISIONING', 'STARTING', 'STOPPING', 'DELETING'];

/** The catalogue defaults of notebookCreate. */
export const NOTEBOOK_DEFAULTS = { zone: 'australia-southeast1-a', machineType: 'n1-standard-4' } as const;

export const NOTEBOOK_LIMITS = { nameMaxLength: 100, maxAcceleratorCount: 8 } as const;
