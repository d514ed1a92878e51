import { useState } from 'react';
import { CheckCircleOutlined, DeleteOutlined, DownloadOutlined, MinusCircleOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Table, type TableProps } from 'antd';
import type { Document } from '@hdp/contract';
import { fileTypeName } from '@hdp/contract/limits';
import { PAGE_SIZES } from '@/config/constants';
import { formatDate } from '@/lib/dates/format-date';
import { useDeleteDocumentMutation } from '../api/delete-document';
import { tableLocale } from '@/components/table-states';
import { INITIAL_DOCUMENT_ORDER, toListDocumentsArgs, useListDocumentsQuery, type DocumentOrder } from '../api/list-documents';
import { formatBytes, formatSize } from '@/lib/files/document-size';
import { useDocumentDownload } from '../hooks/use-document-download';
import { CARD_TABLE_CLASS, labelledColumns } from '@/components/card-table';

const SCAN_LABELS: Record<Document['scan_status'], { text: string; icon: typeof CheckCircleOutlined; colour: string }> = {
  CLEAN: { text: 'Clean', icon: CheckCircleOutlined, colour: '#237804' },
  NOT_SCANNED: { text: 'Not scanned', icon: MinusCircleOutlined, colour: '#595959' },
};

/** Why a document reads "Not scanned", said once under the table (no setting names: researchers cannot act on them). */
export const NOT_SCANNED_NOTE =
  'Not scanned: this platform has no virus scanner set up, so uploads are checked for their file type only. Open files from others with care; an administrator can turn scanning on.';

/** Table column keys that sort, and the API order each gives, ascending first. */
const SORTS: Record<string, [DocumentOrder, DocumentOrder]> = {
  name: ['name', '-name'],
  size_bytes: ['size_bytes', '-size_bytes'],
  created_at: ['created_at', '-created_at'],
};

/** The documents list, a page at a time, with download and delete (after confirmation). */
export function DocumentsTable({ canDelete }: { canDelete: boolean }) {
  const [page, setPage] = useState(1);
  const [orderBy, setOrderBy] = useState<DocumentOrder>(INITIAL_DOCUMENT_ORDER);
  const pageSize = PAGE_SIZES.documents;
  const { data, isFetching, isLoading, isError, error, refetch } = useListDocumentsQuery(toListDocumentsArgs(page, orderBy, pageSize));
  const [deleteDocument] = useDeleteDocumentMutation();
  const { download, pending } = useDocumentDownload();

  const sortOrder = (key: string) => (orderBy === SORTS[key]![0] ? 'ascend' : orderBy === SORTS[key]![1] ? 'descend' : null);

  const columns: TableProps<Document>['columns'] = [
    { key: 'name', title: 'Name', dataIndex: 'name', sorter: true, sortOrder: sortOrder('name'), ellipsis: true },
    // The type in words ("Word document (.docx)"), the MIME type on hover.
    { key: 'content_type', title: 'Type', dataIndex: 'content_type', width: 170, render: (type: string) => <span title={type}>{fileTypeName(type)}</span> },
    {
      key: 'size_bytes', title: 'Size', dataIndex: 'size_bytes', sorter: true, sortOrder: sortOrder('size_bytes'), align: 'right',
      render: (bytes: number) => <span title={formatBytes(bytes)}>{formatSize(bytes)}</span>,
    },
    {
      key: 'scan_status', title: 'Scan', dataIndex: 'scan_status',
      render: (status: Document['scan_status']) => {
        const { text, icon: Icon, colour } = SCAN_LABELS[status];
        return (
          <span style={{ color: colour, whiteSpace: 'nowrap' }}>
            <Icon aria-hidden /> {text}
          </span>
        );
      },
    },
    { key: 'created_at', title: 'Uploaded', dataIndex: 'created_at', sorter: true, sortOrder: sortOrder('created_at'), render: (at: string) => formatDate(at) },
    { key: 'owner', title: 'Uploaded by', dataIndex: ['owner', 'email'], ellipsis: true },
    {
      // Wide enough for both actions: the fixed layout of the ellipsis columns would share it out otherwise.
      key: 'actions', title: 'Actions', width: 210,
      render: (_: unknown, document: Document) => (
        <Space size={4}>
          <Button
            type="link" size="small" icon={<DownloadOutlined aria-hidden />} loading={pending === document.id}
            aria-label={`Download ${document.name}`} onClick={() => void download(document)}
          >
            Download
          </Button>
          {canDelete ? (
            <Popconfirm
              title={`Delete "${document.name}"?`}
              description="The file is removed for good."
              okText="Delete"
              okButtonProps={{ danger: true }}
              cancelText="Keep"
              onConfirm={() => deleteDocument(document.id).unwrap().catch(() => undefined)}
            >
              {/* One red in every state: antd's lighter hover and open red fails contrast now that the word shows. */}
              <Button type="link" size="small" danger style={{ color: '#cf1322' }} icon={<DeleteOutlined aria-hidden />} aria-label={`Delete ${document.name}`}>
                Delete
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];

  const anyNotScanned = (data?.documents ?? []).some((document) => document.scan_status === 'NOT_SCANNED');
  return (
    <>
    <Table<Document>
      rowKey="id"
      size="middle"
      columns={labelledColumns(columns)}
      className={CARD_TABLE_CLASS}
      dataSource={isError ? [] : (data?.documents ?? [])}
      loading={isFetching}
      locale={tableLocale({
        loading: isLoading,
        error: isError ? error : undefined,
        failureTitle: 'The documents could not be loaded.',
        onRetry: () => void refetch(),
        retrying: isFetching,
        empty: <span style={{ color: '#595959' }}>No documents yet.</span>,
      })}
      pagination={{ current: page, pageSize, total: isError ? 0 : (data?.total ?? 0), showSizeChanger: false, hideOnSinglePage: true }}
      onChange={(pagination, _filters, sorter) => {
        const single = Array.isArray(sorter) ? sorter[0] : sorter;
        const key = single?.order ? String(single.columnKey) : null;
        const next: DocumentOrder = key && SORTS[key] ? SORTS[key][single!.order === 'ascend' ? 0 : 1] : '-created_at';
        if (next !== orderBy) {
          setOrderBy(next);
          setPage(1);
        } else {
          setPage(pagination.current ?? 1);
        }
      }}
    />
    {anyNotScanned && !isError ? (
      <p style={{ color: '#595959', fontSize: 13, margin: '8px 0 0' }} data-testid="not-scanned-note">
        {NOT_SCANNED_NOTE}
      </p>
    ) : null}
    </>
  );
}
