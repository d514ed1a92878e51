import { describe, expect, it, vi } from 'vitest';
import { jwtExpiry, REFRESH_MARGIN_MS, refreshIfDue, sharedRefresher, toSessionTokens, type SessionTokens } from './session-tokens';

const NOW = 1_800_000_000_000;
const jwtWithExp = (expMs: number) =>
  `h.${Buffer.from(JSON.stringify({ sub: 'u1', exp: Math.floor(expMs / 1000) })).toString('base64url')}.s`;

describe('session tokens', () => {
  it('reads the expiry from the id token, else from expires_in', () => {
    expect(jwtExpiry(jwtWithExp(NOW + 600_000))).toBe(NOW + 600_000);
    expect(jwtExpiry('not-a-jwt')).toBeUndefined();
    expect(toSessionTokens({ id_token: 'opaque', refresh_token: 'r', expires_in: 600 }, 'credentials', NOW).idTokenExpiresAt).toBe(NOW + 600_000);
  });

  it('keeps a token that is not yet due', async () => {
    const refresher = vi.fn();
    const token: SessionTokens = { idToken: 'a', refreshToken: 'r', idTokenExpiresAt: NOW + REFRESH_MARGIN_MS + 1_000, tokenSource: 'credentials' };
    expect(await refreshIfDue(token, { credentials: refresher }, NOW)).toBe(token);
    expect(refresher).not.toHaveBeenCalled();
  });

  it('renews a token close to expiry and stores the rotated refresh token', async () => {
    const refresher = vi.fn(async () => ({ id_token: jwtWithExp(NOW + 600_000), refresh_token: 'r2', expires_in: 600 }));
    const token = { sub: 'u1', idToken: 'a', refreshToken: 'r1', idTokenExpiresAt: NOW + 10_000, tokenSource: 'credentials' as const };
    const renewed = await refreshIfDue(token, { credentials: refresher }, NOW);
    expect(refresher).toHaveBeenCalledWith('r1');
    expect(renewed).toMatchObject({ sub: 'u1', refreshToken: 'r2', idTokenExpiresAt: NOW + 600_000, error: undefined });
  });

  it('keeps the old refresh token when the provider does not rotate it', async () => {
    const token: SessionTokens = { idToken: 'a', refreshToken: 'r1', idTokenExpiresAt: NOW - 1, tokenSource: 'oidc' };
    const renewed = await refreshIfDue(token, { oidc: async () => ({ id_token: 'b', expires_in: 300 }) }, NOW);
    expect(renewed.refreshToken).toBe('r1');
  });

  it.each([
    ['accountNotActive', 'AccountDisabled'],
    ['revoked', 'SessionRevoked'],
    ['reused', 'SessionRevoked'],
    ['expired', 'SessionExpired'],
    ['invalid', 'RefreshTokenError'],
  ])('names the session error after the API refusal %s: %s', async (refusal, error) => {
    const token: SessionTokens = { idToken: 'a', refreshToken: 'r1', idTokenExpiresAt: NOW - 1, tokenSource: 'credentials' };
    const refused = Object.assign(new Error('401'), { refusal });
    expect((await refreshIfDue(token, { credentials: async () => Promise.reject(refused) }, NOW)).error).toBe(error);
  });

  it('drops the tokens and marks the session when renewal is refused (e.g. the user was disabled)', async () => {
    const token: SessionTokens = { idToken: 'a', refreshToken: 'r1', idTokenExpiresAt: NOW - 1, tokenSource: 'credentials' };
    const renewed = await refreshIfDue(token, { credentials: async () => Promise.reject(new Error('401')) }, NOW);
    expect(renewed).toEqual({ idToken: undefined, refreshToken: undefined, idTokenExpiresAt: undefined, tokenSource: 'credentials', error: 'RefreshTokenError' });
    // A failed session stays failed: no further attempts.
    const refresher = vi.fn();
    expect(await refreshIfDue(renewed, { credentials: refresher }, NOW)).toBe(renewed);
    expect(refresher).not.toHaveBeenCalled();
  });

  it('shares one renewal between concurrent requests, since a refresh token may be spent once', async () => {
    let calls = 0;
    const shared = sharedRefresher(async (refreshToken) => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 5));
      return { id_token: `for-${refreshToken}`, refresh_token: 'next' };
    });
    const [a, b] = await Promise.all([shared('r1'), shared('r1')]);
    expect(calls).toBe(1);
    expect(a).toBe(b);
  });
});

describe('forced renewal', () => {
  it('renews a token that is not yet due when forced (the API refused it)', async () => {
    const refresher = vi.fn(async () => ({ id_token: 'b', refresh_token: 'r2', expires_in: 600 }));
    const token: SessionTokens = { idToken: 'a', refreshToken: 'r1', idTokenExpiresAt: NOW + 500_000, tokenSource: 'credentials' };
    expect(await refreshIfDue(token, { credentials: refresher }, NOW, { force: true })).toMatchObject({ idToken: 'b', refreshToken: 'r2' });
  });
});
