import { z } from 'zod';
import { LIMITS } from '../limits';

export const TokenRequest = z
  .object({
    email: z.email().max(320),
    password: z.string().min(1).max(LIMITS.passwordMaxLength),
  })
  .meta({ id: 'TokenRequest' });
export type TokenRequest = z.infer<typeof TokenRequest>;

export const RefreshRequest = z.object({ refresh_token: z.string().min(1).max(512) }).meta({ id: 'RefreshRequest' });
export type RefreshRequest = z.infer<typeof RefreshRequest>;

export const TokenResponse = z
  .object({
    id_token: z.string(),
    refresh_token: z.string(),
    expires_in: z.number().int(),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Claims the platform reads from an id token, whichever issuer signed it. */
export const ID_TOKEN_AUDIENCE_DEFAULT = 'hdp-api';

/**
 * Why `POST /api/v1/auth/refresh/` refused (status 401), by the exact `detail` it answers. A
 * client tells its user which one ended the session. A disabled account is named before the state
 * of the token: disabling an account also revokes its refresh tokens.
 */
export const REFRESH_REFUSALS = {
  accountNotActive: 'This account is not active.',
  revoked: 'The refresh token was revoked; sign in again.',
  reused: 'The refresh token was already used; sign in again.',
  expired: 'The refresh token has expired; sign in again.',
  invalid: 'The refresh token is invalid.',
  secondFactorRequired: 'This session was signed in without a second factor, which this platform now requires; sign in again.',
} as const;
export type RefreshRefusal = keyof typeof REFRESH_REFUSALS;

/** The refusal a `detail` names, if it is one of REFRESH_REFUSALS. */
export function refreshRefusalOf(detail: unknown): RefreshRefusal | undefined {
  return (Object.keys(REFRESH_REFUSALS) as RefreshRefusal[]).find((reason) => REFRESH_REFUSALS[reason] === detail);
}

/**
 * Why the API refused an outside provider's id token (status 401), by its `detail`. The web app
 * checks a provider's token with the API before it opens a session, and its sign-in page says in
 * plain words which of these it was.
 */
export const EXTERNAL_TOKEN_DETAILS = {
  noAccount: 'No platform account matches this token; ask an administrator for an invitation.',
  /** The start of the detail: the rest names the acr or amr values that were missing. */
  weakAuthentication: 'Your identity provider signed you in without the multi-factor authentication this platform requires',
} as const;

/** The detail of a refused token whose user is not ACTIVE. */
export const accountStatusDetail = (status: string) => `This account is ${status.toLowerCase()}.`;

export type ExternalTokenRefusal = 'noAccount' | 'accountDisabled' | 'accountInvited' | 'weakAuthentication' | 'tokenRefused';

/** Which refusal a 401 `detail` for an outside provider's token names; any other is `tokenRefused`. */
export function externalTokenRefusalOf(detail: unknown): ExternalTokenRefusal {
  if (detail === EXTERNAL_TOKEN_DETAILS.noAccount) return 'noAccount';
  if (detail === accountStatusDetail('DISABLED')) return 'accountDisabled';
  if (detail === accountStatusDetail('INVITED')) return 'accountInvited';
  if (typeof detail === 'string' && detail.startsWith(EXTERNAL_TOKEN_DETAILS.weakAuthentication)) return 'weakAuthentication';
  return 'tokenRefused';
}
