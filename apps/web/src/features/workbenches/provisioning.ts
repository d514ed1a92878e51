import type { ReleaseState } from '@hdp/contract/workbench-rules';

/** How provisioning states read on screen. */
export const RELEASE_STATE_LABELS: Record<ReleaseState, string> = {
  PENDING: 'Waiting',
  PROVISIONING: 'Provisioning',
  READY: 'Ready',
  FAILED: 'Failed',
};

/** Whether data is still on its way into the workbench: the screen keeps asking until it is not. */
export function isProvisioning(state: ReleaseState): boolean {
  return state === 'PENDING' || state === 'PROVISIONING';
}

/** How often a list or a workbench whose data is still being provisioned asks again. */
export const PROVISIONING_POLL_MS = 3_000;
