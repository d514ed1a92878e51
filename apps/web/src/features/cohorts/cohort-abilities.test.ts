import { describe, expect, it } from 'vitest';
import { COHORT_STATUSES } from '@hdp/contract/cohort-lifecycle';
import { canOpenSourceQuery, cohortAbilities, transitionsFrom, type Viewer } from './cohort-abilities';
import { aCohort, AUTHOR, STEWARD } from '@/test-support/cohort-fixtures';

const viewer = (id: string, roles: Viewer['roles'], status: Viewer['status'] = 'ACTIVE'): Viewer => ({ id, roles, status });
const author = viewer(AUTHOR.id, ['RESEARCHER']);
const otherResearcher = viewer('1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9', ['RESEARCHER']);
const steward = viewer(STEWARD.id, ['DATA_STEWARD']);
const admin = viewer('2e3d4c5b-6a79-4887-96a5-b4c3d2e1f0a9', ['ADMIN']);
const auditor = viewer('4c5b6a79-8887-4695-a5b4-c3d2e1f0a9b8', ['AUDITOR']);

describe('the cohort actions', () => {
  it('follow the lifecycle table', () => {
    expect(Object.fromEntries(COHORT_STATUSES.map((status) => [status, transitionsFrom(status)]))).toEqual({
      DRAFT: ['publish', 'archive'],
      PUBLISHED: ['unpublish', 'archive'],
      ARCHIVED: ['restore'],
    });
  });

  it('offer status changes to data stewards and administrators only', () => {
    const cohort = aCohort({ status: 'DRAFT' });
    expect(cohortAbilities(cohort, steward).transitions).toEqual(['publish', 'archive']);
    expect(cohortAbilities(cohort, admin).transitions).toEqual(['publish', 'archive']);
    expect(cohortAbilities(cohort, author).transitions).toEqual([]);
    expect(cohortAbilities(aCohort({ status: 'ARCHIVED' }), steward).transitions).toEqual(['restore']);
  });

  it('let the author edit and refresh a draft, stewards any cohort, and nobody else', () => {
    const draft = aCohort({ status: 'DRAFT' });
    for (const who of [author, steward, admin]) expect(cohortAbilities(draft, who)).toMatchObject({ edit: true, refresh: true, refreshRefusal: null });
    for (const who of [otherResearcher, auditor, null]) {
      expect(cohortAbilities(draft, who)).toEqual({ edit: false, refresh: false, refreshRefusal: null, transitions: [], reviewVersion: null });
    }
  });

  it('leave a published cohort to the stewards, even for its author', () => {
    const published = aCohort({ status: 'PUBLISHED' });
    expect(cohortAbilities(published, author)).toEqual({ edit: false, refresh: false, refreshRefusal: null, transitions: [], reviewVersion: null });
    expect(cohortAbilities(published, steward)).toEqual({ edit: true, refresh: true, refreshRefusal: null, transitions: ['unpublish', 'archive'], reviewVersion: null });
  });

  it('offer stewards a version awaiting review on a published cohort, and nobody else', () => {
    const rerun = aCohort({ status: 'PUBLISHED', version: 3, published_version: 2 });
    expect(cohortAbilities(rerun, steward).reviewVersion).toBe(3);
    expect(cohortAbilities(rerun, author).reviewVersion).toBeNull();
    expect(cohortAbilities(aCohort({ status: 'PUBLISHED', version: 2, published_version: 2 }), steward).reviewVersion).toBeNull();
  });

  it('give nothing to a disabled account', () => {
    expect(cohortAbilities(aCohort(), viewer(STEWARD.id, ['DATA_STEWARD'], 'DISABLED'))).toMatchObject({ edit: false, refresh: false, transitions: [] });
  });

  it('say why an archived cohort or one whose query was deleted cannot be refreshed', () => {
    expect(cohortAbilities(aCohort({ status: 'ARCHIVED' }), steward).refreshRefusal).toMatch(/archived/);
    expect(cohortAbilities(aCohort({ source_query: null }), author).refreshRefusal).toMatch(/deleted/);
  });

  it('link to the source query only for its owner or an administrator', () => {
    const source = aCohort().source_query;
    expect(canOpenSourceQuery(source, author)).toBe(true);
    expect(canOpenSourceQuery(source, admin)).toBe(true);
    expect(canOpenSourceQuery(source, steward)).toBe(false);
    expect(canOpenSourceQuery(source, otherResearcher)).toBe(false);
    expect(canOpenSourceQuery(null, author)).toBe(false);
  });
});
