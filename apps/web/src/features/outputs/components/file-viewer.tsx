import { useEffect, useState } from 'react';
import { Alert, Button, Table } from 'antd';
import type { ReleaseFile } from '@hdp/contract';
import { useGetReleaseFileContentMutation, useGetReleaseFilePreviewQuery } from '../api/release-requests';

const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
const FLAGGED = { background: '#fff1f0', outline: '2px solid #a8071a', outlineOffset: -2, fontWeight: 600 } as const;

/** An image of the request, fetched with the bearer token. */
function RequestImage({ requestId, file }: { requestId: string; file: ReleaseFile }) {
  const [load] = useGetReleaseFileContentMutation();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let current: string | null = null;
    void load({ requestId, fileId: file.id }).then((result) => {
      if ('data' in result && typeof result.data === 'string') setUrl((current = result.data));
    });
    return () => {
      if (current) URL.revokeObjectURL(current);
    };
  }, [load, requestId, file.id, file.version]);
  return url ? <img src={url} alt={`${file.name} (version ${file.version})`} style={{ maxWidth: '100%', maxHeight: 480, border: '1px solid #e5e8ec' }} /> : <p role="status">Loading the image…</p>;
}

/**
 * What a file holds: a table with the cells the automatic checks flagged marked (and named for
 * screen readers), a text, or an image.
 */
export function FileViewer({ requestId, file, checker }: { requestId: string; file: ReleaseFile; checker: boolean }) {
  const preview = useGetReleaseFilePreviewQuery({ requestId, fileId: file.id, version: file.version });
  const [load, loading] = useGetReleaseFileContentMutation();
  if (preview.isLoading) return <p role="status">Loading the preview…</p>;
  if (preview.isError || !preview.data) return <Alert type="warning" showIcon title="The preview could not be loaded." />;
  const { kind, header, rows, text, truncated } = preview.data;
  if (kind === 'image') return <RequestImage requestId={requestId} file={file} />;
  if (kind === 'none') {
    if (!checker) return <p style={{ color: '#5b6470', margin: 0 }}>No preview for this kind of file; the checkers read it in full.</p>;
    // A checker reads the whole file (a PDF) in a tab of its own; the API sends it under a policy that runs nothing.
    const open = async () => {
      const result = await load({ requestId, fileId: file.id });
      if ('data' in result && typeof result.data === 'string') window.open(result.data, '_blank', 'noopener');
    };
    return (
      <Button size="small" loading={loading.isLoading} onClick={() => void open()}>
        Open {file.name}
      </Button>
    );
  }
  if (kind === 'text') {
    return (
      <pre style={{ maxHeight: 320, overflow: 'auto', background: '#fafafa', border: '1px solid #e5e8ec', padding: 12, margin: 0, whiteSpace: 'pre-wrap' }} tabIndex={0} aria-label={`Contents of ${file.name}`}>
        {text}
        {truncated ? '\n…' : ''}
      </pre>
    );
  }
  const flagged = new Map<string, string>();
  for (const finding of file.checks.findings) for (const cell of finding.cells) flagged.set(`${cell.row}|${cell.column}`, finding.message);
  const data = rows.map((row, index) => ({ key: index + 1, row }));
  return (
    <>
      <Table
        size="small"
        bordered
        pagination={false}
        scroll={{ x: 'max-content', y: 360 }}
        dataSource={data}
        aria-label={`Contents of ${file.name}`}
        columns={[
          { key: '#', title: 'Row', dataIndex: 'key', width: 56 },
          ...header.map((title, column) => ({
            key: `c${column}`,
            title,
            render: (_value: unknown, record: { key: number; row: string[] }) => {
              const reason = flagged.get(`${record.key}|${title}`);
              const value = record.row[column] ?? '';
              return reason ? (
                <span style={FLAGGED} title={reason} data-flagged="true">
                  {value}
                  <span style={VISUALLY_HIDDEN}> (flagged: {reason})</span>
                </span>
              ) : (
                value
              );
            },
          })),
        ]}
      />
      {truncated ? <p style={{ color: '#5b6470', margin: '8px 0 0' }}>Only the first rows are shown here; the checks read them all.</p> : null}
    </>
  );
}
