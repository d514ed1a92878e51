import type { NOTEBOOK_ORDERS, NotebookList } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { notebookListTags } from './notebook-tags';

export const LIST_NOTEBOOKS_PATH = contractPath('listNotebooks', '/api/v1/workbenches/{workbenchId}/notebooks/');

export type NotebookOrder = (typeof NOTEBOOK_ORDERS)[number];

/** The parameters of a workbench's notebooks list (spec §7). */
export interface ListNotebooksArgs {
  workbenchId: string;
  skip: number;
  limit: number;
  search?: string;
  order_by?: NotebookOrder;
}

/** One page of a workbench's notebooks, and whether this deployment can run notebooks at all. */
export const listNotebooksApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listNotebooks: build.query<NotebookList, ListNotebooksArgs>({
      query: ({ workbenchId, ...params }) => ({ url: pathOf(LIST_NOTEBOOKS_PATH, { workbenchId }), method: 'GET', params: { ...params } }),
      providesTags: (result, _error, { workbenchId }) => notebookListTags(workbenchId, result?.notebooks),
    }),
  }),
});

export const { useListNotebooksQuery } = listNotebooksApi;
