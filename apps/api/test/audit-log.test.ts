import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_TOTAL_CAP } from '@hdp/contract';
import { startTestApp, ADMIN_EMAIL, type TestApp } from './support/test-app';

let t: TestApp;
let auditorToken: string;
let researcher: Awaited<ReturnType<TestApp['userWithRoles']>>;

beforeAll(async () => {
  t = await startTestApp();
  auditorToken = (await t.userWithRoles(['AUDITOR'], 'audrey@example.org')).token;
  researcher = await t.userWithRoles(['RESEARCHER'], 'rex@example.org');
  // A denial and a failed sign-in to find later.
  await t.request({ method: 'GET', url: '/api/v1/logs/', token: researcher.token });
  await t.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email: 'rex@example.org', password: 'not-the-password' } });
});
afterAll(() => t.close());

const logs = (query: string, token = auditorToken) => t.request({ method: 'GET', url: `/api/v1/logs/${query}`, token });

describe('GET /api/v1/logs/', () => {
  it('lists entries newest first with a total', async () => {
    const response = await logs('');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.total).toBe(body.entries.length);
    expect(body.total_capped).toBe(false);
    const seqs = body.entries.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a: number, b: number) => b - a));
    expect(body.entries[0]).toMatchObject({ event_type: 'AUTH_SIGN_IN_FAILED', outcome: 'FAILURE', actor: { email: 'rex@example.org' } });
  });

  it('filters by repeated event types and finds the denial', async () => {
    const body = (await logs('?event_type=ACCESS_DENIED&event_type=AUTH_SIGN_IN_FAILED')).json();
    expect(body.entries.map((e: { event_type: string }) => e.event_type).sort()).toEqual(['ACCESS_DENIED', 'AUTH_SIGN_IN_FAILED']);
    const denial = body.entries.find((e: { event_type: string }) => e.event_type === 'ACCESS_DENIED');
    expect(denial).toMatchObject({ outcome: 'DENIED', actor: { id: researcher.user.id, email: 'rex@example.org' } });
    expect(denial.message).toContain('GET /api/v1/logs/');
    expect(denial.request_id).toBeTruthy();
  });

  it('filters by date range: today has everything, tomorrow nothing', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const all = (await logs('')).json().total;
    expect((await logs(`?start_date=${today}&end_date=${today}`)).json().total).toBe(all);
    expect((await logs(`?start_date=${tomorrow}`)).json().total).toBe(0);
    const bad = await logs(`?start_date=${tomorrow}&end_date=${today}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe('query.start_date: must be before end_date');
  });

  it('searches messages and actors', async () => {
    const body = (await logs('?search=audrey@')).json();
    expect(body.total).toBeGreaterThan(0);
    for (const entry of body.entries) expect(`${entry.message} ${entry.actor.email}`).toContain('audrey@');
  });

  it('pages in either order', async () => {
    const asc = (await logs('?order_by=TIMESTAMP_ASC&limit=2&skip=1')).json();
    expect(asc.entries.map((e: { seq: number }) => e.seq)).toEqual([2, 3]);
  });

  it('rejects an unknown event type, naming the parameter', async () => {
    const response = await logs('?event_type=NOPE');
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/^query\.event_type\.0: /);
  });

  it('is for ADMIN and AUDITOR only', async () => {
    expect((await logs('', (await t.signIn(ADMIN_EMAIL)).id_token)).statusCode).toBe(200);
    expect((await logs('', researcher.token)).statusCode).toBe(403);
  });

  it('reports the chain verified up to the last entry', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/logs/verify/', token: auditorToken });
    const count = (await logs('')).json().total;
    expect(response.json()).toMatchObject({ ok: true, entries: count, verified_up_to: count, first_broken: null });
  });

  it(`caps the total at ${LIST_TOTAL_CAP} for broad filters`, async () => {
    const last = (await logs('?limit=1')).json().entries[0].seq;
    await t.services.db.execute(sql`
      insert into audit_log (seq, occurred_at, event_type, outcome, message, prev_hash, hash)
      select ${last} + i, now(), 'QUERY_EXECUTED', 'SUCCESS', 'bulk ' || i, 'x', 'x' from generate_series(1, ${LIST_TOTAL_CAP + 5}) as i`);
    const body = (await logs('?event_type=QUERY_EXECUTED&limit=5')).json();
    expect(body).toMatchObject({ total: LIST_TOTAL_CAP, total_capped: true });
    expect(body.entries).toHaveLength(5);
  });
});
