import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@hdp/contract';
import { createUser } from '../src/users/admin-creator';
import { startTestApp, ADMIN_EMAIL, TEST_PASSWORD, type TestApp } from './support/test-app';

let t: TestApp;
let adminToken: string;
let researcher: { token: string };

/** An ACTIVE local account with a name (the test app's own helper makes them without one). */
const person = async (email: string, name: string | undefined, roles: Role[]) =>
  (await createUser(t.services.db, { email, ...(name && { name }), roles, password: TEST_PASSWORD }, 'test')).user;

const directory = (query: string, token = researcher.token) => t.request({ method: 'GET', url: `/api/v1/users/directory/?${query}`, token });
const emailsOf = (response: { json(): { users: { email: string }[] } }) => response.json().users.map((u) => u.email);

beforeAll(async () => {
  t = await startTestApp();
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
  researcher = await t.userWithRoles(['RESEARCHER'], 'rita.seeker@example.org');
  await person('carol.colleague@example.org', 'Carol Colleague', ['RESEARCHER']);
  await person('dave.steward@example.org', 'Dave Colleague-Steward', ['DATA_STEWARD']);
  await person('ada.admin@example.org', 'Ada Colleague', ['ADMIN']);
  await person('aud.colleague@example.org', 'Audrey Colleague', ['AUDITOR']);
  const disabled = await person('dis.colleague@example.org', 'Disabled Colleague', ['RESEARCHER']);
  expect((await t.request({ method: 'POST', url: `/api/v1/users/disable/${disabled.id}/`, token: adminToken })).statusCode).toBe(200);
  const invited = await t.request({
    method: 'POST', url: '/api/v1/users/', token: adminToken,
    payload: { invitations: [{ email: 'inv.colleague@example.org', name: 'Invited Colleague', roles: ['RESEARCHER'] }] },
  });
  expect(invited.json().results[0].outcome).toBe('INVITED');
});
afterAll(() => t.close());

describe('the member directory', () => {
  it('finds ACTIVE holders of a data role by part of the email or name, ignoring case, by email', async () => {
    const byName = await directory('search=COLLEAGUE');
    expect(byName.statusCode).toBe(200);
    expect(emailsOf(byName)).toEqual(['ada.admin@example.org', 'carol.colleague@example.org', 'dave.steward@example.org']);
    expect(byName.json().more).toBe(false);
    expect(emailsOf(await directory('search=dave.st'))).toEqual(['dave.steward@example.org']);
    // Three characters match the start of an email or of a word of a name.
    expect(emailsOf(await directory('search=Car'))).toEqual(['carol.colleague@example.org']);
    expect(emailsOf(await directory('search=steward'))).toEqual(['dave.steward@example.org']);
  });

  it('never matches the middle of an email: a domain search lists no one', async () => {
    for (const search of ['example', 'example.org', '@example', 'colleague@', 'olleague']) {
      const response = await directory(`search=${encodeURIComponent(search)}`);
      expect(response.statusCode).toBe(200);
      expect(emailsOf(response)).toEqual([]);
    }
  });

  it('is throttled per user: a sweep is refused with 429 and when to try again', async () => {
    const sweeper = await t.userWithRoles(['RESEARCHER'], 'sweeper@example.org');
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await directory(`search=aa${String.fromCharCode(97 + (i % 26))}`, sweeper.token)).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    const refused = await directory('search=carol', sweeper.token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/at most 30 a minute/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another user is not held back by it.
    expect((await directory('search=carol')).statusCode).toBe(200);
  });

  it('never shows disabled, invited or auditor accounts, whoever asks', async () => {
    for (const search of ['dis.colleague', 'Disabled', 'inv.colleague', 'Invited', 'aud.colleague', 'Audrey']) {
      const response = await directory(`search=${search}`, adminToken);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ users: [], more: false });
    }
  });

  it('answers id, email and name only', async () => {
    const response = await directory('search=carol');
    const [carol] = response.json().users;
    expect(Object.keys(carol).sort()).toEqual(['email', 'id', 'name']);
    expect(carol).toMatchObject({ email: 'carol.colleague@example.org', name: 'Carol Colleague' });
    expect(response.body).not.toMatch(/roles|status|password|created_at|user_source/);
  });

  it('is open to the roles that may create workbenches, and refuses auditors and strangers', async () => {
    for (const roles of [['RESEARCHER'], ['DATA_STEWARD'], ['ADMIN']] as Role[][]) {
      const { token } = await t.userWithRoles(roles);
      expect((await directory('search=carol', token)).statusCode).toBe(200);
    }
    const auditor = await t.userWithRoles(['AUDITOR']);
    const refused = await directory('search=carol', auditor.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/users:directory/);
    expect((await t.request({ method: 'GET', url: '/api/v1/users/directory/?search=carol' })).statusCode).toBe(401);
  });

  it('treats LIKE wildcards as plain characters', async () => {
    await person('wild_card@example.org', undefined, ['RESEARCHER']);
    await person('wildxcard@example.org', undefined, ['RESEARCHER']);
    await person('hundred.percent@example.org', 'A Hundred% Sure', ['RESEARCHER']);
    expect(emailsOf(await directory('search=wild_c'))).toEqual(['wild_card@example.org']);
    expect(emailsOf(await directory(`search=${encodeURIComponent('hundred%')}`))).toEqual(['hundred.percent@example.org']);
    expect(emailsOf(await directory(`search=${encodeURIComponent('%%%')}`))).toEqual([]);
    expect(emailsOf(await directory(`search=${encodeURIComponent('\\%x')}`))).toEqual([]);
  });

  it('answers at most `limit` people and says when there are more', async () => {
    for (const n of [1, 2, 3]) await person(`many${n}.namesake@example.org`, `Namesake ${n}`, ['RESEARCHER']);
    const two = await directory('search=namesake&limit=2');
    expect(emailsOf(two)).toEqual(['many1.namesake@example.org', 'many2.namesake@example.org']);
    expect(two.json().more).toBe(true);
    expect((await directory('search=namesake&limit=3')).json().more).toBe(false);
  });

  it.each([
    ['a missing search', '', 'query.search: give at least 3 characters of a name or an email'],
    ['a two-character search', 'search=ca', 'query.search: give at least 3 characters of a name or an email'],
    ['a blank search', 'search=%20%20%20', 'query.search: give at least 3 characters of a name or an email'],
    ['an over-long search', `search=${'a'.repeat(101)}`, 'query.search: give at most 100 characters'],
    ['a NUL', 'search=ca%00rol', 'query.search: must not contain NUL (U+0000) characters'],
    ['a limit over 20', 'search=carol&limit=21', 'query.limit: Too big: expected number to be <=20'],
    ['a limit of 0', 'search=carol&limit=0', 'query.limit: Too small: expected number to be >=1'],
  ])('refuses %s with 400 and a detail', async (_name, query, detail) => {
    const response = await directory(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
  });
});
