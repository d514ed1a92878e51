import Link from 'next/link';
import { Table, type TableColumnsType } from 'antd';
import type { ReleaseRequestSummary } from '@hdp/contract';
import { CARD_TABLE_CLASS, labelledColumns } from '@/components/card-table';
import { tableLocale } from '@/components/table-states';
import { formatDate } from '@/lib/dates/format-date';
import { OUTPUT_PAGE_SIZE } from '../labels';
import { RequestStateTag } from './request-state-tag';

/** The columns a list of release requests can show, each written once. */
const COLUMNS = {
  title: (href: (r: ReleaseRequestSummary) => string) => ({ key: 'title', title: 'Request', render: (_v: unknown, r: ReleaseRequestSummary) => <Link href={href(r)}>{r.title}</Link> }),
  workbench: () => ({ key: 'workbench', title: 'Workbench', dataIndex: 'workbench_name' }),
  state: () => ({ key: 'state', title: 'State', render: (_v: unknown, r: ReleaseRequestSummary) => <RequestStateTag state={r.state} /> }),
  reviews: () => ({ key: 'reviews', title: 'Reviews', render: (_v: unknown, r: ReleaseRequestSummary) => `${r.reviews_in} of ${r.required_reviews}` }),
  author: () => ({ key: 'author', title: 'Author', render: (_v: unknown, r: ReleaseRequestSummary) => r.author.name || r.author.email }),
  files: () => ({ key: 'files', title: 'Files', dataIndex: 'file_count', align: 'right' as const }),
  submitted: () => ({ key: 'submitted', title: 'Submitted', dataIndex: 'submitted_at', render: (at: string | null) => (at ? formatDate(at) : '–') }),
  updated: () => ({ key: 'updated', title: 'Updated', dataIndex: 'updated_at', render: (at: string) => formatDate(at) }),
};
export type RequestColumn = keyof typeof COLUMNS;

interface ReleaseRequestsTableProps {
  /** The columns, in order. */
  columns: readonly RequestColumn[];
  /** Where a request's title leads. */
  href: (request: ReleaseRequestSummary) => string;
  list: { data?: { requests: ReleaseRequestSummary[]; total: number }; isFetching: boolean; isLoading: boolean; error?: unknown; refetch: () => unknown };
  page: number;
  onPage: (page: number) => void;
  failureTitle: string;
  empty: string;
}

/** A page of release requests: a workbench's own (its Outputs tab) or a checker's queue. */
export function ReleaseRequestsTable({ columns, href, list, page, onPage, failureTitle, empty }: ReleaseRequestsTableProps) {
  const shown: TableColumnsType<ReleaseRequestSummary> = columns.map((column) => COLUMNS[column](href));
  return (
    <Table<ReleaseRequestSummary>
      className={CARD_TABLE_CLASS}
      rowKey="id"
      columns={labelledColumns(shown)}
      dataSource={list.data?.requests}
      loading={list.isFetching}
      locale={tableLocale({
        loading: list.isLoading,
        error: list.error,
        failureTitle,
        onRetry: () => void list.refetch(),
        empty: <span style={{ color: '#595959' }}>{empty}</span>,
      })}
      pagination={{ current: page, pageSize: OUTPUT_PAGE_SIZE, total: list.data?.total ?? 0, hideOnSinglePage: true, onChange: onPage }}
    />
  );
}
