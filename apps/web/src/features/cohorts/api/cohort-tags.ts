import type { Cohort } from '@hdp/contract';

/** The cache tag of every cohorts list: a change to any cohort refreshes them. */
export const COHORT_LIST_TAG = { type: 'Cohorts', id: 'LIST' } as const;

/** The cache tags a change to one cohort invalidates: that cohort and every list. */
export function cohortChangeTags(cohortId: string) {
  return [{ type: 'Cohorts' as const, id: cohortId }, COHORT_LIST_TAG];
}

/** The cache tags a cohorts list provides: each cohort on the page and the list itself. */
export function cohortListTags(cohorts: readonly Pick<Cohort, 'id'>[] | undefined) {
  return [...(cohorts ?? []).map((cohort) => ({ type: 'Cohorts' as const, id: cohort.id })), COHORT_LIST_TAG];
}
