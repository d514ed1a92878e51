import { Table, type TableProps } from 'antd';
import dayjs from 'dayjs';
import type { CohortVersion } from '@hdp/contract';
import { DATE_TIME_FORMAT } from '@/config/constants';
import { ORIGIN_LABELS } from '../labels';

const columns: TableProps<CohortVersion>['columns'] = [
  { key: 'version', title: 'Version', dataIndex: 'version', align: 'right' },
  { key: 'origin', title: 'Origin', dataIndex: 'origin', render: (origin: CohortVersion['origin']) => ORIGIN_LABELS[origin] },
  { key: 'query_version', title: 'Query version', dataIndex: 'query_version', align: 'right' },
  { key: 'persons', title: 'Persons', dataIndex: 'person_count_display', align: 'right' },
  { key: 'dataset', title: 'Dataset', dataIndex: 'dataset' },
  { key: 'created_by', title: 'By', dataIndex: ['created_by', 'email'], render: (email: string | null) => email ?? '–' },
  { key: 'created_at', title: 'Date', dataIndex: 'created_at', render: (at: string) => dayjs(at).format(DATE_TIME_FORMAT) },
];

/** A cohort's versions, newest first: how each came about, from which query version and dataset, by whom. */
export function CohortVersions({ versions }: { versions: readonly CohortVersion[] }) {
  return (
    <Table<CohortVersion>
      rowKey="version"
      size="small"
      columns={columns}
      dataSource={versions as CohortVersion[]}
      pagination={versions.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
    />
  );
}
