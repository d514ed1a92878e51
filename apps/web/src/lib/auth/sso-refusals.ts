import { externalTokenRefusalOf, type ExternalTokenRefusal } from '@hdp/contract';
import { SIGN_IN_PATH } from './sign-in-urls';

/** Why sign-in through the organisation's identity provider was refused, as the sign-in page's `error`. */
export type SsoRefusal = 'SsoNoAccount' | 'SsoAccountDisabled' | 'SsoWeakAuthentication' | 'SsoTokenRefused' | 'SsoUnavailable';

/** What the sign-in page says for each; the person reads these, so no jargon beyond "second factor". */
export const SSO_REFUSAL_MESSAGES: Record<SsoRefusal, string> = {
  SsoNoAccount:
    'Your organisation signed you in, but no account on this platform belongs to that email address. Ask an administrator of this platform to invite you.',
  SsoAccountDisabled:
    'Your organisation signed you in, but your account on this platform is disabled. If you think this is a mistake, please contact your administrator.',
  SsoWeakAuthentication:
    'Your organisation signed you in without a second factor (such as an authenticator app or a security key), and this platform requires one. Sign in again and complete the second step at your organisation; if it does not ask for one, contact your IT support.',
  SsoTokenRefused:
    'Your organisation signed you in, but this platform could not accept the sign-in (it was not issued for this platform, or its signature could not be checked). Please try again; if this keeps happening, contact your administrator.',
  SsoUnavailable: 'Your organisation signed you in, but this platform cannot be reached right now. Please try again shortly.',
};

export function isSsoRefusal(value: unknown): value is SsoRefusal {
  return typeof value === 'string' && Object.hasOwn(SSO_REFUSAL_MESSAGES, value);
}

const BY_API_REFUSAL: Record<Exclude<ExternalTokenRefusal, 'accountInvited'>, SsoRefusal> = {
  noAccount: 'SsoNoAccount',
  accountDisabled: 'SsoAccountDisabled',
  weakAuthentication: 'SsoWeakAuthentication',
  tokenRefused: 'SsoTokenRefused',
};

/**
 * What the API's answer to a provider's id token means for the sign-in: undefined lets the person
 * in. An invited person is let in too: they sign in through their provider to accept the invitation.
 */
export function ssoRefusalOf(answer: { status: number; detail?: unknown }): SsoRefusal | undefined {
  if (answer.status >= 200 && answer.status < 300) return undefined;
  if (answer.status !== 401) return 'SsoUnavailable';
  const refusal = externalTokenRefusalOf(answer.detail);
  return refusal === 'accountInvited' ? undefined : BY_API_REFUSAL[refusal];
}

/** The sign-in page, saying why. */
export const ssoRefusedUrl = (refusal: SsoRefusal) => `${SIGN_IN_PATH}?${new URLSearchParams({ error: refusal })}`;
