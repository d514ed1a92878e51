import { Table, Tag, type TableProps } from 'antd';
import dayjs from 'dayjs';
import type { CohortVersion } from '@hdp/contract';
import { DATE_TIME_FORMAT } from '@/config/constants';
import { describeChanges } from '../cohort-review';
import { ORIGIN_LABELS } from '../labels';

type Row = CohortVersion & { changes: string };

function columns(publishedVersion: number | null): TableProps<Row>['columns'] {
  return [
    {
      key: 'version',
      title: 'Version',
      dataIndex: 'version',
      align: 'right',
      render: (version: number) => (
        <>
          {version}
          {version === publishedVersion ? (
            <Tag color="#2b6a0f" style={{ marginLeft: 8, marginRight: 0 }}>
              Published
            </Tag>
          ) : null}
        </>
      ),
    },
    { key: 'origin', title: 'Origin', dataIndex: 'origin', render: (origin: CohortVersion['origin']) => ORIGIN_LABELS[origin] },
    { key: 'query_version', title: 'Query version', dataIndex: 'query_version', align: 'right' },
    { key: 'persons', title: 'Persons', dataIndex: 'person_count_display', align: 'right' },
    { key: 'dataset', title: 'Dataset', dataIndex: 'dataset' },
    { key: 'created_by', title: 'By', dataIndex: ['created_by', 'email'], render: (email: string | null) => email ?? '–' },
    { key: 'created_at', title: 'Date', dataIndex: 'created_at', render: (at: string) => dayjs(at).format(DATE_TIME_FORMAT) },
    { key: 'changes', title: 'What changed', dataIndex: 'changes', width: 320 },
  ];
}

/**
 * A cohort's versions, newest first: how each came about, from which query version and dataset, by
 * whom, which one is published, and what changed from the version before it (or that nothing did).
 */
export function CohortVersions({ versions, publishedVersion }: { versions: readonly CohortVersion[]; publishedVersion: number | null }) {
  const rows: Row[] = versions.map((version, i) => ({ ...version, changes: describeChanges(version, versions[i + 1]) }));
  return (
    <Table<Row>
      rowKey="version"
      size="small"
      columns={columns(publishedVersion)}
      dataSource={rows}
      pagination={versions.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
    />
  );
}
