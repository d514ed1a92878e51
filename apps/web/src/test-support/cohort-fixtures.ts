import type { Cohort, CohortDetail, CohortVersion } from '@hdp/contract';
import { aResult } from '@/test-support/query-fixtures';

export const AUTHOR = { id: '0b6e9b52-5f1d-4c1e-9a52-7c1d2e3f4a5b', email: 'ada@example.org' };
export const STEWARD = { id: '3a4b5c6d-7e8f-4a0b-8c1d-2e3f4a5b6c7d', email: 'stella@example.org' };

/** A cohort as the API presents it in lists; fields can be overridden. */
export function aCohort(overrides: Partial<Cohort> = {}): Cohort {
  const published = overrides.published_version != null;
  return {
    published_person_count: published ? (overrides.person_count ?? 273) : null,
    published_person_count_display: published ? (overrides.person_count_display ?? '273') : null,
    published_on_current_data: published ? true : null,
    id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
    name: 'Women with type 2 diabetes',
    description: 'Women aged 40 to 65 with type 2 diabetes and an HbA1c above 7.',
    tags: ['diabetes', 'women'],
    status: 'DRAFT',
    version: 1,
    published_version: null,
    person_count: 273,
    person_count_display: '273',
    source_query: { id: '5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c', name: 'Diabetes query', version: 2, created_by: AUTHOR.id },
    author: AUTHOR,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-21T09:30:00.000Z',
    published_at: null,
    published_by: null,
    ...overrides,
  };
}

/** One version of a cohort. */
export function aVersion(overrides: Partial<CohortVersion> = {}): CohortVersion {
  return {
    version: 1,
    origin: 'EXECUTION',
    query_version: 2,
    execution_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
    person_count: 273,
    person_count_display: '273',
    dataset: 'generated',
    definition: {
      query: { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] },
      summary: [
        { depth: 0, text: 'All of these:' },
        { depth: 1, text: 'Sex is Female' },
      ],
    },
    created_by: AUTHOR,
    created_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** A cohort with its history and demographics. */
export function aCohortDetail(overrides: Partial<CohortDetail> = {}): CohortDetail {
  return { ...aCohort(), versions: [aVersion()], result: aResult(), ...overrides };
}
