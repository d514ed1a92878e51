/** What the error page says for each error code next-auth (or our sign-in) sends it. */
export const AUTH_ERROR_MESSAGES: Record<string, string> = {
  Configuration: 'Sign-in is not configured correctly on the server. Please contact support.',
  AccessDenied: 'You do not have permission to sign in.',
  Verification: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
  AccountNotActive: 'Your account is not active. Please contact your administrator.',
  SignInThrottled: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  IssuerUnavailable: 'The sign-in service cannot be reached right now. Please try again shortly.',
  SecondFactorRequired: 'Your password was right: this account also needs its second factor.',
  SecondFactorWrong: 'That code or passkey was not accepted. A code works once only: wait for the next one, or try another way.',
  SecondStepExpired: 'This sign-in has expired or was already completed. Sign in again with your password.',
  Default: 'Unable to sign in.',
};

/** The message for an error code; unknown codes get the default. */
export function authErrorMessage(code: string | string[] | undefined): string {
  const key = Array.isArray(code) ? code[0] : code;
  return (key && AUTH_ERROR_MESSAGES[key]) || AUTH_ERROR_MESSAGES.Default!;
}
