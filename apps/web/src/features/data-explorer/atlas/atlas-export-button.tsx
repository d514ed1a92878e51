import { Button } from 'antd';
import { useAppSelector } from '@/app/hooks';
import { saveBlob } from '@/lib/files/save-blob-url';
import { useExportAtlasQueryMutation } from './atlas-api';
import { exportFileName } from './atlas-messages';

/**
 * "Export as ATLAS JSON" for the saved query that is open: a file ATLAS imports. A query without
 * a cohort definition cannot be exported; the API says so, and the error catalogue shows it.
 */
export function AtlasExportButton() {
  const queryId = useAppSelector((state) => state.dataExplorer.queryId);
  const queryName = useAppSelector((state) => state.dataExplorer.queryName);
  const [exportAtlas, { isLoading }] = useExportAtlasQueryMutation();
  if (!queryId) return null;
  const download = async () => {
    const result = await exportAtlas(queryId);
    if ('data' in result && result.data) saveBlob(new Blob([JSON.stringify(result.data, null, 2)], { type: 'application/json' }), exportFileName(queryName));
  };
  return (
    <Button loading={isLoading} onClick={() => void download()}>
      Export as ATLAS JSON
    </Button>
  );
}
