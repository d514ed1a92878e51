import type { WorkbenchList } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { workbenchListTags } from './workbench-tags';

export const LIST_WORKBENCHES_PATH = contractPath('listWorkbenches', '/api/v1/workbenches/');

/** The parameters of the workbenches list (spec §7). */
export interface ListWorkbenchesArgs {
  skip: number;
  limit: number;
  search?: string;
}

/** One page of the workbenches the user is a member of (every workbench, for an administrator). */
export const listWorkbenchesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listWorkbenches: build.query<WorkbenchList, ListWorkbenchesArgs>({
      query: (params) => ({ url: LIST_WORKBENCHES_PATH, method: 'GET', params: { ...params } }),
      providesTags: (result) => workbenchListTags(result?.workbenches),
    }),
  }),
});

export const { useListWorkbenchesQuery, useLazyListWorkbenchesQuery } = listWorkbenchesApi;
