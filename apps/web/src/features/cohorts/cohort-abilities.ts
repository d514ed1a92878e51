import type { Cohort } from '@hdp/contract';
import { COHORT_TRANSITIONS, type CohortStatus, type CohortTransition } from '@hdp/contract/cohort-lifecycle';
import { can, hasRole, type Actor } from '@hdp/contract/permissions';
import { versionAwaitingReview } from './cohort-review';

/** The viewer, as far as cohort actions go. */
export type Viewer = Actor & { id: string };

/** What a viewer may do with a cohort on its page. */
export interface CohortAbilities {
  /** Change the name, description and tags. */
  edit: boolean;
  /** Offer Refresh at all (it may still be disabled, see `refreshRefusal`). */
  refresh: boolean;
  /** Why Refresh cannot run now, shown beside the disabled button. */
  refreshRefusal: string | null;
  /** The status changes to offer, in display order. */
  transitions: CohortTransition[];
  /** A newer version of a published cohort that the viewer (a data steward) may review and publish. */
  reviewVersion: number | null;
}

const TRANSITION_ORDER = Object.keys(COHORT_TRANSITIONS) as CohortTransition[];

/** The status changes that start from `status` (COHORT_TRANSITIONS), in display order. */
export function transitionsFrom(status: CohortStatus): CohortTransition[] {
  return TRANSITION_ORDER.filter((name) => (COHORT_TRANSITIONS[name].from as readonly CohortStatus[]).includes(status));
}

/**
 * What the viewer may do with the cohort, as the API decides it: a data steward or administrator
 * ('cohorts:publish') edits and refreshes any cohort and changes its status along
 * COHORT_TRANSITIONS; its author edits and refreshes it while it is a draft.
 */
export function cohortAbilities(
  cohort: Pick<Cohort, 'status' | 'author' | 'source_query' | 'version' | 'published_version'>,
  viewer: Viewer | null | undefined,
): CohortAbilities {
  const steward = can(viewer, 'cohorts:publish');
  const manages = can(viewer, 'cohorts:update') && (steward || (viewer?.id === cohort.author.id && cohort.status === 'DRAFT'));
  const refreshRefusal =
    cohort.status === 'ARCHIVED'
      ? 'An archived cohort cannot be re-run: restore it first.'
      : cohort.source_query === null
        ? 'Its source query was deleted, so it cannot be run again.'
        : null;
  return {
    edit: manages,
    refresh: manages,
    refreshRefusal,
    transitions: steward ? transitionsFrom(cohort.status) : [],
    reviewVersion: steward ? versionAwaitingReview(cohort) : null,
  };
}

/**
 * Whether the viewer may open the cohort's source query in the Data Explorer: saved queries are
 * seen by their owner and by administrators only (anyone else is told it does not exist). Data
 * stewards review the cohort's own definition on its page instead (docs/cohorts.md).
 */
export function canOpenSourceQuery(sourceQuery: Cohort['source_query'], viewer: Viewer | null | undefined): boolean {
  if (!sourceQuery || !viewer || !can(viewer, 'queries:read')) return false;
  return viewer.id === sourceQuery.created_by || hasRole(viewer, 'ADMIN');
}
