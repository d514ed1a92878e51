import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const DELETE_DOCUMENT_PATH = contractPath('deleteDocument', '/api/v1/documents/{documentId}/');

/** Deletes a document and its file; the documents lists refetch. */
export const deleteDocumentApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    deleteDocument: build.mutation<void, string>({
      query: (documentId) => ({ url: pathOf(DELETE_DOCUMENT_PATH, { documentId }), method: 'DELETE' }),
      invalidatesTags: (_result, _error, documentId) => [
        { type: 'Documents', id: 'LIST' },
        { type: 'Documents', id: documentId },
      ],
    }),
  }),
});

export const { useDeleteDocumentMutation } = deleteDocumentApi;
