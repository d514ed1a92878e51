import { useState } from 'react';
import dynamic from 'next/dynamic';
import type { User } from '@hdp/contract';
import { useUserList } from '../hooks/use-user-list';
import { UserFilters } from './user-filters';
import { UsersTable } from './users-table';

// Opened on demand: its code loads when first needed.
const UserDetailDrawer = dynamic(() => import('./user-detail-drawer'), { ssr: false });

/** The searchable, filterable, sortable, paged list of users, and the detail drawer of one. */
export default function UsersList() {
  const { state, update, setPage, data, isFetching } = useUserList();
  const [openUser, setOpenUser] = useState<User | null>(null);
  return (
    <>
      <UserFilters state={state} onChange={update} />
      <UsersTable
        users={data?.users ?? []}
        total={data?.total ?? 0}
        totalCapped={data?.total_capped ?? false}
        loading={isFetching}
        state={state}
        onPage={setPage}
        onSort={(orderBy) => update({ orderBy })}
        onOpen={setOpenUser}
      />
      {openUser ? <UserDetailDrawer user={openUser} onClose={() => setOpenUser(null)} /> : null}
    </>
  );
}
