import type { Workbench } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const GET_WORKBENCH_PATH = contractPath('getWorkbench', '/api/v1/workbenches/{workbenchId}/');

/** One workbench with its members, the data released to it and how far provisioning got. */
export const getWorkbenchApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getWorkbench: build.query<Workbench, string>({
      query: (workbenchId) => ({ url: pathOf(GET_WORKBENCH_PATH, { workbenchId }), method: 'GET' }),
      providesTags: (_result, _error, workbenchId) => [{ type: 'Workbenches', id: workbenchId }],
    }),
  }),
});

export const { useGetWorkbenchQuery } = getWorkbenchApi;
