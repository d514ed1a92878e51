import { Descriptions, Drawer } from 'antd';
import type { User } from '@hdp/contract';
import { DATE_TIME_FORMAT } from '@/config/constants';
import { formatDate } from '@/lib/dates/format-date';
import dayjs from 'dayjs';
import { useGetUserQuery } from '../api/get-user';
import { ROLE_LABELS, SOURCE_LABELS } from '../labels';
import { UserRowActions } from './user-row-actions';
import { UserStatusTag } from './user-status-tag';
import { LoadingStatus } from '@/components/loading-status';

/** One user in detail, fetched fresh (so it follows changes made from the drawer or the table). */
export default function UserDetailDrawer({ user: fromList, onClose }: { user: User; onClose: () => void }) {
  const { data, isFetching } = useGetUserQuery(fromList.id);
  const user = data ?? fromList;
  return (
    <Drawer open title={user.name ?? user.email} onClose={onClose} size={480} extra={isFetching ? <LoadingStatus size="small" label="Refreshing" /> : null}>
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          { key: 'name', label: 'Name', children: user.name ?? '—' },
          { key: 'email', label: 'Email', children: user.email },
          { key: 'roles', label: 'Roles', children: user.roles.map((role) => ROLE_LABELS[role]).join(', ') },
          { key: 'status', label: 'Status', children: <UserStatusTag user={user} /> },
          { key: 'source', label: 'Signs in with', children: SOURCE_LABELS[user.user_source] },
          { key: 'created', label: 'Created', children: formatDate(user.created_at) },
          ...(user.status === 'INVITED' && user.invitation_expires_at
            ? [
                {
                  key: 'expires',
                  label: user.invitation_expired ? 'Invitation expired' : 'Invitation expires',
                  children: dayjs(user.invitation_expires_at).format(DATE_TIME_FORMAT),
                },
              ]
            : []),
        ]}
      />
      <div style={{ marginTop: 16 }}>
        <UserRowActions user={user} />
      </div>
    </Drawer>
  );
}
