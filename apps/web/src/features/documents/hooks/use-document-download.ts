import { useCallback, useState } from 'react';
import { saveBlobUrl } from '@/lib/files/save-blob-url';
import { useDownloadDocumentMutation } from '../api/download-document';

/**
 * Downloads a document under its original name: fetched with the bearer token into a blob
 * address, then saved. Failures are shown by the global handler (error catalogue).
 */
export function useDocumentDownload() {
  const [downloadDocument] = useDownloadDocumentMutation();
  const [pending, setPending] = useState<string | null>(null);

  const download = useCallback(
    async (document: { id: string; name: string }) => {
      setPending(document.id);
      try {
        const result = await downloadDocument(document.id);
        if ('data' in result && typeof result.data === 'string') saveBlobUrl(result.data, document.name);
      } finally {
        setPending(null);
      }
    },
    [downloadDocument],
  );

  return { download, pending };
}
