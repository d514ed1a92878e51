import { useEffect, useState } from 'react';
import { AppstoreOutlined, TableOutlined } from '@ant-design/icons';
import { Flex, Input, Radio, Segmented, Select } from 'antd';
import { DEFAULT_FILTER } from '@/config/constants';
import { useListCohortsQuery, type CohortOrder } from '../api/list-cohorts';
import { normaliseTags } from '../cohort-form';
import { AWAITING_REVIEW, type CohortListState, type CohortView } from '../hooks/cohort-list-params';
import { ORDER_LABELS, STATUS_FILTER_ORDER, STATUS_LABELS } from '../labels';

interface CohortFiltersProps {
  state: CohortListState;
  /** Every tag in use on the cohorts the user may see. */
  tags: readonly string[];
  onChange: (change: Partial<Omit<CohortListState, 'page' | 'view'>>) => void;
  onView: (view: CohortView) => void;
}

const LABEL = { display: 'flex', alignItems: 'center', gap: 8 } as const;

/** Search, the status filter, the tag filter, the sort and the choice between cards and a table. */
export function CohortFilters({ state, tags, onChange, onView }: CohortFiltersProps) {
  // The box follows the address bar (Back, a shared link) and otherwise what is typed; Enter searches.
  const [searchText, setSearchText] = useState(state.search);
  useEffect(() => setSearchText(state.search), [state.search]);
  // Tags chosen through a shared link stay choosable even when no visible cohort carries them.
  const tagOptions = [...new Set([...tags, ...state.tags])].map((tag) => ({ value: tag, label: tag }));
  // How many published cohorts have a newer version awaiting review (for a steward, every one; for
  // an author, theirs): the filter says so before it is chosen.
  const awaiting = useListCohortsQuery({ skip: 0, limit: 1, status: AWAITING_REVIEW });
  const awaitingLabel = awaiting.data ? `Awaiting review (${awaiting.data.total.toLocaleString('en-GB')}${awaiting.data.total_capped ? '+' : ''})` : 'Awaiting review';
  return (
    <Flex vertical gap={12} style={{ marginBottom: 16 }}>
      <Flex gap={12} wrap align="center" justify="space-between">
        <Radio.Group
          aria-label="Status"
          name="cohort-status"
          optionType="button"
          buttonStyle="solid"
          value={state.status}
          onChange={(event) => onChange({ status: event.target.value })}
          options={[
            { value: DEFAULT_FILTER, label: DEFAULT_FILTER },
            ...STATUS_FILTER_ORDER.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
            { value: AWAITING_REVIEW, label: awaitingLabel },
          ]}
        />
        <Segmented<CohortView>
          aria-label="View"
          name="cohort-view"
          value={state.view}
          onChange={onView}
          options={[
            { value: 'cards', label: 'Cards', icon: <AppstoreOutlined aria-hidden /> },
            { value: 'table', label: 'Table', icon: <TableOutlined aria-hidden /> },
          ]}
        />
      </Flex>
      <Flex gap={12} wrap align="center">
        <Input.Search
          aria-label="Search cohorts"
          placeholder="Search by name or description"
          allowClear
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          onSearch={(search) => onChange({ search: search.trim() })}
          style={{ width: 300 }}
        />
        <label style={LABEL}>
          <span>Tags</span>
          <Select
            aria-label="Tags"
            mode="multiple"
            allowClear
            placeholder="Any tag"
            value={state.tags}
            options={tagOptions}
            onChange={(values: string[]) => onChange({ tags: normaliseTags(values) })}
            style={{ minWidth: 200, maxWidth: 420 }}
            notFoundContent={<span style={{ color: '#595959' }}>No tags yet</span>}
          />
        </label>
        <label style={LABEL}>
          <span>Sort by</span>
          <Select<CohortOrder>
            aria-label="Sort by"
            value={state.orderBy}
            options={(Object.keys(ORDER_LABELS) as CohortOrder[]).map((order) => ({ value: order, label: ORDER_LABELS[order] }))}
            onChange={(orderBy) => onChange({ orderBy })}
            style={{ width: 210 }}
          />
        </label>
      </Flex>
    </Flex>
  );
}
