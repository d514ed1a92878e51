import type { AppDispatch } from '@/app/store';
import { saveBlob } from '@/lib/files/save-blob-url';
import { atlasApi } from './atlas-api';
import { exportFileName } from './atlas-messages';

/**
 * Downloads the saved query as ATLAS JSON: a file ATLAS imports. Loaded when the button is pressed,
 * with the ATLAS endpoints. A query without a cohort definition cannot be exported; the API says
 * so, and the error catalogue shows it (the request goes through the store like any other).
 */
export async function exportAtlasFile(dispatch: AppDispatch, queryId: string, queryName: string): Promise<void> {
  const request = dispatch(atlasApi.endpoints.exportAtlasQuery.initiate(queryId));
  try {
    const result = await request;
    if ('data' in result && result.data) saveBlob(new Blob([JSON.stringify(result.data, null, 2)], { type: 'application/json' }), exportFileName(queryName));
  } finally {
    request.reset();
  }
}
