import type { Workbench, WorkbenchCreate } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { WORKBENCH_LIST_TAG } from './workbench-tags';

export const CREATE_WORKBENCH_PATH = contractPath('createWorkbench', '/api/v1/workbenches/');

/**
 * Creates a workbench (body workbenchCreate). A 418 answer means it was created without the parts
 * it lists; the lists refresh either way.
 */
export const createWorkbenchApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    createWorkbench: build.mutation<Workbench, WorkbenchCreate>({
      query: (body) => ({ url: CREATE_WORKBENCH_PATH, method: 'POST', body }),
      invalidatesTags: [WORKBENCH_LIST_TAG],
    }),
  }),
});

export const { useCreateWorkbenchMutation } = createWorkbenchApi;
