import { useState } from 'react';
import { LoadingOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Form, Input, List, Modal, Typography, Upload } from 'antd';
import type { AtlasImportResult, SavedQuery } from '@hdp/contract';
import { useAppDispatch } from '@/app/hooks';
import { detailOf } from '@/lib/errors/api-error-handler';
import { savedQueryOpened } from '../slice';
import { useImportAtlasQueryMutation } from './atlas-api';
import { nameFromFile, refusalInWords } from './atlas-messages';

/**
 * "Import ATLAS definition": a Circe JSON pasted or read from a file becomes a saved query. The
 * answer's warnings (unknown concepts, OHDSI's checks) and any refusal are shown in words; the
 * imported query opens from here.
 */
export function AtlasImportDialog({ open, onClose, onOpened }: { open: boolean; onClose: () => void; onOpened: (query: SavedQuery) => void }) {
  const dispatch = useAppDispatch();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [imported, setImported] = useState<AtlasImportResult | null>(null);
  const [importAtlas] = useImportAtlasQueryMutation();
  // The dialog's own flag, cleared when its request ends whatever happens: the button never stays
  // busy over an answer already shown.
  const [submitting, setSubmitting] = useState(false);

  const reset = () => {
    setName('');
    setText('');
    setProblem(null);
    setImported(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const submit = async () => {
    setProblem(null);
    let definition: unknown;
    try {
      definition = JSON.parse(text);
    } catch {
      setProblem('This is not JSON. Paste the definition from ATLAS’s “Export” tab (JSON), or choose its .json file.');
      return;
    }
    if (!definition || typeof definition !== 'object' || Array.isArray(definition)) {
      setProblem('An ATLAS cohort definition is a JSON object (it starts with “{”).');
      return;
    }
    setSubmitting(true);
    const result = await importAtlas({ name: name.trim(), definition: definition as Record<string, unknown> }).finally(() => setSubmitting(false));
    if ('error' in result) {
      const error = result.error as { status?: number | string; data?: unknown };
      setProblem(refusalInWords(error.status ?? 'unknown', detailOf(error.data)));
      return;
    }
    setImported(result.data);
  };

  const openImported = () => {
    if (!imported) return;
    dispatch(savedQueryOpened({ id: imported.id, name: imported.name, query: imported.query }));
    onOpened(imported);
    close();
  };

  return (
    <Modal
      title="Import ATLAS definition"
      open={open}
      onCancel={close}
      width={720}
      footer={
        imported ? (
          <Flex gap={8} justify="end">
            <Button onClick={close}>Close</Button>
            <Button type="primary" onClick={openImported}>
              Open the imported query
            </Button>
          </Flex>
        ) : (
          <Flex gap={8} justify="end">
            <Button onClick={close}>Cancel</Button>
            {/* The spinner follows the request itself: antd's own loading state could stay on beside a refusal already shown. */}
            <Button type="primary" icon={submitting ? <LoadingOutlined aria-hidden /> : undefined} disabled={!name.trim() || !text.trim() || submitting} onClick={() => void submit()}>
              Import
            </Button>
          </Flex>
        )
      }
    >
      {imported ? (
        <ImportOutcome result={imported} />
      ) : (
        <Form layout="vertical" requiredMark={false}>
          <Typography.Paragraph type="secondary">
            A cohort definition as ATLAS exports it (its JSON tab) or as the OHDSI Phenotype Library stores it. It becomes a saved query of yours.
          </Typography.Paragraph>
          <Form.Item label="Definition file">
            <Upload
              accept=".json,application/json"
              maxCount={1}
              showUploadList={false}
              beforeUpload={async (file) => {
                setText(await file.text());
                if (!name.trim()) setName(nameFromFile(file.name));
                setProblem(null);
                return false;
              }}
            >
              <Button>Choose a .json file</Button>
            </Upload>
          </Form.Item>
          <Form.Item label="Or paste the definition (JSON)" htmlFor="atlas-definition-text">
            <Input.TextArea id="atlas-definition-text" value={text} onChange={(e) => setText(e.target.value)} rows={8} spellCheck={false} style={{ fontFamily: 'monospace' }} />
          </Form.Item>
          <Form.Item label="Query name" htmlFor="atlas-query-name">
            <Input id="atlas-query-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
          </Form.Item>
          {problem ? <Alert type="error" showIcon message="Not imported" description={problem} role="alert" /> : null}
        </Form>
      )}
    </Modal>
  );
}

function ImportOutcome({ result }: { result: AtlasImportResult }) {
  const warnings = result.warnings.filter((w) => w.severity === 'WARNING');
  const notes = result.warnings.filter((w) => w.severity === 'INFO');
  return (
    <>
      <Alert type="success" showIcon message={`Imported as the saved query “${result.name}”.`} style={{ marginBottom: 12 }} />
      {result.warnings.length === 0 ? (
        <Typography.Paragraph>No warnings: OHDSI’s checks found nothing to point out.</Typography.Paragraph>
      ) : (
        <>
          <Typography.Paragraph>
            {warnings.length > 0 ? `${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : 'No warnings'}
            {notes.length > 0 ? ` and ${notes.length} note${notes.length === 1 ? '' : 's'}` : ''}: the query was made; check these before relying on its counts.
          </Typography.Paragraph>
          <List
            size="small"
            bordered
            aria-label="Import warnings"
            dataSource={result.warnings}
            style={{ maxHeight: 320, overflow: 'auto' }}
            renderItem={(w) => (
              <List.Item>
                <div>
                  <Typography.Text strong>{w.severity === 'WARNING' ? 'Warning' : 'Note'}: </Typography.Text>
                  {w.message}
                  <div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      Where: <code>{w.path}</code>
                    </Typography.Text>
                  </div>
                </div>
              </List.Item>
            )}
          />
        </>
      )}
    </>
  );
}
