import type { Cohort, CohortDetail, CohortVersion, QueryResult } from '@hdp/contract';

/**
 * What a data steward reviews before publishing a cohort version, and what changed between two
 * versions. Pure functions of the cohort as the API answers it.
 */

/** The newest version awaiting a steward's review on a published cohort, or null. */
export function versionAwaitingReview(cohort: Pick<Cohort, 'status' | 'version' | 'published_version'>): number | null {
  return cohort.status === 'PUBLISHED' && cohort.published_version !== null && cohort.version > cohort.published_version ? cohort.version : null;
}

/** Whether the cohort's current version is below the suppression threshold (its count is hidden). */
export const isBelowThreshold = (cohort: Pick<Cohort, 'person_count'>) => cohort.person_count === null;

/** Why the current version cannot be published, or null when it can. */
export function publishRefusal(cohort: Pick<Cohort, 'person_count' | 'version'>, threshold: number): string | null {
  return isBelowThreshold(cohort)
    ? `Version ${cohort.version} holds fewer than ${threshold} persons, the suppression threshold, so it cannot be published: publishing it could identify people.`
    : null;
}

const sameLines = (a: CohortVersion['definition'], b: CohortVersion['definition']) =>
  !!a && !!b && a.summary.length === b.summary.length && a.summary.every((line, i) => line.text === b.summary[i]!.text && line.depth === b.summary[i]!.depth);

/**
 * What changed from `older` to `newer`, one sentence per change; empty when nothing did (same
 * criteria, same dataset, same number of persons).
 */
export function versionChanges(newer: CohortVersion, older: CohortVersion): string[] {
  const changes: string[] = [];
  if (newer.definition && older.definition && !sameLines(newer.definition, older.definition)) {
    changes.push(`The criteria changed (source query version ${older.query_version} → ${newer.query_version}).`);
  } else if (newer.query_version !== older.query_version && (!newer.definition || !older.definition)) {
    changes.push(`Source query version ${older.query_version} → ${newer.query_version}.`);
  }
  if (newer.dataset !== older.dataset) changes.push(`Dataset: ${older.dataset} → ${newer.dataset}.`);
  if (newer.person_count_display !== older.person_count_display) changes.push(`Persons: ${older.person_count_display} → ${newer.person_count_display}.`);
  return changes;
}

/** The sentence for a version compared with an earlier one: its changes, or that nothing changed. */
export function describeChanges(newer: CohortVersion, older: CohortVersion | undefined): string {
  if (!older) return 'First version.';
  const changes = versionChanges(newer, older);
  return changes.length === 0
    ? `Nothing changed since version ${older.version}: same criteria, same dataset and the same number of persons.`
    : changes.join(' ');
}

/** How many demographic cells are hidden (below the threshold, or hidden so a small one cannot be worked out). */
export function hiddenCells(result: QueryResult): { hidden: number; total: number } {
  const { sex, age_band, race, ethnicity, sex_by_age_band } = result.breakdowns;
  const cells = [...sex, ...age_band, ...race, ...ethnicity, ...sex_by_age_band.flatMap((row) => row.cells)];
  return { hidden: cells.filter((cell) => cell.suppressed).length, total: cells.length };
}

/** The version of the cohort with this number, from its history. */
export const versionOf = (cohort: Pick<CohortDetail, 'versions'>, version: number | null) =>
  version === null ? undefined : cohort.versions.find((v) => v.version === version);
