import type { Workbench, WorkbenchUpdate } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { workbenchChangeTags } from './workbench-tags';

export const UPDATE_WORKBENCH_PATH = contractPath('updateWorkbench', '/api/v1/workbenches/{workbenchId}/');

export type WorkbenchUpdateArgs = WorkbenchUpdate & { workbenchId: string };

/**
 * Replaces a workbench (PUT, body workbenchUpdate) with the `version` the edit was based on: 409
 * when someone changed it since, 418 when part of the change was refused. The workbench and every
 * list refresh after any answer, since a 418 applied the rest.
 */
export const updateWorkbenchApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    updateWorkbench: build.mutation<Workbench, WorkbenchUpdateArgs>({
      query: ({ workbenchId, ...body }) => ({ url: pathOf(UPDATE_WORKBENCH_PATH, { workbenchId }), method: 'PUT', body }),
      invalidatesTags: (_result, _error, { workbenchId }) => workbenchChangeTags(workbenchId),
    }),
  }),
});

export const { useUpdateWorkbenchMutation } = updateWorkbenchApi;
