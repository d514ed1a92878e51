import type { ReactNode } from 'react';
import Link from 'next/link';
import { Table, type TableProps } from 'antd';
import type { WorkbenchSummary } from '@hdp/contract';
import { formatDate } from '@/lib/dates/format-date';
import { myRoleLabel } from '../labels';
import { ReleaseStateTag } from './release-state-tag';

const EXCERPT = { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', maxWidth: 360 } as const;

/** The workbenches as a table; paging is outside. */
export function WorkbenchesTable({ workbenches, loading, emptyText }: { workbenches: readonly WorkbenchSummary[]; loading: boolean; emptyText: ReactNode }) {
  const columns: TableProps<WorkbenchSummary>['columns'] = [
    { key: 'name', title: 'Name', dataIndex: 'name', render: (name: string, workbench) => <Link href={`/workbenches/${workbench.id}`}>{name}</Link> },
    { key: 'purpose', title: 'Purpose', dataIndex: 'purpose', render: (purpose: string) => <span style={EXCERPT}>{purpose}</span> },
    { key: 'role', title: 'Your role', dataIndex: 'my_role', render: (role: WorkbenchSummary['my_role']) => myRoleLabel(role) },
    { key: 'members', title: 'Members', dataIndex: 'member_count', align: 'right' },
    { key: 'cohorts', title: 'Cohorts', dataIndex: 'cohort_count', align: 'right' },
    { key: 'queries', title: 'Queries', dataIndex: 'query_count', align: 'right' },
    { key: 'documents', title: 'Documents', dataIndex: 'document_count', align: 'right' },
    { key: 'state', title: 'Data', dataIndex: 'state', render: (state: WorkbenchSummary['state']) => <ReleaseStateTag state={state} /> },
    { key: 'updated_at', title: 'Updated', dataIndex: 'updated_at', render: (at: string) => formatDate(at) },
  ];
  return (
    <Table<WorkbenchSummary>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={workbenches as WorkbenchSummary[]}
      loading={loading}
      pagination={false}
      locale={{ emptyText }}
      scroll={{ x: 'max-content' }}
    />
  );
}
