import { Button, Empty, Flex, Pagination } from 'antd';
import { DEFAULT_FILTER, PAGE_SIZES } from '@/config/constants';
import { useCohortList } from '../hooks/use-cohort-list';
import { describeTotal } from '../hooks/cohort-list-params';
import { CohortCards } from './cohort-cards';
import { CohortFilters } from './cohort-filters';
import { CohortsTable } from './cohorts-table';
import { LoadFailure } from '@/components/load-failure';
import { LoadingStatus } from '@/components/loading-status';
import { tableLocale } from '@/components/table-states';

/** The searchable, filterable, sortable, paged cohorts, as cards or as a table. */
export default function CohortsList() {
  const { state, update, setPage, setView, data, isFetching, isError, error, refetch } = useCohortList();
  const cohorts = isError ? [] : (data?.cohorts ?? []);
  const filtered = state.search !== '' || state.status !== DEFAULT_FILTER || state.tags.length > 0;
  const emptyText = filtered ? (
    <Flex vertical align="center" gap={8}>
      <span style={{ color: '#595959' }}>No cohort matches these filters.</span>
      <Button onClick={() => update({ search: '', status: DEFAULT_FILTER, tags: [] })}>Clear filters</Button>
    </Flex>
  ) : (
    <span style={{ color: '#595959' }}>No cohorts yet. Make one from the result of a saved query in the Data Explorer.</span>
  );
  const failureTitle = 'The cohorts could not be loaded.';
  const retry = () => void refetch();

  let body;
  if (state.view === 'table') {
    body = (
      <CohortsTable
        cohorts={cohorts}
        loading={isFetching}
        orderBy={state.orderBy}
        onSort={(orderBy) => update({ orderBy })}
        emptyText={tableLocale({ loading: !data && !isError, error: isError ? error : undefined, failureTitle, onRetry: retry, retrying: isFetching, empty: emptyText }).emptyText}
      />
    );
  } else if (isError) {
    body = <LoadFailure title={failureTitle} error={error} onRetry={retry} retrying={isFetching} />;
  } else if (!data) {
    body = <LoadingStatus label="Loading the cohorts" padding={48} />;
  } else if (cohorts.length > 0) {
    body = (
      <div aria-busy={isFetching} style={{ opacity: isFetching ? 0.6 : 1, transition: 'opacity 0.2s' }}>
        <CohortCards cohorts={cohorts} />
      </div>
    );
  } else {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  }

  return (
    <>
      <CohortFilters state={state} tags={data?.total_tags ?? []} onChange={update} onView={setView} />
      {body}
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginTop: 16 }}>
        <span role="status" style={{ color: '#5b6470' }}>
          {data && !isError ? describeTotal(data.total, data.total_capped) : ''}
        </span>
        <Pagination current={state.page} pageSize={PAGE_SIZES.cohorts} total={data?.total ?? 0} showSizeChanger={false} hideOnSinglePage onChange={setPage} />
      </Flex>
    </>
  );
}
