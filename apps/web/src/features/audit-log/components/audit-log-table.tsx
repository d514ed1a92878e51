import { useMemo, useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, DatePicker, Flex, Input, Select, Table, type TableProps } from 'antd';
import type { AuditEntry, AuditEventType } from '@hdp/contract';
import { AUDIT_EVENT_TYPES } from '@hdp/contract/audit-event-names';
import { AUDIT_LOG_EXPORT_MAX_ROWS, DATE_TIME_FORMAT, DEFAULT_OFFSET, PAGE_SIZES } from '@/config/constants';
import { useListAuditLogQuery } from '../api/list-audit-log';
import { datePresets, defaultFilters, eventTypeLabel, toQuery, type AuditLogFilters } from '../audit-log-filters';
import { useAuditLogExport } from '../hooks/use-audit-log-export';
import { AuditEntryDrawer } from './audit-entry-drawer';
import { CARD_TABLE_CLASS, labelledColumns } from '@/components/card-table';

const OUTCOME_COLOURS: Record<AuditEntry['outcome'], string> = { SUCCESS: '#1e5e07', FAILURE: '#a8071a', DENIED: '#ad4e00' };
const EVENT_TYPE_OPTIONS = AUDIT_EVENT_TYPES.map((type) => ({ value: type, label: eventTypeLabel(type) }));
const count = (n: number) => n.toLocaleString('en-GB');

/** The audit log: search, event types, date range with presets, paging, an entry drawer and CSV export. */
export function AuditLogTable() {
  const [now] = useState(() => dayjs());
  const presets = useMemo(() => datePresets(now), [now]);
  const [filters, setFilters] = useState<AuditLogFilters>(() => defaultFilters(now));
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<AuditEntry | null>(null);
  const pageSize = PAGE_SIZES.auditLog;
  const { data, isFetching } = useListAuditLogQuery(toQuery(filters, DEFAULT_OFFSET + (page - 1) * pageSize, pageSize));
  const { exportCsv, exporting } = useAuditLogExport(filters);

  const filter = (change: Partial<AuditLogFilters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };

  const columns: TableProps<AuditEntry>['columns'] = [
    {
      key: 'timestamp', title: 'Time', dataIndex: 'timestamp', width: 190, sorter: true,
      sortOrder: filters.order === 'TIMESTAMP_ASC' ? 'ascend' : 'descend', sortDirections: ['descend', 'ascend', 'descend'],
      render: (timestamp: string, entry) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setSelected(entry)} aria-label={`Entry ${entry.seq}, ${dayjs(timestamp).format(DATE_TIME_FORMAT)}: show details`}>
          {dayjs(timestamp).format(DATE_TIME_FORMAT)}
        </Button>
      ),
    },
    { key: 'event_type', title: 'Event', dataIndex: 'event_type', width: 200, render: (type: string) => <span title={type}>{eventTypeLabel(type)}</span> },
    {
      key: 'outcome', title: 'Outcome', dataIndex: 'outcome', width: 110,
      render: (outcome: AuditEntry['outcome']) => <span style={{ color: OUTCOME_COLOURS[outcome], fontWeight: 500 }}>{outcome}</span>,
    },
    { key: 'actor', title: 'Actor', dataIndex: ['actor', 'email'], width: 220, ellipsis: true, render: (email: string | null) => email ?? '—' },
    {
      // Shown in full: a message cut off mid-name hides what it names; long ids break anywhere.
      key: 'message', title: 'Message', dataIndex: 'message',
      render: (message: string) => <span style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }} data-testid="audit-message">{message}</span>,
    },
  ];

  return (
    <>
      <Flex wrap gap={12} align="center" style={{ marginBottom: 16 }}>
        <Input.Search
          aria-label="Search the audit log"
          placeholder="Search messages, actors, resources"
          allowClear
          defaultValue={filters.search}
          onSearch={(search) => filter({ search })}
          style={{ width: 300 }}
        />
        <Select<AuditEventType[]>
          mode="multiple"
          aria-label="Event types"
          placeholder="All event types"
          allowClear
          maxTagCount="responsive"
          options={EVENT_TYPE_OPTIONS}
          optionFilterProp="label"
          value={filters.eventTypes}
          onChange={(eventTypes) => filter({ eventTypes })}
          style={{ minWidth: 280, flex: '1 1 280px' }}
        />
        <div role="group" aria-label="Date range">
          <DatePicker.RangePicker
            placeholder={['Start date', 'End date']}
            presets={presets}
            value={filters.range}
            format="D MMM YYYY"
            onChange={(range) => filter({ range: range?.[0] && range[1] ? ([range[0].startOf('day'), range[1].endOf('day')] as [Dayjs, Dayjs]) : null })}
          />
        </div>
        <Flex align="center" gap={8} style={{ marginInlineStart: 'auto' }}>
          <span style={{ color: '#434343', fontSize: 13 }}>Up to {count(AUDIT_LOG_EXPORT_MAX_ROWS)} entries</span>
          <Button icon={<DownloadOutlined aria-hidden />} loading={exporting} onClick={() => void exportCsv()}>
            Export CSV
          </Button>
        </Flex>
      </Flex>
      <Table<AuditEntry>
        rowKey="seq"
        size="middle"
        columns={labelledColumns(columns)}
      className={CARD_TABLE_CLASS}
        dataSource={data?.entries ?? []}
        loading={isFetching}
        locale={{ emptyText: <span style={{ color: '#595959' }}>No entries match these filters.</span> }}
        pagination={{
          current: page,
          pageSize,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => (data?.total_capped ? `More than ${count(total)} entries` : `${count(total)} ${total === 1 ? 'entry' : 'entries'}`),
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'sort') {
            const single = Array.isArray(sorter) ? sorter[0] : sorter;
            filter({ order: single?.order === 'ascend' ? 'TIMESTAMP_ASC' : 'TIMESTAMP_DESC' });
          } else {
            setPage(pagination.current ?? 1);
          }
        }}
      />
      <AuditEntryDrawer entry={selected} onClose={() => setSelected(null)} />
    </>
  );
}
