import type { CohortDetail, CohortUpdate } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { cohortChangeTags } from './cohort-tags';

export const UPDATE_COHORT_PATH = contractPath('updateCohort', '/api/v1/cohorts/{cohortId}/');

export type CohortUpdateArgs = CohortUpdate & { cohortId: string };

/**
 * Changes a cohort's name, description or tags, or its status (publish, unpublish, archive,
 * restore); the cohort and every cohorts list refresh.
 */
export const updateCohortApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    updateCohort: build.mutation<CohortDetail, CohortUpdateArgs>({
      query: ({ cohortId, ...body }) => ({ url: pathOf(UPDATE_COHORT_PATH, { cohortId }), method: 'PATCH', body }),
      invalidatesTags: (_result, _error, { cohortId }) => cohortChangeTags(cohortId),
    }),
  }),
});

export const { useUpdateCohortMutation } = updateCohortApi;
