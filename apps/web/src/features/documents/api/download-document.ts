import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const DOWNLOAD_DOCUMENT_PATH = contractPath('downloadDocument', '/api/v1/documents/{documentId}/');

/** A large file on a slow line takes longer than the ordinary 30 s call timeout. */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * Reads a successful answer as a blob and gives a local blob address for it; an error answer is
 * read as the API's JSON error body so the error catalogue sees its `detail`.
 */
export async function blobUrlOf(response: Response): Promise<string | unknown> {
  if (!response.ok) return response.json().catch(() => undefined);
  return URL.createObjectURL(await response.blob());
}

/**
 * Fetches a document with the bearer token and turns it into a blob address (spec §7). It is a
 * mutation so nothing is kept in the query cache, and the browser is told not to cache it either.
 * The caller revokes the address once the download has started.
 */
export const downloadDocumentApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    downloadDocument: build.mutation<string, string>({
      query: (documentId) => ({
        url: pathOf(DOWNLOAD_DOCUMENT_PATH, { documentId }),
        method: 'GET',
        cache: 'no-store',
        timeout: DOWNLOAD_TIMEOUT_MS,
        responseHandler: blobUrlOf,
      }),
    }),
  }),
});

export const { useDownloadDocumentMutation } = downloadDocumentApi;
