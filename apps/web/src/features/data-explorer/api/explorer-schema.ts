import type { Concept, DataExplorerSchema } from '@hdp/contract';
import { LIMITS } from '@hdp/contract/limits';
import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const SCHEMA_PATH = contractPath('getDataExplorerSchema', '/api/v1/data-explorer/schema/');
export const CONCEPTS_PATH = contractPath('searchConcepts', '/api/v1/data-explorer/concepts/');

export interface SearchConceptsArgs {
  search?: string;
  domain?: string;
  /** Concept ids, comma-separated: their names, whatever the limit. */
  ids?: string;
  limit?: number;
}

/** The tables and fields a query can use, and the concept picker's search. */
export const explorerSchemaApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getDataExplorerSchema: build.query<DataExplorerSchema, void>({
      query: () => ({ url: SCHEMA_PATH, method: 'GET' }),
    }),
    searchConcepts: build.query<{ concepts: Concept[] }, SearchConceptsArgs>({
      query: ({ search, domain, ids, limit = 20 }) => ({ url: CONCEPTS_PATH, method: 'GET', params: { search, domain, ids, limit } }),
    }),
  }),
});

export const { useGetDataExplorerSchemaQuery, useSearchConceptsQuery } = explorerSchemaApi;

const NO_NAMES: ReadonlyMap<number, string> = new Map();

/**
 * The names of concepts known by their ids only (a saved or imported definition keeps ids), in one
 * request for the whole list, which the store keeps for every component asking for the same ids.
 */
export function useConceptNames(ids: readonly number[]): ReadonlyMap<number, string> {
  const key = [...new Set(ids)]
    .sort((a, b) => a - b)
    .slice(0, LIMITS.maxPageSize)
    .join(',');
  const { data } = useSearchConceptsQuery(key ? { ids: key } : skipToken);
  return useMemo(() => (data ? new Map(data.concepts.map((c) => [c.concept_id, c.concept_name])) : NO_NAMES), [data]);
}
