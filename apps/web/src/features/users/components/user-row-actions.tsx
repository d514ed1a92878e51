import { Button, Popconfirm, Space, Tooltip } from 'antd';
import type { User } from '@hdp/contract';
import { canTransition, type UserTransition } from '@hdp/contract/user-lifecycle';
import {
  useDisableUserMutation,
  useEnableUserMutation,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
} from '../api/change-user-status';
import { getMeApi } from '../api/get-me';
import { showToast } from '@/lib/errors/notifier';
import { UserSecurityActions } from './user-security-actions';

type RowAction = Exclude<UserTransition, 'accept'>;

interface ActionText {
  label: string;
  confirm: string;
  description: string;
  okText: string;
  done: string;
  danger?: boolean;
}

/** The row actions, in the order they appear, with the question each asks first. */
export const ROW_ACTIONS: Record<RowAction, ActionText> = {
  resendInvitation: {
    label: 'Re-send',
    confirm: 'Re-send the invitation?',
    description: 'A new link is e-mailed; the old one stops working.',
    okText: 'Re-send',
    done: 'Invitation sent again',
  },
  revoke: {
    label: 'Revoke',
    confirm: 'Revoke the invitation?',
    description: 'The link stops working and the person cannot join.',
    okText: 'Revoke',
    done: 'Invitation revoked',
    danger: true,
  },
  disable: {
    label: 'Disable',
    confirm: 'Disable this user?',
    description: 'They are signed out at their next request and cannot sign in.',
    okText: 'Disable',
    done: 'User disabled',
    danger: true,
  },
  enable: {
    label: 'Enable',
    confirm: 'Enable this user?',
    description: 'They can sign in again.',
    okText: 'Enable',
    done: 'User enabled',
  },
};

/** Why an administrator's own row cannot be disabled (the API's 409 says the same). */
export const OWN_ACCOUNT_REASON = 'You cannot disable your own account.';

/** The actions a user's state allows (USER_TRANSITIONS), in display order. */
export function allowedActions(user: Pick<User, 'status'>): RowAction[] {
  return (Object.keys(ROW_ACTIONS) as RowAction[]).filter((action) => canTransition(user.status, action));
}

/**
 * Re-send, revoke, disable and enable, each shown only when the user's state allows it and each
 * asking for confirmation, then the sign-in security actions. Failures are told by the error catalogue.
 */
export function UserRowActions({ user }: { user: Pick<User, 'id' | 'email' | 'name' | 'status' | 'user_source'> }) {
  const [disable, disabling] = useDisableUserMutation();
  const [enable, enabling] = useEnableUserMutation();
  const [revoke, revoking] = useRevokeInvitationMutation();
  const [resend, resending] = useResendInvitationMutation();
  const run: Record<RowAction, { call: typeof disable; loading: boolean }> = {
    disable: { call: disable, loading: disabling.isLoading },
    enable: { call: enable, loading: enabling.isLoading },
    revoke: { call: revoke, loading: revoking.isLoading },
    resendInvitation: { call: resend, loading: resending.isLoading },
  };
  // The signed-in user, as the shell already read it (no request of its own).
  const { data: me } = getMeApi.endpoints.getMe.useQueryState();
  const who = user.name ?? user.email;
  return (
    <Space size={4} wrap>
      {allowedActions(user).map((action) => {
        const text = ROW_ACTIONS[action];
        if (action === 'disable' && me?.id === user.id) {
          // The API refuses it (409); say so before the click rather than after.
          return (
            <Tooltip key={action} title={OWN_ACCOUNT_REASON}>
              <span data-testid="disable-own-account">
                <Button size="small" disabled aria-label={`${text.label} ${who}: ${OWN_ACCOUNT_REASON}`}>
                  {text.label}
                </Button>
              </span>
            </Tooltip>
          );
        }
        return (
          <Popconfirm
            key={action}
            title={text.confirm}
            description={text.description}
            okText={text.okText}
            okButtonProps={{ danger: text.danger }}
            onConfirm={async () => {
              const result = await run[action].call({ id: user.id, email: user.email });
              if (!('error' in result)) showToast({ type: 'success', title: text.done, description: who });
            }}
          >
            <Button size="small" danger={text.danger} loading={run[action].loading} aria-label={`${text.label} ${who}`}>
              {text.label}
            </Button>
          </Popconfirm>
        );
      })}
      <UserSecurityActions user={user} />
    </Space>
  );
}
