import { Button, Popconfirm } from 'antd';
import { signOut } from 'next-auth/react';
import type { User } from '@hdp/contract';
import { can } from '@hdp/contract/permissions';
import { SIGN_IN_PATH } from '@/lib/auth/sign-in-urls';
import { showToast } from '@/lib/errors/notifier';
import { getMeApi } from '../api/get-me';
import { useEndUserSessionsMutation, useResetUserMfaMutation } from '../api/user-security';

type SecurityTarget = Pick<User, 'id' | 'email' | 'name' | 'status' | 'user_source'>;
export type SecurityAction = 'resetMfa' | 'endSessions';

/**
 * Ending a session revokes its refresh token, and the API refuses the id token it already holds
 * from then on: a browser or script is signed out at its next request, whenever it makes one.
 */
export const SIGN_OUT_WITHIN = 'at its next request';

/**
 * Which of the two an account can have. Both concern the platform's own sign-in: an account of an
 * outside identity provider has its factors and sessions there. Resetting needs an account that
 * can sign in again (active, or disabled and to be enabled); ending sessions, an active one
 * (disabling already ended them).
 */
export function allowedSecurityActions(user: Pick<User, 'status' | 'user_source'>): SecurityAction[] {
  if (user.user_source !== 'LOCAL') return [];
  if (user.status === 'ACTIVE') return ['resetMfa', 'endSessions'];
  if (user.status === 'DISABLED') return ['resetMfa'];
  return [];
}

/** What each action asks first and says after, for someone else's account or one's own. */
export function securityText(action: SecurityAction, who: string, own: boolean) {
  if (action === 'resetMfa') {
    return {
      label: 'Reset second factors',
      confirm: own ? 'Reset your own second factors?' : `Reset the second factors of ${who}?`,
      description: own
        ? `You will set up a second factor again at your next sign-in; your passkeys, authenticator apps and recovery codes stop working. Your sessions end: this browser signs out now, your others at their next request.`
        : `${who} will set up a second factor again at their next sign-in; their passkeys, authenticator apps and recovery codes stop working. Their sessions end: each is signed out ${SIGN_OUT_WITHIN}.`,
      okText: 'Reset',
    };
  }
  return {
    label: 'End sessions',
    confirm: own ? 'End all your sessions?' : `End all sessions of ${who}?`,
    description: own
      ? `This browser signs out now; your other browsers and scripts at their next request. Your second factors stay as they are.`
      : `Every browser and script signed in as ${who} is signed out ${SIGN_OUT_WITHIN}. Their second factors stay as they are.`,
    okText: 'End sessions',
  };
}

/** What happened, as the API answered it. */
export function sessionsEndedText(ended: number, who: string): { title: string; description: string } {
  if (ended === 0) return { title: 'No sessions to end', description: `${who} had no active session.` };
  const sessions = ended === 1 ? '1 session' : `${ended} sessions`;
  return { title: 'Sessions ended', description: `${sessions} of ${who} ended; each is signed out ${SIGN_OUT_WITHIN}.` };
}

/**
 * Reset second factors and End sessions: administrators only (the matrix's `userSecurity`), for
 * the platform's own accounts, each asking for confirmation. The API allows both on one's own
 * account; there they end this browser's session too, so it signs out at once, as the account
 * page does. Failures are told by the error catalogue.
 */
export function UserSecurityActions({ user }: { user: SecurityTarget }) {
  const [reset, resetting] = useResetUserMfaMutation();
  const [endSessions, ending] = useEndUserSessionsMutation();
  // The signed-in user, as the shell already read it (no request of its own).
  const { data: me } = getMeApi.endpoints.getMe.useQueryState();
  const own = me?.id === user.id;
  const who = user.name ?? user.email;
  const allowed = allowedSecurityActions(user).filter((action) =>
    can(me, action === 'resetMfa' ? 'userSecurity:resetFactors' : 'userSecurity:endSessions'),
  );

  async function confirm(action: SecurityAction) {
    if (action === 'resetMfa') {
      const result = await reset({ id: user.id });
      if ('error' in result) return;
      if (own) return signOut({ callbackUrl: SIGN_IN_PATH });
      showToast({
        type: 'success',
        title: 'Second factors reset',
        description: `${who} will set up a second factor again at their next sign-in. Their sessions were ended; each is signed out ${SIGN_OUT_WITHIN}.`,
      });
      return;
    }
    const result = await endSessions({ id: user.id });
    if ('error' in result) return;
    if (own) return signOut({ callbackUrl: SIGN_IN_PATH });
    showToast({ type: 'success', ...sessionsEndedText(result.data.sessions_ended, who) });
  }

  return (
    <>
      {allowed.map((action) => {
        const text = securityText(action, who, own);
        return (
          <Popconfirm
            key={action}
            title={text.confirm}
            description={<span style={{ display: 'block', maxWidth: 320 }}>{text.description}</span>}
            okText={text.okText}
            okButtonProps={{ danger: true }}
            onConfirm={() => confirm(action)}
          >
            <Button
              size="small"
              danger
              loading={action === 'resetMfa' ? resetting.isLoading : ending.isLoading}
              aria-label={`${text.label} of ${own ? 'your own account' : who}`}
            >
              {text.label}
            </Button>
          </Popconfirm>
        );
      })}
    </>
  );
}
