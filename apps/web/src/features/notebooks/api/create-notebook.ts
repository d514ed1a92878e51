import type { Notebook, NotebookCreate } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { notebookChangeTags } from './notebook-tags';

export const CREATE_NOTEBOOK_PATH = contractPath('createNotebook', '/api/v1/workbenches/{workbenchId}/notebooks/');

/** Creates a notebook (notebookCreate); it answers PROVISIONING and the list follows it to RUNNING. */
export const createNotebookApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    createNotebook: build.mutation<Notebook, { workbenchId: string; body: NotebookCreate }>({
      query: ({ workbenchId, body }) => ({ url: pathOf(CREATE_NOTEBOOK_PATH, { workbenchId }), method: 'POST', body }),
      invalidatesTags: (_result, error, { workbenchId }) => notebookChangeTags(workbenchId, undefined, error),
    }),
  }),
});

export const { useCreateNotebookMutation } = createNotebookApi;
