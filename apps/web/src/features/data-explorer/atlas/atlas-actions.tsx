import { useState } from 'react';
import dynamic from 'next/dynamic';
import { Button, Flex } from 'antd';
import type { SavedQuery } from '@hdp/contract';
import { useAppDispatch, useAppSelector } from '@/app/hooks';

// The dialog and the export (with the ATLAS endpoints) load when asked for: most visits use neither.
const AtlasImportDialog = dynamic(() => import('./atlas-import-dialog').then((m) => m.AtlasImportDialog), { ssr: false });

/** The data explorer's ATLAS actions: import a definition; export the open saved query. */
export function AtlasActions({ onOpened }: { onOpened: (query: SavedQuery) => void }) {
  const dispatch = useAppDispatch();
  const queryId = useAppSelector((state) => state.dataExplorer.queryId);
  const queryName = useAppSelector((state) => state.dataExplorer.queryName);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const exportQuery = (id: string) => {
    setExporting(true);
    import('./atlas-export')
      .then(({ exportAtlasFile }) => exportAtlasFile(dispatch, id, queryName))
      .finally(() => setExporting(false));
  };
  return (
    <Flex gap={8} wrap>
      <Button onClick={() => setImporting(true)}>Import ATLAS definition</Button>
      {queryId ? (
        <Button loading={exporting} onClick={() => exportQuery(queryId)}>
          Export as ATLAS JSON
        </Button>
      ) : null}
      {importing ? <AtlasImportDialog open onClose={() => setImporting(false)} onOpened={onOpened} /> : null}
    </Flex>
  );
}
