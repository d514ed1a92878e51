import type { QUERY_ORDERS, QueryGroup, SavedQuery } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const LIST_QUERIES_PATH = contractPath('listQueries', '/api/v1/queries/');
export const CREATE_QUERY_PATH = contractPath('createQuery', '/api/v1/queries/');
export const UPDATE_QUERY_PATH = contractPath('updateQuery', '/api/v1/queries/{queryId}/');
export const DELETE_QUERY_PATH = contractPath('deleteQuery', '/api/v1/queries/{queryId}/');

export type QueryOrder = (typeof QUERY_ORDERS)[number];

/** The saved-queries list's search parameters (spec §7). */
export interface ListQueriesArgs {
  skip: number;
  limit: number;
  name_search?: string;
  id_search?: string;
  email_search?: string;
  created_by?: string;
  order_by?: QueryOrder;
}

export interface QueryList {
  queries: SavedQuery[];
  total: number;
}

export interface QueryCreateBody {
  name: string;
  description?: string;
  query: QueryGroup;
}

export interface QueryUpdateArgs {
  queryId: string;
  name?: string;
  description?: string;
  query?: QueryGroup;
}

/** Saved queries: list, create (Save, Save as), update (Save, Rename) and delete. */
export const queriesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listQueries: build.query<QueryList, ListQueriesArgs>({
      query: (params) => ({ url: LIST_QUERIES_PATH, method: 'GET', params }),
      providesTags: (result) => [
        { type: 'Queries', id: 'LIST' },
        ...(result?.queries ?? []).map((query) => ({ type: 'Queries' as const, id: query.id })),
      ],
    }),
    createQuery: build.mutation<SavedQuery, QueryCreateBody>({
      query: (body) => ({ url: CREATE_QUERY_PATH, method: 'POST', body }),
      invalidatesTags: [{ type: 'Queries', id: 'LIST' }],
    }),
    updateQuery: build.mutation<SavedQuery, QueryUpdateArgs>({
      query: ({ queryId, ...body }) => ({ url: pathOf(UPDATE_QUERY_PATH, { queryId }), method: 'PATCH', body }),
      invalidatesTags: (_result, _error, { queryId }) => [
        { type: 'Queries', id: 'LIST' },
        { type: 'Queries', id: queryId },
      ],
    }),
    deleteQuery: build.mutation<void, string>({
      query: (queryId) => ({ url: pathOf(DELETE_QUERY_PATH, { queryId }), method: 'DELETE' }),
      // Not its executions: reading the latest run of a query just deleted answers 404 (the open
      // workspace is replaced by a new query anyway).
      invalidatesTags: (_result, _error, queryId) => [
        { type: 'Queries', id: 'LIST' },
        { type: 'Queries', id: queryId },
      ],
    }),
  }),
});

export const { useListQueriesQuery, useCreateQueryMutation, useUpdateQueryMutation, useDeleteQueryMutation } = queriesApi;
