import type { Me, Workbench, WorkbenchSummary } from '@hdp/contract';
import { aUser } from '@/test-support/render';

export const ME: Me = { ...aUser({ id: '0b6e9b52-5f1d-4c1e-9a52-7c1d2e3f4a5b', email: 'rosalind@example.org', name: 'Rosalind Franklin' }), permissions: ['workbenches:create'] };
export const COLLEAGUE = { id: '3a4b5c6d-7e8f-4a0b-8c1d-2e3f4a5b6c7d', email: 'stella@example.org', name: 'Stella Steward' };
export const PURPOSE = 'To study how HbA1c control relates to kidney outcomes in women with type 2 diabetes.';

/** A workbench as the API lists it; fields can be overridden. */
export function aWorkbenchSummary(overrides: Partial<WorkbenchSummary> = {}): WorkbenchSummary {
  return {
    id: '6f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f',
    name: 'Diabetes and kidneys',
    purpose: PURPOSE,
    version: 1,
    my_role: 'OWNER',
    state: 'READY',
    created_by: { id: ME.id, email: ME.email },
    updated_by: { id: ME.id, email: ME.email },
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-21T09:30:00.000Z',
    member_count: 2,
    cohort_count: 1,
    query_count: 1,
    document_count: 0,
    ...overrides,
  };
}

/** A workbench with its members and data. */
export function aWorkbench(overrides: Partial<Workbench> = {}): Workbench {
  const { member_count: _m, cohort_count: _c, query_count: _q, document_count: _d, ...base } = aWorkbenchSummary();
  return {
    ...base,
    members: [
      { id: ME.id, email: ME.email, name: ME.name, role: 'OWNER' },
      { ...COLLEAGUE, role: 'READER' },
    ],
    cohorts: [
      {
        id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
        name: 'Women with type 2 diabetes',
        tags: ['diabetes'],
        version: 1,
        latest_version: 1,
        latest_person_count_display: '273',
        latest_releasable: true,
        person_count: 273,
        person_count_display: '273',
        state: 'READY',
        progress: 1,
        error: null,
        row_counts: { person: 273, condition_occurrence: 1204 },
        released_at: '2026-11-20T10:00:00.000Z',
      },
    ],
    queries: [
      {
        id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        source_query_id: '5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c',
        name: 'Diabetes query',
        description: '',
        query: { id: 'root', combinator: 'and', rules: [] },
        copied_at: '2026-11-20T10:00:00.000Z',
      },
    ],
    documents: [],
    ...overrides,
  };
}
