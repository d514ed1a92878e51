import { useState } from 'react';
import { Button, Flex, Input, Table } from 'antd';
import type { SavedQuery } from '@hdp/contract';
import { PAGE_SIZES } from '@/config/constants';
import { formatDate } from '@/lib/dates/format-date';
import { tableLocale } from '@/components/table-states';
import { useAppDispatch } from '@/app/hooks';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { useListQueriesQuery, type QueryOrder } from '../api/queries';
import { savedQueryOpened } from '../slice';

const ORDER_FIELDS = { name: 'name', updated_at: 'updated_at' } as const;

/**
 * The saved queries (an administrator's list holds everybody's): searched by name, and for an
 * administrator by owner email, on the server; paged and sorted; a row opens its query.
 */
export function SavedQueries({ onOpen }: { onOpen?: (query: SavedQuery) => void }) {
  const dispatch = useAppDispatch();
  const { data: me } = useGetMeQuery();
  const seesEveryone = me?.roles.includes('ADMIN') ?? false;
  const [nameSearch, setNameSearch] = useState('');
  const [emailSearch, setEmailSearch] = useState('');
  const [page, setPage] = useState(1);
  const [orderBy, setOrderBy] = useState<QueryOrder>('-updated_at');
  const limit = PAGE_SIZES.queries;
  const { data, isFetching, isLoading, isError, error, refetch } = useListQueriesQuery({
    skip: (page - 1) * limit,
    limit,
    name_search: nameSearch || undefined,
    email_search: emailSearch || undefined,
    order_by: orderBy,
  });

  const open = (query: SavedQuery) => {
    dispatch(savedQueryOpened({ id: query.id, name: query.name, query: query.query }));
    onOpen?.(query);
  };

  return (
    <>
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Input.Search
          aria-label="Search saved queries by name"
          placeholder="Search by name"
          allowClear
          style={{ maxWidth: 320 }}
          onSearch={(value) => {
            setNameSearch(value.trim());
            setPage(1);
          }}
        />
        {seesEveryone ? (
          <Input.Search
            aria-label="Search saved queries by owner email"
            placeholder="Search by owner email"
            allowClear
            style={{ maxWidth: 320 }}
            onSearch={(value) => {
              setEmailSearch(value.trim());
              setPage(1);
            }}
          />
        ) : null}
      </Flex>
      <Table<SavedQuery>
        rowKey="id"
        size="small"
        loading={isFetching}
        dataSource={isError ? [] : (data?.queries ?? [])}
        pagination={{ current: page, pageSize: limit, total: isError ? 0 : (data?.total ?? 0), showSizeChanger: false, onChange: setPage }}
        onChange={(_pagination, _filters, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const field = ORDER_FIELDS[String(s?.field) as keyof typeof ORDER_FIELDS];
          setOrderBy(field && s?.order ? ((s.order === 'descend' ? `-${field}` : field) as QueryOrder) : '-updated_at');
        }}
        locale={tableLocale({
          loading: isLoading,
          error: isError ? error : undefined,
          failureTitle: 'The saved queries could not be loaded.',
          onRetry: () => void refetch(),
          retrying: isFetching,
          empty: <span style={{ color: '#595959' }}>{nameSearch || emailSearch ? 'No saved query matches this search.' : 'No saved queries yet.'}</span>,
        })}
        columns={[
          {
            title: 'Name',
            dataIndex: 'name',
            sorter: true,
            render: (name: string, query) => (
              <Button type="link" style={{ padding: 0 }} onClick={() => open(query)} aria-label={`Open ${name}`}>
                {name}
              </Button>
            ),
          },
          { title: 'Owner', dataIndex: 'created_by_email', render: (email: string | null) => email ?? '–' },
          { title: 'Version', dataIndex: 'version', width: 90 },
          { title: 'Updated', dataIndex: 'updated_at', sorter: true, defaultSortOrder: 'descend', render: (at: string) => formatDate(at) },
        ]}
      />
    </>
  );
}
