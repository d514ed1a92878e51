import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ENDED_DETAIL } from '@hdp/contract';
import { startTestApp, ADMIN_EMAIL, TEST_PASSWORD, type TestApp } from './support/test-app';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await startTestApp();
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
});
afterAll(() => t.close());

describe('users', () => {
  it('lists with repeated roles filters, search and a total', async () => {
    await t.userWithRoles(['RESEARCHER'], 'rita.researcher@example.org');
    await t.userWithRoles(['AUDITOR'], 'alan.auditor@example.org');
    await t.userWithRoles(['DATA_STEWARD'], 'dana.steward@example.org');
    const both = await t.request({ method: 'GET', url: '/api/v1/users/?roles=RESEARCHER&roles=AUDITOR&order_by=email', token: adminToken });
    expect(both.statusCode).toBe(200);
    expect(both.json().users.map((u: { email: string }) => u.email)).toEqual(['alan.auditor@example.org', 'rita.researcher@example.org']);
    expect(both.json().total).toBe(2);
    const search = await t.request({ method: 'GET', url: '/api/v1/users/?search=STEWARD', token: adminToken });
    expect(search.json()).toMatchObject({ total: 1, users: [{ email: 'dana.steward@example.org' }] });
    const paged = await t.request({ method: 'GET', url: '/api/v1/users/?limit=1&skip=1&order_by=-email', token: adminToken });
    expect(paged.json().users).toHaveLength(1);
    expect(paged.json().total).toBe(4);
    expect(paged.json().users[0]).not.toHaveProperty('password_hash');
  });

  it('a disabled user is refused at their next request, and enabled again', async () => {
    const { user, token } = await t.userWithRoles(['RESEARCHER']);
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me/', token })).statusCode).toBe(200);
    const disabled = await t.request({ method: 'POST', url: `/api/v1/users/disable/${user.id}/`, token: adminToken });
    expect(disabled.json()).toMatchObject({ id: user.id, status: 'DISABLED' });
    const refused = await t.request({ method: 'GET', url: '/api/v1/users/me/', token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toBe('This account is disabled.');
    const signIn = await t.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(signIn.statusCode).toBe(403);
    await t.request({ method: 'POST', url: `/api/v1/users/enable/${user.id}/`, token: adminToken });
    // Disabling ended the person's sessions: enabled again, they sign in anew; the old token stays refused.
    const stale = await t.request({ method: 'GET', url: '/api/v1/users/me/', token });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().detail).toBe(SESSION_ENDED_DETAIL);
    const again = await t.signIn(user.email);
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me/', token: again.id_token })).statusCode).toBe(200);
  });

  it('an admin cannot disable themselves', async () => {
    const response = await t.request({ method: 'POST', url: `/api/v1/users/disable/${t.admin.id}/`, token: adminToken });
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toBe('You cannot disable your own account.');
  });

  it('two admins disabling each other at once leave one admin active', async () => {
    const a = await t.userWithRoles(['ADMIN']);
    const b = await t.userWithRoles(['ADMIN']);
    // Disable the seeded admin first so that a and b are the only active admins.
    await t.request({ method: 'POST', url: `/api/v1/users/disable/${t.admin.id}/`, token: a.token });
    const [ab, ba] = await Promise.all([
      t.request({ method: 'POST', url: `/api/v1/users/disable/${b.user.id}/`, token: a.token }),
      t.request({ method: 'POST', url: `/api/v1/users/disable/${a.user.id}/`, token: b.token }),
    ]);
    expect([ab.statusCode, ba.statusCode].filter((s) => s === 200)).toHaveLength(1);
    const loser = ab.statusCode === 200 ? ba : ab;
    expect([401, 409]).toContain(loser.statusCode);
    const admins = await t.request({ method: 'GET', url: '/api/v1/users/?roles=ADMIN&status=ACTIVE', token: ab.statusCode === 200 ? a.token : b.token });
    expect(admins.json().total).toBe(1);
    await t.request({ method: 'POST', url: `/api/v1/users/enable/${t.admin.id}/`, token: ab.statusCode === 200 ? a.token : b.token });
    adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
  });
});
