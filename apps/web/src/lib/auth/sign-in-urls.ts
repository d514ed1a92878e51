/** The built-in sign-in page of next-auth. */
export const SIGN_IN_PATH = '/api/auth/signin';

/** The sign-in page asking for a session, returning to `callbackUrl` afterwards. */
export function signInAgainUrl(callbackUrl: string): string {
  return `${SIGN_IN_PATH}?${new URLSearchParams({ error: 'SessionRequired', callbackUrl })}`;
}
