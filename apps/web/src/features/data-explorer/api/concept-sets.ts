import type { ConceptSetItem, SavedConceptSet } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const LIST_CONCEPT_SETS_PATH = contractPath('listConceptSets', '/api/v1/concept-sets/');
export const CREATE_CONCEPT_SET_PATH = contractPath('createConceptSet', '/api/v1/concept-sets/');
export const GET_CONCEPT_SET_PATH = contractPath('getConceptSet', '/api/v1/concept-sets/{conceptSetId}/');
export const UPDATE_CONCEPT_SET_PATH = contractPath('updateConceptSet', '/api/v1/concept-sets/{conceptSetId}/');

export interface ListConceptSetsArgs {
  search?: string;
  limit?: number;
}

export interface ConceptSetList {
  concept_sets: SavedConceptSet[];
  total: number;
}

export interface ConceptSetCreateBody {
  name: string;
  description?: string;
  items: ConceptSetItem[];
}

export interface ConceptSetUpdateArgs {
  conceptSetId: string;
  name?: string;
  items: ConceptSetItem[];
}

/** Saved concept sets (the library): list and read (a version), save a definition's set to it, and save a changed set as its next version. */
export const conceptSetsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listConceptSets: build.query<ConceptSetList, ListConceptSetsArgs>({
      // The newest saved first: the set just saved is the one a researcher looks for.
      query: ({ search, limit = 100 }) => ({ url: LIST_CONCEPT_SETS_PATH, method: 'GET', params: { limit, order_by: '-updated_at', ...(search ? { search } : {}) } }),
      providesTags: (result) => [{ type: 'ConceptSets', id: 'LIST' }, ...(result?.concept_sets ?? []).map((set) => ({ type: 'ConceptSets' as const, id: set.id }))],
    }),
    getConceptSet: build.query<SavedConceptSet, { conceptSetId: string; version?: number }>({
      query: ({ conceptSetId, version }) => ({ url: pathOf(GET_CONCEPT_SET_PATH, { conceptSetId }), method: 'GET', params: version ? { version } : {} }),
      providesTags: (_result, _error, { conceptSetId }) => [{ type: 'ConceptSets', id: conceptSetId }],
    }),
    createConceptSet: build.mutation<SavedConceptSet, ConceptSetCreateBody>({
      query: (body) => ({ url: CREATE_CONCEPT_SET_PATH, method: 'POST', body }),
      invalidatesTags: [{ type: 'ConceptSets', id: 'LIST' }],
    }),
    updateConceptSet: build.mutation<SavedConceptSet, ConceptSetUpdateArgs>({
      query: ({ conceptSetId, ...body }) => ({ url: pathOf(UPDATE_CONCEPT_SET_PATH, { conceptSetId }), method: 'PATCH', body }),
      invalidatesTags: (_result, _error, { conceptSetId }) => [{ type: 'ConceptSets', id: 'LIST' }, { type: 'ConceptSets', id: conceptSetId }],
    }),
  }),
});

export const { useListConceptSetsQuery, useGetConceptSetQuery, useCreateConceptSetMutation, useUpdateConceptSetMutation } = conceptSetsApi;
