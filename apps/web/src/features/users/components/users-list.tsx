import { useState } from 'react';
import dynamic from 'next/dynamic';
import type { User } from '@hdp/contract';
import { tableLocale } from '@/components/table-states';
import { useUserList } from '../hooks/use-user-list';
import { UserFilters } from './user-filters';
import { UsersTable } from './users-table';

// Opened on demand: its code loads when first needed.
const UserDetailDrawer = dynamic(() => import('./user-detail-drawer'), { ssr: false });

/** The searchable, filterable, sortable, paged list of users, and the detail drawer of one. */
export default function UsersList() {
  const { state, update, setPage, data, isFetching, isLoading, isError, error, refetch } = useUserList();
  const [openUser, setOpenUser] = useState<User | null>(null);
  return (
    <>
      <UserFilters state={state} onChange={update} />
      <UsersTable
        users={isError ? [] : (data?.users ?? [])}
        total={isError ? 0 : (data?.total ?? 0)}
        totalCapped={data?.total_capped ?? false}
        loading={isFetching}
        locale={tableLocale({
          loading: isLoading,
          error: isError ? error : undefined,
          failureTitle: 'The users could not be loaded.',
          onRetry: () => void refetch(),
          retrying: isFetching,
          empty: <span style={{ color: '#595959' }}>No user matches these filters.</span>,
        })}
        state={state}
        onPage={setPage}
        onSort={(orderBy) => update({ orderBy })}
        onOpen={setOpenUser}
      />
      {openUser ? <UserDetailDrawer user={openUser} onClose={() => setOpenUser(null)} /> : null}
    </>
  );
}
