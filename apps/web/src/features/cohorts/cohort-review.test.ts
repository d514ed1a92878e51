import { describe, expect, it } from 'vitest';
import { describeChanges, hiddenCells, publishRefusal, versionAwaitingReview } from './cohort-review';
import { aCohort, aVersion } from '@/test-support/cohort-fixtures';
import { aResult } from '@/test-support/query-fixtures';

describe('reviewing a cohort', () => {
  it('finds the version awaiting review only on a published cohort with a newer version', () => {
    expect(versionAwaitingReview(aCohort({ status: 'PUBLISHED', version: 2, published_version: 1 }))).toBe(2);
    expect(versionAwaitingReview(aCohort({ status: 'PUBLISHED', version: 2, published_version: 2 }))).toBeNull();
    expect(versionAwaitingReview(aCohort({ status: 'DRAFT', version: 2, published_version: null }))).toBeNull();
  });

  it('says why a version below the threshold cannot be published', () => {
    expect(publishRefusal(aCohort({ person_count: null, person_count_display: '< 20', version: 1 }), 20)).toBe(
      'Version 1 holds fewer than 20 persons, the suppression threshold, so it cannot be published: publishing it could identify people.',
    );
    expect(publishRefusal(aCohort(), 20)).toBeNull();
  });

  it('says that nothing changed between two identical versions, and what did otherwise', () => {
    const v1 = aVersion();
    expect(describeChanges(aVersion({ version: 2, origin: 'REFRESH' }), v1)).toBe(
      'Nothing changed since version 1: same criteria, same dataset and the same number of persons.',
    );
    const v2 = aVersion({
      version: 2,
      query_version: 3,
      dataset: 'reloaded',
      person_count_display: '301',
      definition: { query: { rules: [] }, summary: [{ depth: 0, text: 'Every person in the dataset (no criteria).' }] },
    });
    expect(describeChanges(v2, v1)).toBe('The criteria changed (source query version 2 → 3). Dataset: generated → reloaded. Persons: 273 → 301.');
    expect(describeChanges(v1, undefined)).toBe('First version.');
  });

  it('counts the hidden demographic cells', () => {
    const { hidden, total } = hiddenCells(aResult());
    expect(total).toBeGreaterThan(0);
    expect(hidden).toBeLessThanOrEqual(total);
  });
});
