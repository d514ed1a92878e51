import type { CohortDetail } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { cohortChangeTags } from './cohort-tags';

export const REFRESH_COHORT_PATH = contractPath('refreshCohort', '/api/v1/cohorts/{cohortId}/refresh/');

/** Runs the source query again on the current data and keeps its persons as a new version. */
export const refreshCohortApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    refreshCohort: build.mutation<CohortDetail, string>({
      query: (cohortId) => ({ url: pathOf(REFRESH_COHORT_PATH, { cohortId }), method: 'POST' }),
      invalidatesTags: (_result, _error, cohortId) => cohortChangeTags(cohortId),
    }),
  }),
});

export const { useRefreshCohortMutation } = refreshCohortApi;
