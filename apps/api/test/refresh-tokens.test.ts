import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_REFUSALS, refreshRefusalOf } from '@hdp/contract';
import { startTestApp, ADMIN_EMAIL, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const refresh = (refresh_token: string) =>
  t.request({ method: 'POST', url: '/api/v1/auth/refresh/', payload: { refresh_token } });

describe('refresh tokens', () => {
  it('rotates: a refresh gives a new id token and a new refresh token', async () => {
    const first = await t.signIn(ADMIN_EMAIL);
    const response = await refresh(first.refresh_token);
    expect(response.statusCode).toBe(200);
    const second = response.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me/', token: second.id_token })).statusCode).toBe(200);
  });

  it('detects reuse and revokes the whole family', async () => {
    const first = await t.signIn(ADMIN_EMAIL);
    const second = (await refresh(first.refresh_token)).json();
    const reuse = await refresh(first.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().detail).toMatch(/already used/);
    // The legitimate newer token of the same family is revoked too.
    const afterReuse = await refresh(second.refresh_token);
    expect(afterReuse.statusCode).toBe(401);
    expect(afterReuse.json().detail).toMatch(/revoked/);
  });

  it('leaves other families alone', async () => {
    const a = await t.signIn(ADMIN_EMAIL);
    const b = await t.signIn(ADMIN_EMAIL);
    await refresh(a.refresh_token);
    await refresh(a.refresh_token);
    expect((await refresh(b.refresh_token)).statusCode).toBe(200);
  });

  it('rejects an unknown refresh token', async () => {
    const response = await refresh('no-such-token');
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('The refresh token is invalid.');
  });

  it('logout revokes every refresh token of the user', async () => {
    const a = await t.signIn(ADMIN_EMAIL);
    const b = await t.signIn(ADMIN_EMAIL);
    const logout = await t.request({ method: 'POST', url: '/api/v1/users/me/logout/', token: a.id_token });
    expect(logout.statusCode).toBe(204);
    expect((await refresh(a.refresh_token)).statusCode).toBe(401);
    const revoked = await refresh(b.refresh_token);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().detail).toBe(REFRESH_REFUSALS.revoked);
  });

  it('refuses to refresh for a user who was disabled', async () => {
    const { user } = await t.userWithRoles(['RESEARCHER']);
    const tokens = await t.signIn(user.email);
    const admin = await t.signIn(ADMIN_EMAIL);
    await t.request({ method: 'POST', url: `/api/v1/users/disable/${user.id}/`, token: admin.id_token });
    const response = await refresh(tokens.refresh_token);
    expect(response.statusCode).toBe(401);
    // Disabling also revoked the token: the answer names the account, the real reason.
    expect(response.json().detail).toBe(REFRESH_REFUSALS.accountNotActive);
    expect(refreshRefusalOf(response.json().detail)).toBe('accountNotActive');
  });
});
