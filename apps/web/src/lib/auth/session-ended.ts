/**
 * Why a session ended, as the sign-in page's `error` value: the browser is sent there with it, and
 * the page says it in words instead of next-auth's generic "Please sign in to access this page."
 */
export type SessionEndedReason = 'AccountDisabled' | 'SessionRevoked' | 'SessionExpired';

export const SESSION_ENDED_MESSAGES: Record<SessionEndedReason, string> = {
  AccountDisabled: 'Your account has been disabled, so you were signed out. If you think this is a mistake, please contact your administrator.',
  SessionRevoked: 'Your session was ended elsewhere: you signed out on another device or browser, or an administrator ended it. Please sign in again.',
  SessionExpired: 'Your session has expired. Please sign in again.',
};

export function isSessionEndedReason(value: unknown): value is SessionEndedReason {
  return typeof value === 'string' && Object.hasOwn(SESSION_ENDED_MESSAGES, value);
}
