import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { SESSION_ENDED_DETAIL } from '@hdp/contract';
import { createUser } from '../src/users/admin-creator';
import { startTestApp, ADMIN_EMAIL, TEST_PASSWORD, type TestApp } from './support/test-app';

/**
 * An id token is refused from the request after its session was ended (by its owner, by an
 * administrator, by signing out), though it has not expired; the person's other sessions go on.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let counter = 0;
async function newPerson() {
  const email = `ended-session-${++counter}@example.org`;
  await createUser(t.services.db, { email, roles: ['RESEARCHER'], password: TEST_PASSWORD }, 'test');
  return email;
}

const me = (token: string, app: TestApp = t) => app.request({ method: 'GET', url: '/api/v1/users/me/', token });

async function expectEnded(token: string, app: TestApp = t) {
  const refused = await me(token, app);
  expect(refused.statusCode).toBe(401);
  expect(refused.json().detail).toBe(SESSION_ENDED_DETAIL);
}

describe('an ended session', () => {
  it('ended from the sessions list: its token is refused at once, the other session goes on', async () => {
    const email = await newPerson();
    const first = await t.signIn(email);
    const second = await t.signIn(email);
    // Both tokens in use: each is verified and its session checked (and remembered) first.
    expect((await me(first.id_token)).statusCode).toBe(200);
    expect((await me(second.id_token)).statusCode).toBe(200);

    const secondSession = decodeJwt(second.id_token).sid as string;
    const ended = await t.request({ method: 'DELETE', url: `/api/v1/users/me/sessions/${secondSession}/`, token: first.id_token });
    expect(ended.statusCode).toBe(204);

    await expectEnded(second.id_token);
    // Every route, not only the one that was asked first.
    const sessions = await t.request({ method: 'GET', url: '/api/v1/users/me/sessions/', token: second.id_token });
    expect(sessions.statusCode).toBe(401);
    expect((await me(first.id_token)).statusCode).toBe(200);
  });

  it("ended by an administrator (all of a person's sessions): every token of theirs is refused", async () => {
    const email = await newPerson();
    const one = await t.signIn(email);
    const two = await t.signIn(email);
    expect((await me(one.id_token)).statusCode).toBe(200);
    const admin = await t.signIn(ADMIN_EMAIL);
    const userId = decodeJwt(one.id_token).sub!;
    const ended = await t.request({ method: 'POST', url: `/api/v1/users/sessions-end/${userId}/`, token: admin.id_token, payload: {} });
    expect(ended.json()).toEqual({ sessions_ended: 2 });
    await expectEnded(one.id_token);
    await expectEnded(two.id_token);
    // Signing in again starts a new session, which works.
    expect((await me((await t.signIn(email)).id_token)).statusCode).toBe(200);
  });

  it('signed out: the token is refused', async () => {
    const email = await newPerson();
    const session = await t.signIn(email);
    expect((await t.request({ method: 'POST', url: '/api/v1/users/me/logout/', token: session.id_token, payload: {} })).statusCode).toBe(204);
    await expectEnded(session.id_token);
  });

  it('ended through another API process on the same database: refused here too, once this process asks again', async () => {
    // Two processes share a database only on PostgreSQL (PGlite has one owner).
    if (!t.config.databaseUrl) return;
    const other = await startTestApp({}, { sameDatabaseAs: t });
    try {
      const email = await newPerson();
      const session = await t.signIn(email);
      // The other process has checked this session and trusts it for a few seconds.
      expect((await me(session.id_token, other)).statusCode).toBe(200);
      const sid = decodeJwt(session.id_token).sid as string;
      expect((await t.request({ method: 'DELETE', url: `/api/v1/users/me/sessions/${sid}/`, token: session.id_token })).statusCode).toBe(204);
      await expect.poll(async () => (await me(session.id_token, other)).statusCode, { timeout: 15_000, interval: 500 }).toBe(401);
      await expectEnded(session.id_token, other);
    } finally {
      await other.close();
    }
  });
});
