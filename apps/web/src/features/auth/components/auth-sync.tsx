import { useEffect } from 'react';
import { signOut, useSession } from 'next-auth/react';
import { useAppDispatch } from '@/app/hooks';
import { setSessionReader } from '@/lib/api/base-query';
import { idTokenChanged } from '@/lib/auth/auth-slice';
import { isSessionEndedReason } from '@/lib/auth/session-ended';
import { signInAgainUrl } from '@/lib/auth/sign-in-urls';

/**
 * Keeps the store's id token equal to the session's, and signs the user out when the session
 * reports that its tokens could not be renewed (for example, the account was disabled).
 */
export function AuthSync() {
  const { data: session, update } = useSession();
  const dispatch = useAppDispatch();
  const idToken = session?.idToken ?? null;
  const error = session?.error;

  useEffect(() => {
    dispatch(idTokenChanged(idToken));
  }, [dispatch, idToken]);

  useEffect(() => {
    // After a 401 the base query asks the session to renew its tokens now.
    setSessionReader(async () => (await update())?.idToken ?? null);
  }, [update]);

  useEffect(() => {
    // The sign-in page says why when the reason is known (disabled, revoked elsewhere, expired).
    if (error) void signOut({ callbackUrl: signInAgainUrl(window.location.pathname + window.location.search, isSessionEndedReason(error) ? error : undefined) });
  }, [error]);

  return null;
}
