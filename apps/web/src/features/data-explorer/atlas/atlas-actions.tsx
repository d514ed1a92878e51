import { useState } from 'react';
import { Button, Flex } from 'antd';
import type { SavedQuery } from '@hdp/contract';
import { AtlasExportButton } from './atlas-export-button';
import { AtlasImportDialog } from './atlas-import-dialog';

/** The data explorer's ATLAS actions: import a definition; export the open saved query. */
export function AtlasActions({ onOpened }: { onOpened: (query: SavedQuery) => void }) {
  const [importing, setImporting] = useState(false);
  return (
    <Flex gap={8} wrap>
      <Button onClick={() => setImporting(true)}>Import ATLAS definition</Button>
      <AtlasExportButton />
      {importing ? <AtlasImportDialog open onClose={() => setImporting(false)} onOpened={onOpened} /> : null}
    </Flex>
  );
}
