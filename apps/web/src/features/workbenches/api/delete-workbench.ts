import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { WORKBENCH_LIST_TAG } from './workbench-tags';

export const DELETE_WORKBENCH_PATH = contractPath('deleteWorkbench', '/api/v1/workbenches/{workbenchId}/');

/** Deletes a workbench with its files; refused (409) while one of its notebooks runs. */
export const deleteWorkbenchApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    deleteWorkbench: build.mutation<void, string>({
      query: (workbenchId) => ({ url: pathOf(DELETE_WORKBENCH_PATH, { workbenchId }), method: 'DELETE' }),
      // The deleted workbench's own entry is not invalidated: refetching it would only answer 404.
      invalidatesTags: (_result, error) => (error ? [] : [WORKBENCH_LIST_TAG]),
    }),
  }),
});

export const { useDeleteWorkbenchMutation } = deleteWorkbenchApi;
