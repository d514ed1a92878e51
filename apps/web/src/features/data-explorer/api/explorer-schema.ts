import type { Concept, DataExplorerSchema } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const SCHEMA_PATH = contractPath('getDataExplorerSchema', '/api/v1/data-explorer/schema/');
export const CONCEPTS_PATH = contractPath('searchConcepts', '/api/v1/data-explorer/concepts/');

export interface SearchConceptsArgs {
  search: string;
  domain?: string;
  limit?: number;
}

/** The tables and fields a query can use, and the concept picker's search. */
export const explorerSchemaApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getDataExplorerSchema: build.query<DataExplorerSchema, void>({
      query: () => ({ url: SCHEMA_PATH, method: 'GET' }),
    }),
    searchConcepts: build.query<{ concepts: Concept[] }, SearchConceptsArgs>({
      query: ({ search, domain, limit = 20 }) => ({ url: CONCEPTS_PATH, method: 'GET', params: { search, domain, limit } }),
    }),
  }),
});

export const { useGetDataExplorerSchemaQuery, useSearchConceptsQuery } = explorerSchemaApi;
