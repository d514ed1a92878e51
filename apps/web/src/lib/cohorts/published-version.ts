import type { Cohort } from '@hdp/contract';

/**
 * What "Published" stands for on a cohort: the version a data steward published, its persons, and a
 * newer version awaiting review. Its author and data stewards get the newest version as the
 * cohort's `version` and `person_count`; wherever a cohort reads "Published" (home page, lists,
 * cards, the workbench wizard) the number beside it must be the published version's, the one a
 * workbench releases, with the pending one named apart.
 */
type CohortFacts = Pick<Cohort, 'status' | 'version' | 'published_version' | 'person_count_display' | 'published_person_count_display' | 'published_on_current_data'>;

export interface ShownVersion {
  /** The version the count belongs to: the published one of a published cohort, else the newest. */
  version: number;
  countDisplay: string;
  /** True when `version` is the published one. */
  published: boolean;
  /** A newer version awaiting a steward's review (its number and count), or null. */
  awaiting: { version: number; countDisplay: string } | null;
  /** The published version was taken from data the platform no longer serves: it cannot be released now. */
  notReleasable: boolean;
}

export function shownVersion(cohort: CohortFacts): ShownVersion {
  const published = cohort.status === 'PUBLISHED' && cohort.published_version !== null;
  if (!published) return { version: cohort.version, countDisplay: cohort.person_count_display, published: false, awaiting: null, notReleasable: false };
  const publishedVersion = cohort.published_version!;
  return {
    version: publishedVersion,
    countDisplay: cohort.published_person_count_display ?? cohort.person_count_display,
    published: true,
    awaiting: cohort.version > publishedVersion ? { version: cohort.version, countDisplay: cohort.person_count_display } : null,
    notReleasable: cohort.published_on_current_data === false,
  };
}

/** "version 3 (369 persons) awaits a data steward's review" */
export const awaitingText = (awaiting: NonNullable<ShownVersion['awaiting']>) =>
  `version ${awaiting.version} (${awaiting.countDisplay} persons) awaits a data steward's review`;

/** Who can make a published version releasable again, and how. */
export const NOT_RELEASABLE_TEXT =
  'The data this version was taken from are no longer served (the warehouse was reloaded), so it cannot be released. A data steward can re-run the cohort on the current data and publish the new version.';
