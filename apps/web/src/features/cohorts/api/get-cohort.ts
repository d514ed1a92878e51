import type { CohortDetail } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const GET_COHORT_PATH = contractPath('getCohort', '/api/v1/cohorts/{cohortId}/');

/** One cohort with its version history and the demographics of its current version. */
export const getCohortApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCohort: build.query<CohortDetail, string>({
      query: (cohortId) => ({ url: pathOf(GET_COHORT_PATH, { cohortId }), method: 'GET' }),
      providesTags: (_result, _error, cohortId) => [{ type: 'Cohorts', id: cohortId }],
    }),
  }),
});

export const { useGetCohortQuery } = getCohortApi;
