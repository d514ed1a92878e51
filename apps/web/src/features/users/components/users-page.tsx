import { useState } from 'react';
import dynamic from 'next/dynamic';
import { Button, Flex } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { LoadingStatus } from '@/components/loading-status';

// The table (antd Table, Select, pagination) weighs ~110 kB gzipped: a chunk of its own, rendered
// on the server with the list's first page (`initialQueries`) and taken over once it has loaded.
const UsersList = dynamic(() => import('./users-list'), {
  loading: () => <LoadingStatus label="Loading users" padding={48} />,
});
const InviteUsersDialog = dynamic(() => import('./invite-users-dialog'), { ssr: false });

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;

/** The Users page: the list of users and invitations, and the "Invite users" dialog. */
export function UsersPage() {
  const [inviting, setInviting] = useState(false);
  return (
    <>
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <h1 style={{ fontSize: 24, fontWeight: 600, margin: 0 }}>Users</h1>
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setInviting(true)}>
          Invite users
        </Button>
      </Flex>
      <section style={PANEL} aria-label="Users list">
        <UsersList />
      </section>
      {inviting ? <InviteUsersDialog open={inviting} onClose={() => setInviting(false)} /> : null}
    </>
  );
}
