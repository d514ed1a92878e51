import type { QueryExecution, QueryGroup, QueryResult } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const EXECUTE_ANONYMOUS_PATH = contractPath('executeAnonymousQuery', '/api/v1/queries/execute/');
export const EXECUTE_QUERY_PATH = contractPath('executeQuery', '/api/v1/queries/{queryId}/executions/');
export const QUERY_EXECUTION_PATH = contractPath('getQueryExecution', '/api/v1/queries/{queryId}/executions/{queryExecutionId}/');
export const LATEST_EXECUTION_PATH = contractPath('getLatestQueryExecution', '/api/v1/queries/{queryId}/executions/latest/');

export interface QueryExecutionArgs {
  queryId: string;
  queryExecutionId: string;
}

/** Runs: an unsaved tree at once, or a saved query as a job that is polled until it ends. */
export const executionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    executeAnonymousQuery: build.mutation<QueryResult, QueryGroup>({
      query: (query) => ({ url: EXECUTE_ANONYMOUS_PATH, method: 'POST', body: { query } }),
    }),
    executeQuery: build.mutation<QueryExecution, string>({
      query: (queryId) => ({ url: pathOf(EXECUTE_QUERY_PATH, { queryId }), method: 'POST' }),
      invalidatesTags: (_result, _error, queryId) => [{ type: 'Executions', id: queryId }],
    }),
    getQueryExecution: build.query<QueryExecution, QueryExecutionArgs>({
      query: (params) => ({ url: pathOf(QUERY_EXECUTION_PATH, { ...params }), method: 'GET' }),
    }),
    getLatestQueryExecution: build.query<QueryExecution, string>({
      query: (queryId) => ({ url: pathOf(LATEST_EXECUTION_PATH, { queryId }), method: 'GET' }),
      providesTags: (_result, _error, queryId) => [{ type: 'Executions', id: queryId }],
    }),
  }),
});

export const {
  useExecuteAnonymousQueryMutation,
  useExecuteQueryMutation,
  useGetQueryExecutionQuery,
  useGetLatestQueryExecutionQuery,
} = executionsApi;

/** An execution that has ended: its result or its error is final. */
export function isFinished(execution: QueryExecution | undefined): boolean {
  return execution?.status === 'SUCCEEDED' || execution?.status === 'FAILED';
}
