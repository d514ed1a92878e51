import type { CohortVersion } from '@hdp/contract';
import type { CohortStatus, CohortTransition } from '@hdp/contract/cohort-lifecycle';
import type { CohortOrder } from './api/list-cohorts';

/** How cohort states read on screen. */
export const STATUS_LABELS: Record<CohortStatus, string> = {
  DRAFT: 'Draft',
  PUBLISHED: 'Published',
  ARCHIVED: 'Archived',
};

/** The status filter's choices, in the order they are offered after 'All'. */
export const STATUS_FILTER_ORDER: readonly CohortStatus[] = ['PUBLISHED', 'DRAFT', 'ARCHIVED'];

/** How a version came about. */
export const ORIGIN_LABELS: Record<CohortVersion['origin'], string> = {
  EXECUTION: 'Created from a run',
  REFRESH: 'Re-run on current data',
};

/** The sort choices, as the list offers them. */
export const ORDER_LABELS: Record<CohortOrder, string> = {
  '-updated_at': 'Recently updated',
  updated_at: 'Least recently updated',
  '-created_at': 'Newest first',
  created_at: 'Oldest first',
  name: 'Name, A to Z',
  '-name': 'Name, Z to A',
  '-person_count': 'Most persons',
  person_count: 'Fewest persons',
};

/** What each status change is called, what it asks first and what it says when done. */
/** The action that runs the source query again and keeps its persons as a new version. */
export const RERUN_LABEL = 'Re-run on current data (new version)';

export const TRANSITION_TEXT: Record<CohortTransition, { label: string; confirm: string; description: string; done: string; danger?: boolean }> = {
  publish: {
    label: 'Publish',
    confirm: 'Publish this cohort?',
    description: 'Every researcher can then find it under Published and release it to a workbench.',
    done: 'Cohort published',
  },
  unpublish: {
    label: 'Unpublish',
    confirm: 'Unpublish this cohort?',
    description: 'It goes back to draft: only its author and data stewards see it.',
    done: 'Cohort unpublished',
  },
  archive: {
    label: 'Archive',
    confirm: 'Archive this cohort?',
    description: 'It is kept but no longer offered, and can be restored.',
    done: 'Cohort archived',
    danger: true,
  },
  restore: {
    label: 'Restore',
    confirm: 'Restore this cohort?',
    description: 'It goes back to draft.',
    done: 'Cohort restored',
  },
};
