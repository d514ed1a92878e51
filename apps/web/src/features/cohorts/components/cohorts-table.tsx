import type { ReactNode } from 'react';
import Link from 'next/link';
import { Table, type TableProps } from 'antd';
import type { Cohort } from '@hdp/contract';
import { shownVersion } from '@/lib/cohorts/published-version';
import { formatDate } from '@/lib/dates/format-date';
import type { CohortOrder } from '../api/list-cohorts';
import { DEFAULT_COHORT_ORDER } from '../hooks/cohort-list-params';
import { CohortStatusTag } from './cohort-status-tag';
import { CohortTagList } from './cohort-tag-list';

type SortColumn = 'name' | 'person_count' | 'updated_at';

function sortOrderOf(orderBy: CohortOrder, column: SortColumn): 'ascend' | 'descend' | null {
  if (orderBy === column) return 'ascend';
  if (orderBy === `-${column}`) return 'descend';
  return null;
}

interface CohortsTableProps {
  cohorts: readonly Cohort[];
  loading: boolean;
  orderBy: CohortOrder;
  onSort: (orderBy: CohortOrder) => void;
  emptyText: ReactNode;
}

/** The cohorts as a table; sorting a column changes the list's sort, paging is outside. */
export function CohortsTable({ cohorts, loading, orderBy, onSort, emptyText }: CohortsTableProps) {
  const columns: TableProps<Cohort>['columns'] = [
    {
      key: 'name', title: 'Name', dataIndex: 'name', sorter: true, sortOrder: sortOrderOf(orderBy, 'name'),
      render: (name: string, cohort) => <Link href={`/cohorts/${cohort.id}`}>{name}</Link>,
    },
    {
      key: 'status', title: 'Status', dataIndex: 'status',
      render: (status: Cohort['status'], cohort) => {
        const awaiting = shownVersion(cohort).awaiting;
        return (
          <>
            <CohortStatusTag status={status} />
            {awaiting ? <div style={{ color: '#5b6470', fontSize: 13 }}>Version {awaiting.version} awaits review</div> : null}
          </>
        );
      },
    },
    {
      // A published cohort's persons are its published version's (what researchers see and workbenches release).
      key: 'person_count', title: 'Persons', align: 'right', sorter: true,
      sortOrder: sortOrderOf(orderBy, 'person_count'),
      render: (_value, cohort) => {
        const shown = shownVersion(cohort);
        return (
          <>
            {shown.countDisplay}
            {shown.awaiting ? <div style={{ color: '#5b6470', fontSize: 13 }}>v{shown.awaiting.version}: {shown.awaiting.countDisplay}</div> : null}
          </>
        );
      },
    },
    {
      key: 'version', title: 'Version', align: 'right',
      render: (_value, cohort) => {
        const shown = shownVersion(cohort);
        return shown.published ? `${shown.version} (published)` : shown.version;
      },
    },
    { key: 'tags', title: 'Tags', dataIndex: 'tags', render: (tags: string[], cohort) => <CohortTagList tags={tags} label={`Tags of ${cohort.name}`} /> },
    { key: 'author', title: 'Author', dataIndex: ['author', 'email'], render: (email: string | null) => email ?? '–' },
    {
      key: 'updated_at', title: 'Updated', dataIndex: 'updated_at', sorter: true, sortOrder: sortOrderOf(orderBy, 'updated_at'),
      render: (at: string) => formatDate(at),
    },
  ];
  return (
    <Table<Cohort>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={cohorts as Cohort[]}
      loading={loading}
      pagination={false}
      locale={{ emptyText }}
      scroll={{ x: 'max-content' }}
      onChange={(_pagination, _filters, sorter, { action }) => {
        if (action !== 'sort') return;
        const single = Array.isArray(sorter) ? sorter[0] : sorter;
        const column = single?.columnKey as SortColumn | undefined;
        onSort(column && single?.order ? ((single.order === 'descend' ? `-${column}` : column) as CohortOrder) : DEFAULT_COHORT_ORDER);
      }}
    />
  );
}
