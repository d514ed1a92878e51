import { useState } from 'react';
import Link from 'next/link';
import { Table, type TableProps } from 'antd';
import type { ReleaseRequestSummary } from '@hdp/contract';
import { CARD_TABLE_CLASS, labelledColumns } from '@/components/card-table';
import { tableLocale } from '@/components/table-states';
import { formatDate } from '@/lib/dates/format-date';
import { useListReviewQueueQuery } from '../api/release-requests';
import { OUTPUT_PAGE_SIZE } from '../labels';
import { RequestStateTag } from './request-state-tag';

/** The checker's queue: requests of workbenches they are not in, waiting for reviews or a decision, oldest first. */
export function ReviewQueuePage() {
  const [page, setPage] = useState(1);
  const list = useListReviewQueueQuery({ skip: (page - 1) * OUTPUT_PAGE_SIZE, limit: OUTPUT_PAGE_SIZE });
  const columns: TableProps<ReleaseRequestSummary>['columns'] = labelledColumns<ReleaseRequestSummary>([
    { key: 'title', title: 'Request', render: (_v, r) => <Link href={`/review-outputs/${r.id}`}>{r.title}</Link> },
    { key: 'workbench', title: 'Workbench', dataIndex: 'workbench_name' },
    { key: 'state', title: 'State', render: (_v, r) => <RequestStateTag state={r.state} /> },
    { key: 'reviews', title: 'Reviews', render: (_v, r) => `${r.reviews_in} of ${r.required_reviews}` },
    { key: 'author', title: 'Author', render: (_v, r) => r.author.name || r.author.email },
    { key: 'submitted', title: 'Submitted', dataIndex: 'submitted_at', render: (at: string | null) => (at ? formatDate(at) : '–') },
  ]);
  return (
    <>
      <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 8px' }}>Review outputs</h1>
      <p style={{ color: '#5b6470', margin: '0 0 16px' }}>
        Release requests of workbenches you are not a member of. Vote on every output file, then submit your review; your votes stay
        hidden from the other checkers until all the reviews are in.
      </p>
      <Table<ReleaseRequestSummary>
        className={CARD_TABLE_CLASS}
        rowKey="id"
        columns={columns}
        dataSource={list.data?.requests}
        loading={list.isFetching}
        locale={tableLocale({
          loading: list.isLoading,
          error: list.error,
          failureTitle: 'The requests to review could not be loaded.',
          onRetry: () => void list.refetch(),
          empty: <span style={{ color: '#595959' }}>Nothing waits for your review.</span>,
        })}
        pagination={{ current: page, pageSize: OUTPUT_PAGE_SIZE, total: list.data?.total ?? 0, hideOnSinglePage: true, onChange: setPage }}
      />
    </>
  );
}
