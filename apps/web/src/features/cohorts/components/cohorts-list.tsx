import { Empty, Flex, Pagination } from 'antd';
import { DEFAULT_FILTER, PAGE_SIZES } from '@/config/constants';
import { useCohortList } from '../hooks/use-cohort-list';
import { describeTotal } from '../hooks/cohort-list-params';
import { CohortCards } from './cohort-cards';
import { CohortFilters } from './cohort-filters';
import { CohortsTable } from './cohorts-table';
import { LoadingStatus } from '@/components/loading-status';

/** The searchable, filterable, sortable, paged cohorts, as cards or as a table. */
export default function CohortsList() {
  const { state, update, setPage, setView, data, isFetching, isError } = useCohortList();
  const cohorts = data?.cohorts ?? [];
  const filtered = state.search !== '' || state.status !== DEFAULT_FILTER || state.tags.length > 0;
  const emptyText = (
    <span style={{ color: '#595959' }}>
      {filtered ? 'No cohort matches these filters.' : 'No cohorts yet. Make one from the result of a saved query in the Data Explorer.'}
    </span>
  );

  let body;
  if (state.view === 'table') {
    body = <CohortsTable cohorts={cohorts} loading={isFetching} orderBy={state.orderBy} onSort={(orderBy) => update({ orderBy })} emptyText={emptyText} />;
  } else if (!data && !isError) {
    body = <LoadingStatus label="Loading the cohorts" padding={48} />;
  } else if (cohorts.length > 0) {
    body = (
      <div aria-busy={isFetching} style={{ opacity: isFetching ? 0.6 : 1, transition: 'opacity 0.2s' }}>
        <CohortCards cohorts={cohorts} />
      </div>
    );
  } else {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={isError ? <span style={{ color: '#595959' }}>The cohorts could not be loaded.</span> : emptyText} />;
  }

  return (
    <>
      <CohortFilters state={state} tags={data?.total_tags ?? []} onChange={update} onView={setView} />
      {body}
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginTop: 16 }}>
        <span role="status" style={{ color: '#5b6470' }}>
          {data ? describeTotal(data.total, data.total_capped) : ''}
        </span>
        <Pagination current={state.page} pageSize={PAGE_SIZES.cohorts} total={data?.total ?? 0} showSizeChanger={false} hideOnSinglePage onChange={setPage} />
      </Flex>
    </>
  );
}
