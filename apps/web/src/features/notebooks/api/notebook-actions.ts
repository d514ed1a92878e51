import type { Notebook, NotebookOpen } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { notebookChangeTags } from './notebook-tags';

export const START_NOTEBOOK_PATH = contractPath('startNotebook', '/api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/start/');
export const STOP_NOTEBOOK_PATH = contractPath('stopNotebook', '/api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/stop/');
export const DELETE_NOTEBOOK_PATH = contractPath('deleteNotebook', '/api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/');
export const OPEN_NOTEBOOK_PATH = contractPath('openNotebook', '/api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/open/');

export interface NotebookRef {
  workbenchId: string;
  notebookId: string;
}

/**
 * Start, stop, delete and open. The first three answer at once with the transitional status
 * (STARTING, STOPPING, DELETING); the list then follows the job by polling.
 */
export const notebookActionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    startNotebook: build.mutation<Notebook, NotebookRef>({
      query: (ref) => ({ url: pathOf(START_NOTEBOOK_PATH, { ...ref }), method: 'POST' }),
      invalidatesTags: (_result, error, ref) => notebookChangeTags(ref.workbenchId, ref.notebookId, error),
    }),
    stopNotebook: build.mutation<Notebook, NotebookRef>({
      query: (ref) => ({ url: pathOf(STOP_NOTEBOOK_PATH, { ...ref }), method: 'POST' }),
      invalidatesTags: (_result, error, ref) => notebookChangeTags(ref.workbenchId, ref.notebookId, error),
    }),
    deleteNotebook: build.mutation<Notebook, NotebookRef>({
      query: (ref) => ({ url: pathOf(DELETE_NOTEBOOK_PATH, { ...ref }), method: 'DELETE' }),
      invalidatesTags: (_result, error, ref) => notebookChangeTags(ref.workbenchId, ref.notebookId, error),
    }),
    // Opening changes nothing in the list: no tags.
    openNotebook: build.mutation<NotebookOpen, NotebookRef>({
      query: (ref) => ({ url: pathOf(OPEN_NOTEBOOK_PATH, { ...ref }), method: 'POST' }),
    }),
  }),
});

export const { useStartNotebookMutation, useStopNotebookMutation, useDeleteNotebookMutation, useOpenNotebookMutation } = notebookActionsApi;
