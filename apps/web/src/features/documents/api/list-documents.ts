import type { Document, DOCUMENT_ORDERS } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const LIST_DOCUMENTS_PATH = contractPath('listDocuments', '/api/v1/documents/');

export type DocumentOrder = (typeof DOCUMENT_ORDERS)[number];

export interface ListDocumentsArgs {
  skip: number;
  limit: number;
  order_by?: DocumentOrder;
}

export interface DocumentList {
  documents: Document[];
  total: number;
  total_capped: boolean;
}

/** The documents the user uploaded (every document, for an administrator), a page at a time. */
export const listDocumentsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listDocuments: build.query<DocumentList, ListDocumentsArgs>({
      query: (params) => ({ url: LIST_DOCUMENTS_PATH, method: 'GET', params }),
      providesTags: (result) => [
        { type: 'Documents', id: 'LIST' },
        ...(result?.documents ?? []).map((document) => ({ type: 'Documents' as const, id: document.id })),
      ],
    }),
  }),
});

export const { useListDocumentsQuery } = listDocumentsApi;
