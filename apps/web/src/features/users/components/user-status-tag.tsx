import { Tag } from 'antd';
import type { User } from '@hdp/contract';
import { INVITATION_EXPIRED_LABEL, STATUS_LABELS } from '../labels';

// Solid colours with white text: antd's light preset tags fall short of WCAG AA contrast.
const COLOURS = {
  ACTIVE: '#2b6a0f',
  INVITED: '#0b4f6c',
  EXPIRED: '#8a3c00',
  DISABLED: '#595959',
  REVOKED: '#a8071a',
} as const;

/** A user's state; an invitation whose link has expired says so. */
export function UserStatusTag({ user }: { user: Pick<User, 'status' | 'invitation_expired'> }) {
  const expired = user.status === 'INVITED' && user.invitation_expired;
  return (
    <Tag color={expired ? COLOURS.EXPIRED : COLOURS[user.status]} style={{ marginInlineEnd: 0 }}>
      {expired ? INVITATION_EXPIRED_LABEL : STATUS_LABELS[user.status]}
    </Tag>
  );
}
