import type { MfaFactorKind, TotpEnrolment } from '@hdp/contract';
import { signIn } from 'next-auth/react';
import type { SecondStepState } from '@/lib/auth/second-step-route';

/** The web server's route that holds the challenge (HttpOnly cookie) and calls the API with it. */
const ROUTE = '/api/sign-in/second-step';

/** A refusal with the reason the auth error messages are keyed by. */
export class SecondStepRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

async function call<T>(init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(ROUTE, { ...init, headers: { 'content-type': 'application/json' }, credentials: 'same-origin' });
  } catch {
    throw new SecondStepRefused('IssuerUnavailable');
  }
  const body = (await response.json().catch(() => null)) as ({ reason?: string } & T) | null;
  if (!response.ok || !body) throw new SecondStepRefused(body?.reason ?? 'IssuerUnavailable');
  return body;
}

/** The sign-in under way: what the person can answer with, or must enrol. */
export const readSecondStep = () => call<SecondStepState>();

/** Options for `navigator.credentials.get` with the person's passkeys (null: none). */
export const passkeySignInOptions = () =>
  call<{ webauthn: Record<string, unknown> | null }>({ method: 'POST', body: JSON.stringify({ action: 'passkey-options' }) });

/** Starts enrolling a first factor: an authenticator app's secret and QR code, or passkey options. */
export const startEnrolment = (kind: MfaFactorKind) =>
  call<{ totp?: TotpEnrolment; webauthn?: Record<string, unknown> }>({ method: 'POST', body: JSON.stringify({ action: 'enrol', kind }) });

/** What the second step is answered with (the API's fields, without the challenge). */
export type SecondStepAnswer =
  | { totp_code: string; name?: string }
  | { recovery_code: string }
  | { webauthn: unknown }
  | { webauthn_registration: unknown; name?: string };

/** Answers the second step through next-auth: the session is made only when the API accepts it. */
export async function answerSecondStep(answer: SecondStepAnswer): Promise<void> {
  const result = await signIn('credentials', { redirect: false, answer: JSON.stringify(answer) });
  if (!result?.ok || result.error) throw new SecondStepRefused(result?.error ?? 'IssuerUnavailable');
}

/** The browser's passkey prompt was dismissed or is unavailable: said in words, not as a refusal by the API. */
export function passkeyProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError') return 'The passkey prompt was closed or timed out. Try again, or choose another way.';
  if (name === 'InvalidStateError') return 'This passkey is registered already.';
  return 'This browser could not use a passkey here. Try again, or choose another way.';
}
