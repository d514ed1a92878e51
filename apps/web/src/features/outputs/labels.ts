import type { CheckVerdict, ReleaseRequestState } from '@hdp/contract/output-lifecycle';

/** States in words, with a solid colour that keeps white text at WCAG AA contrast. */
export const REQUEST_STATE_LABELS: Record<ReleaseRequestState, { label: string; color: string }> = {
  PENDING: { label: 'Being prepared', color: '#434343' },
  SUBMITTED: { label: 'Submitted for review', color: '#0b4f6c' },
  PARTIALLY_REVIEWED: { label: 'Partly reviewed', color: '#0b4f6c' },
  REVIEWED: { label: 'Reviewed, awaiting decision', color: '#0b4f6c' },
  APPROVED: { label: 'Approved', color: '#2b6a0f' },
  RELEASED: { label: 'Released', color: '#2b6a0f' },
  RETURNED: { label: 'Returned for changes', color: '#8a4b00' },
  REJECTED: { label: 'Rejected', color: '#a8071a' },
  WITHDRAWN: { label: 'Withdrawn', color: '#595959' },
};

export const VERDICT_LABELS: Record<CheckVerdict, { label: string; color: string }> = {
  PASS: { label: 'Checks pass', color: '#2b6a0f' },
  FAIL: { label: 'Checks fail', color: '#a8071a' },
  REVIEW: { label: 'Needs a person to look', color: '#8a4b00' },
};

export const OUTPUT_PAGE_SIZE = 10;
/** How often a request is read again while its automatic checks run. */
export const CHECKS_POLL_MS = 1000;
