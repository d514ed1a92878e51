/**
 * Cohort states and the publication lifecycle, without zod: the web app's browser bundle imports
 * this entry (`@hdp/contract/cohort-lifecycle`) to decide which buttons to offer.
 */

/** A cohort is a DRAFT until a data steward publishes it; ARCHIVED cohorts are kept but no longer offered. */
export const COHORT_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;
export type CohortStatus = (typeof COHORT_STATUSES)[number];

/**
 * Status changes a DATA_STEWARD or ADMIN may make, and the states each may start from.
 * Unpublishing takes a cohort back to DRAFT; restoring takes an archived one back to DRAFT.
 */
export const COHORT_TRANSITIONS = {
  publish: { from: ['DRAFT'], to: 'PUBLISHED' },
  unpublish: { from: ['PUBLISHED'], to: 'DRAFT' },
  archive: { from: ['DRAFT', 'PUBLISHED'], to: 'ARCHIVED' },
  restore: { from: ['ARCHIVED'], to: 'DRAFT' },
} as const satisfies Record<string, { from: readonly CohortStatus[]; to: CohortStatus }>;
export type CohortTransition = keyof typeof COHORT_TRANSITIONS;

/** The transition that takes a cohort from `from` to `to`, or undefined when there is none. */
export function cohortTransition(from: CohortStatus, to: CohortStatus): CohortTransition | undefined {
  return (Object.keys(COHORT_TRANSITIONS) as CohortTransition[]).find((name) => {
    const transition = COHORT_TRANSITIONS[name];
    return transition.to === to && (transition.from as readonly CohortStatus[]).includes(from);
  });
}

/** Tags: at most this many per cohort, each at most this long. */
export const COHORT_MAX_TAGS = 12;
export const COHORT_TAG_MAX_LENGTH = 40;
