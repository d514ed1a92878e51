import type { AtlasImportResult } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const IMPORT_ATLAS_PATH = contractPath('importAtlasQuery', '/api/v1/queries/import/atlas/');
export const EXPORT_ATLAS_PATH = contractPath('exportAtlasQuery', '/api/v1/queries/{queryId}/export/atlas/');

export interface AtlasImportBody {
  name: string;
  definition: Record<string, unknown>;
}

/** ATLAS (OHDSI Circe) cohort definitions in and out of saved queries. */
export const atlasApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    importAtlasQuery: build.mutation<AtlasImportResult, AtlasImportBody>({
      query: (body) => ({ url: IMPORT_ATLAS_PATH, method: 'POST', body }),
      invalidatesTags: [{ type: 'Queries', id: 'LIST' }],
    }),
    // A mutation: the file is made on demand and never kept in the query cache.
    exportAtlasQuery: build.mutation<Record<string, unknown>, string>({
      query: (queryId) => ({ url: pathOf(EXPORT_ATLAS_PATH, { queryId }), method: 'GET', cache: 'no-store' }),
    }),
  }),
});

export const { useImportAtlasQueryMutation, useExportAtlasQueryMutation } = atlasApi;
