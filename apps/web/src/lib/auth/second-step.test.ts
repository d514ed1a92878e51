import { describe, expect, it, vi } from 'vitest';
import type { ServerResponse } from 'node:http';
import { SECOND_STEP_EXPIRED_DETAIL, WRONG_SECOND_FACTOR_DETAIL } from '@hdp/contract';
import { apiIssuer, SignInRefused } from './api-issuer';
import { buildAuthOptions } from './auth-options';
import { pendingCookieHeader, readPendingSecondStep, safeCallbackPath, withAuthResponse, type PendingSecondStep } from './pending-second-step';
import { secondStepRequest } from './second-step-answer';
import { readServerEnv } from './server-env';

const pending = (overrides: Partial<PendingSecondStep> = {}): PendingSecondStep => ({
  challenge: 'c'.repeat(43),
  methods: ['totp', 'recovery_code'],
  enrolmentRequired: false,
  callbackUrl: '/workbenches',
  expiresAt: Date.now() + 60_000,
  ...overrides,
});
const cookieOf = (header: string) => header.split(';')[0]!;

/** A response that keeps its headers, as the auth route's is. */
function fakeResponse() {
  const headers: Record<string, unknown> = {};
  return {
    headersSent: false,
    getHeader: (name: string) => headers[name.toLowerCase()],
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = value;
    },
    cookies: () => (headers['set-cookie'] as string[] | undefined) ?? [],
  };
}

describe('the pending second step', () => {
  it('round-trips through its HttpOnly cookie and is gone once expired or tampered with', () => {
    const header = pendingCookieHeader(pending(), false);
    expect(header).toMatch(/^hdp\.second-step=[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(readPendingSecondStep({ cookie: `other=1; ${cookieOf(header)}` }, false)).toMatchObject({ methods: ['totp', 'recovery_code'] });
    expect(readPendingSecondStep({ cookie: cookieOf(pendingCookieHeader(pending({ expiresAt: Date.now() - 1 }), false)) }, false)).toBeUndefined();
    expect(readPendingSecondStep({ cookie: 'hdp.second-step=not-json' }, false)).toBeUndefined();
    // Over HTTPS the cookie is __Host- prefixed and Secure: the plain name is not read there.
    const secure = pendingCookieHeader(pending(), true);
    expect(secure).toMatch(/^__Host-hdp\.second-step=.*; Secure$/);
    expect(readPendingSecondStep({ cookie: cookieOf(header) }, true)).toBeUndefined();
  });

  it('returns only to a path of the web app', () => {
    expect(safeCallbackPath('http://web.test/cohorts?x=1', 'http://web.test')).toBe('/cohorts?x=1');
    expect(safeCallbackPath('https://evil.example/', 'http://web.test')).toBe('/');
    expect(safeCallbackPath('//evil.example/x', 'http://web.test')).toBe('/');
    expect(safeCallbackPath(undefined, 'http://web.test')).toBe('/');
  });

  it('takes exactly one answer of the contract’s shape, never a challenge from the page', () => {
    expect(secondStepRequest('c'.repeat(43), '{"totp_code":"123456"}')).toEqual({ challenge: 'c'.repeat(43), totp_code: '123456' });
    expect(secondStepRequest('c'.repeat(43), '{"totp_code":"123456","challenge":"x"}')).toMatchObject({ challenge: 'c'.repeat(43) });
    expect(secondStepRequest('c'.repeat(43), '{"totp_code":"123456","recovery_code":"abcd-efgh-ij"}')).toBeUndefined();
    expect(secondStepRequest('c'.repeat(43), '{"totp_code":"12"}')).toBeUndefined();
    expect(secondStepRequest('c'.repeat(43), 'not json')).toBeUndefined();
  });
});

describe('sign-in in two steps', () => {
  const env = { ...readServerEnv({ NODE_ENV: 'test' }), publicUrl: 'http://web.test' };
  const authorizeWith = (fetchImpl: typeof fetch) => {
    const options = buildAuthOptions(env, apiIssuer('http://api.test', fetchImpl));
    const provider = options.providers[0] as unknown as { options: { authorize: (credentials: unknown, req: unknown) => Promise<unknown> } };
    return provider.options.authorize;
  };

  it('after the right password makes no session: it keeps the challenge in the cookie and sends the person to the second step', async () => {
    const challenge = { mfa_required: true, challenge: 'k'.repeat(43), expires_in: 300, methods: ['webauthn', 'totp'], enrolment_required: false };
    const api = vi.fn(async () => new Response(JSON.stringify(challenge), { status: 200 }));
    const authorize = authorizeWith(api as unknown as typeof fetch);
    const res = fakeResponse();
    await expect(
      withAuthResponse(res as unknown as ServerResponse, () =>
        authorize({ email: 'a@example.org', password: 'pw', callbackUrl: 'http://web.test/cohorts' }, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' } }),
      ),
    ).rejects.toEqual(new SignInRefused('SecondFactorRequired'));
    // The session list names the browser, not this server.
    expect((api.mock.calls[0] as unknown as [string, RequestInit])[1].headers).toMatchObject({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' });
    const stored = readPendingSecondStep({ cookie: cookieOf(res.cookies()[0]!) }, false);
    expect(stored).toMatchObject({ challenge: 'k'.repeat(43), methods: ['webauthn', 'totp'], callbackUrl: '/cohorts' });
  });

  it('refuses an answer without a sign-in under way, and tells a wrong code from an expired challenge', async () => {
    const noCall = vi.fn();
    await expect(authorizeWith(noCall as unknown as typeof fetch)({ answer: '{"totp_code":"123456"}' }, { headers: {} })).rejects.toEqual(new SignInRefused('SecondStepExpired'));
    expect(noCall).not.toHaveBeenCalled();

    const cookie = cookieOf(pendingCookieHeader(pending(), false));
    const refusedWith = (detail: string) => authorizeWith(vi.fn(async () => new Response(JSON.stringify({ detail }), { status: 401 })) as unknown as typeof fetch);
    await expect(refusedWith(WRONG_SECOND_FACTOR_DETAIL)({ answer: '{"totp_code":"123456"}' }, { headers: { cookie } })).rejects.toEqual(new SignInRefused('SecondFactorWrong'));
    await expect(refusedWith(SECOND_STEP_EXPIRED_DETAIL)({ answer: '{"totp_code":"123456"}' }, { headers: { cookie } })).rejects.toEqual(new SignInRefused('SecondStepExpired'));
    const throttled = authorizeWith(vi.fn(async () => new Response(JSON.stringify({ detail: 'wait' }), { status: 429 })) as unknown as typeof fetch);
    await expect(throttled({ answer: '{"totp_code":"123456"}' }, { headers: { cookie } })).rejects.toEqual(new SignInRefused('SignInThrottled'));
  });
});
