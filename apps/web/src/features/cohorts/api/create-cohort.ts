import type { CohortDetail } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { COHORT_LIST_TAG } from './cohort-tags';

export const CREATE_COHORT_PATH = contractPath('createCohort', '/api/v1/cohorts/');

/** The body of POST /cohorts/: a successful execution of a saved query becomes a DRAFT cohort. */
export interface CohortCreateBody {
  name: string;
  description: string;
  tags: string[];
  executionId: string;
}

/** Makes a cohort from a run's persons; every cohorts list refreshes. */
export const createCohortApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    createCohort: build.mutation<CohortDetail, CohortCreateBody>({
      query: (body) => ({ url: CREATE_COHORT_PATH, method: 'POST', body }),
      invalidatesTags: [COHORT_LIST_TAG],
    }),
  }),
});

export const { useCreateCohortMutation } = createCohortApi;
