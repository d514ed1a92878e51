import type { COHORT_ORDERS, CohortList, CohortStatus } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { cohortListTags } from './cohort-tags';

export const LIST_COHORTS_PATH = contractPath('listCohorts', '/api/v1/cohorts/');

export type CohortOrder = (typeof COHORT_ORDERS)[number];

/** The parameters of the cohorts list (spec §7); tags are sent as repeated parameters. */
export interface ListCohortsArgs {
  skip: number;
  limit: number;
  search?: string;
  status?: CohortStatus | 'AWAITING_REVIEW';
  tags?: string[];
  order_by?: CohortOrder;
}

/**
 * One page of the cohorts the user may see (published ones and their own; all of them for a data
 * steward or administrator), with every tag in use for the tag filter.
 */
export const listCohortsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listCohorts: build.query<CohortList, ListCohortsArgs>({
      query: (params) => ({ url: LIST_COHORTS_PATH, method: 'GET', params: { ...params } }),
      providesTags: (result) => cohortListTags(result?.cohorts),
    }),
  }),
});

export const { useListCohortsQuery } = listCohortsApi;
