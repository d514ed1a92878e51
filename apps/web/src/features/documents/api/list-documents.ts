import type { Document, DOCUMENT_ORDERS } from '@hdp/contract';
import { DEFAULT_OFFSET, PAGE_SIZES } from '@/config/constants';
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

/** The documents list's order until the user sorts it: newest first. */
export const INITIAL_DOCUMENT_ORDER: DocumentOrder = '-created_at';

/** The list call for a page (from 1) in an order. */
export function toListDocumentsArgs(page: number, orderBy: DocumentOrder, pageSize: number = PAGE_SIZES.documents): ListDocumentsArgs {
  return { skip: DEFAULT_OFFSET + (page - 1) * pageSize, limit: pageSize, order_by: orderBy };
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
