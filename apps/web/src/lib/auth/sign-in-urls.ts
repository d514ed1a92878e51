import type { SessionEndedReason } from './session-ended';

/** The built-in sign-in page of next-auth. */
export const SIGN_IN_PATH = '/api/auth/signin';

/** The page that asks for the second factor (or enrols the first) after the password. */
export const SECOND_STEP_PATH = '/sign-in/second-factor';

/**
 * The sign-in page asking for a session, returning to `callbackUrl` afterwards; with `reason`, the
 * page says why the session ended (account disabled, revoked elsewhere, expired).
 */
export function signInAgainUrl(callbackUrl: string, reason?: SessionEndedReason): string {
  return `${SIGN_IN_PATH}?${new URLSearchParams({ error: reason ?? 'SessionRequired', callbackUrl })}`;
}
