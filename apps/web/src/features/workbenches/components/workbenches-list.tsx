import { useEffect, useState } from 'react';
import { useRouter } from 'next/router';
import { AppstoreOutlined, PlusOutlined, TableOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Input, Pagination, Segmented } from 'antd';
import { PAGE_SIZES } from '@/config/constants';
import { LoadFailure } from '@/components/load-failure';
import { LoadingStatus } from '@/components/loading-status';
import { tableLocale } from '@/components/table-states';
import { useWorkbenchList } from '../hooks/use-workbench-list';
import { describeWorkbenchTotal, type WorkbenchView } from '../hooks/workbench-list-params';
import { WorkbenchCards } from './workbench-cards';
import { WorkbenchesTable } from './workbenches-table';

const MUTED = { color: '#595959' } as const;

/** The searchable, paged workbenches the user belongs to, as cards or as a table. */
export default function WorkbenchesList() {
  const router = useRouter();
  const { state, setSearch, setPage, setView, data, isFetching, isError, error, refetch } = useWorkbenchList();
  // The box follows the address bar (Back, a shared link) and otherwise what is typed; Enter searches.
  const [searchText, setSearchText] = useState(state.search);
  useEffect(() => setSearchText(state.search), [state.search]);
  const workbenches = isError ? [] : (data?.workbenches ?? []);
  const failureTitle = 'The workbenches could not be loaded.';
  const retry = () => void refetch();

  const emptyText = state.search ? (
    <span style={MUTED}>No workbench matches “{state.search}”.</span>
  ) : (
    <Flex vertical align="center" gap={12}>
      <span style={MUTED}>You are not a member of any workbench yet. A workbench holds the data, documents and people of one piece of research.</span>
      <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => void router.push('/workbenches/new')}>
        Create workbench
      </Button>
    </Flex>
  );

  let body;
  if (state.view === 'table') {
    body = (
      <WorkbenchesTable
        workbenches={workbenches}
        loading={isFetching && !data}
        emptyText={tableLocale({ loading: !data && !isError, error: isError ? error : undefined, failureTitle, onRetry: retry, retrying: isFetching, empty: emptyText }).emptyText}
      />
    );
  } else if (isError) {
    body = <LoadFailure title={failureTitle} error={error} onRetry={retry} retrying={isFetching} />;
  } else if (!data) {
    body = <LoadingStatus label="Loading the workbenches" padding={48} />;
  } else if (workbenches.length > 0) {
    body = <WorkbenchCards workbenches={workbenches} />;
  } else {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  }

  return (
    <>
      <Flex gap={12} wrap align="center" justify="space-between" style={{ marginBottom: 16 }}>
        <Input.Search
          aria-label="Search workbenches"
          placeholder="Search by name or purpose"
          allowClear
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          onSearch={(search) => setSearch(search.trim())}
          style={{ width: 320 }}
        />
        <Segmented<WorkbenchView>
          aria-label="View"
          name="workbench-view"
          value={state.view}
          onChange={setView}
          options={[
            { value: 'cards', label: 'Cards', icon: <AppstoreOutlined aria-hidden /> },
            { value: 'table', label: 'Table', icon: <TableOutlined aria-hidden /> },
          ]}
        />
      </Flex>
      {body}
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginTop: 16 }}>
        <span role="status" style={{ color: '#5b6470' }}>
          {data ? describeWorkbenchTotal(data.total, data.total_capped) : ''}
        </span>
        <Pagination current={state.page} pageSize={PAGE_SIZES.workbenches} total={data?.total ?? 0} showSizeChanger={false} hideOnSinglePage onChange={setPage} />
      </Flex>
    </>
  );
}
