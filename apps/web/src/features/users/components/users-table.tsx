import { Button, Table, type TableProps } from 'antd';
import type { User } from '@hdp/contract';
import { PAGE_SIZES } from '@/config/constants';
import { formatDate } from '@/lib/dates/format-date';
import { describeTotal, orderOf, type UserListState } from '../hooks/user-list-params';
import { ROLE_LABELS, SOURCE_LABELS } from '../labels';
import { UserRowActions } from './user-row-actions';
import { UserStatusTag } from './user-status-tag';
import { CARD_TABLE_CLASS, labelledColumns } from '@/components/card-table';

type SortColumn = 'name' | 'email' | 'created_at';

interface UsersTableProps {
  users: User[];
  total: number;
  totalCapped: boolean;
  loading: boolean;
  state: UserListState;
  onPage: (page: number) => void;
  onSort: (orderBy: UserListState['orderBy']) => void;
  onOpen: (user: User) => void;
  /** What the table says when it has no rows: loading, failed (with Retry) or empty. */
  locale?: TableProps<User>['locale'];
}

function sortOrderOf(state: UserListState, column: SortColumn): 'ascend' | 'descend' | null {
  if (state.orderBy === column) return 'ascend';
  if (state.orderBy === `-${column}`) return 'descend';
  return null;
}

/** The users table: server-side paging and sorting, status tags and the row actions the state allows. */
export function UsersTable({ users, total, totalCapped, loading, state, onPage, onSort, onOpen, locale }: UsersTableProps) {
  const columns: TableProps<User>['columns'] = [
    {
      title: 'Name',
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      sortOrder: sortOrderOf(state, 'name'),
      render: (_, user) => (
        <Button type="link" style={{ padding: 0, height: 'auto' }} onClick={() => onOpen(user)} aria-label={`Details of ${user.name ?? user.email}`}>
          {user.name ?? '—'}
        </Button>
      ),
    },
    { title: 'Email', dataIndex: 'email', key: 'email', sorter: true, sortOrder: sortOrderOf(state, 'email') },
    { title: 'Roles', dataIndex: 'roles', key: 'roles', render: (roles: User['roles']) => roles.map((role) => ROLE_LABELS[role]).join(', ') },
    { title: 'Source', dataIndex: 'user_source', key: 'user_source', render: (source: User['user_source']) => SOURCE_LABELS[source] },
    { title: 'Status', dataIndex: 'status', key: 'status', render: (_, user) => <UserStatusTag user={user} /> },
    {
      title: 'Created',
      dataIndex: 'created_at',
      key: 'created_at',
      sorter: true,
      sortOrder: sortOrderOf(state, 'created_at'),
      render: (value: string) => formatDate(value),
    },
    { title: 'Actions', key: 'actions', render: (_, user) => <UserRowActions user={user} /> },
  ];

  return (
    <Table<User>
      rowKey="id"
      columns={labelledColumns(columns)}
      className={CARD_TABLE_CLASS}
      dataSource={users}
      loading={loading}
      locale={locale}
      size="middle"
      scroll={{ x: 'max-content' }}
      pagination={{
        current: state.page,
        pageSize: PAGE_SIZES.users,
        total,
        showSizeChanger: false,
        showTotal: () => describeTotal(total, totalCapped),
      }}
      onChange={(pagination, _filters, sorter, { action }) => {
        if (action === 'sort') {
          const single = Array.isArray(sorter) ? sorter[0] : sorter;
          onSort(orderOf(single?.columnKey as SortColumn | undefined, single?.order));
        } else if (action === 'paginate') {
          onPage(pagination.current ?? 1);
        }
      }}
    />
  );
}
