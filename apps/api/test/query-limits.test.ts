import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase } from '../src/db/database';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { createPostgresDatabase, testDbKind } from './support/test-database';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The per-user query limits against averaging (QUERY_RATE_PER_MINUTE, QUERY_DAILY_BUDGET), through
 * HTTP: saved and unsaved runs and cohort refreshes counted together, and exactly the limit let
 * through when many runs arrive at once, in one API process or two sharing the database.
 */
describe('limits against averaging', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ QUERY_RATE_PER_MINUTE: '3', QUERY_DAILY_BUDGET: '5' });
    await loadWarehouse(limited.services, { kind: 'synthetic', persons: 500, seed: 3 }, { actorEmail: 'test' });
  }, 60_000);
  afterAll(() => limited?.close());

  const execute = (token: string) => limited.request({ method: 'POST', url: '/api/v1/queries/execute/', token, payload: { query: { rules: [] } } });
  const rowsOf = async (query: ReturnType<typeof sql>) => ((await limited.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

  it('refuses a fourth run in a minute with 429, a detail and Retry-After, audited; other users are not affected', async () => {
    const { token, user } = await limited.userWithRoles(['RESEARCHER'], 'rapid@example.org');
    for (let i = 0; i < 3; i++) expect((await execute(token)).statusCode).toBe(200);
    const refused = await execute(token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/^You have reached the limit of 3 query runs a minute; try again in \d+ seconds\.$/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const [denied] = await rowsOf(sql`select outcome, details from audit_log where event_type = 'QUERY_EXECUTED' and actor_id = ${user.id} order by seq desc limit 1`);
    expect(denied).toMatchObject({ outcome: 'DENIED', details: { reason: 'limit per minute', limit: 3 } });

    const other = await limited.userWithRoles(['RESEARCHER'], 'calm@example.org');
    expect((await execute(other.token)).statusCode).toBe(200);
  });

  it('counts saved and unsaved runs against the daily budget', async () => {
    const { token, user } = await limited.userWithRoles(['RESEARCHER'], 'patient@example.org');
    // Three runs an hour ago (as counted), past the minute but within the day.
    const saved = await limited.request({ method: 'POST', url: '/api/v1/queries/', token, payload: { name: 'all', query: { rules: [] } } });
    const queryId = saved.json().id as string;
    for (let i = 0; i < 3; i++) expect((await limited.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token })).statusCode).toBe(202);
    await limited.services.db.execute(sql`update query_run_counters set run_times = array(select t - interval '1 hour' from unnest(run_times) as r(t)) where user_id = ${user.id}`);
    expect((await execute(token)).statusCode).toBe(200);
    expect((await execute(token)).statusCode).toBe(200);
    const refused = await execute(token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/limit of 5 query runs a day/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(22 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(23 * 3600 + 1);
    const queued = await limited.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token });
    expect(queued.statusCode).toBe(429);
  });

  /**
   * Sends 3 × the per-minute limit of runs (`kind`) at the same instant through `apps` in turn;
   * exactly the limit may start, the rest must be refused with the catalogue's 429.
   */
  async function burst(apps: TestApp[], email: string, kind: 'unsaved' | 'saved') {
    const { token, user } = await limited.userWithRoles(['RESEARCHER'], email);
    const saved = await limited.request({ method: 'POST', url: '/api/v1/queries/', token, payload: { name: 'all', query: { rules: [] } } });
    const queryId = saved.json().id as string;
    const responses = await Promise.all(
      Array.from({ length: 9 }, (_, i) => {
        const app = apps[i % apps.length]!;
        return kind === 'saved'
          ? app.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token })
          : app.request({ method: 'POST', url: '/api/v1/queries/execute/', token, payload: { query: { rules: [] } } });
      }),
    );
    const started = responses.filter((r) => r.statusCode === (kind === 'saved' ? 202 : 200));
    const refused = responses.filter((r) => r.statusCode === 429);
    expect(started, responses.map((r) => `${r.statusCode} ${r.body.slice(0, 120)}`).join('\n')).toHaveLength(3);
    expect(refused).toHaveLength(6);
    for (const r of refused) {
      expect(r.json().detail).toMatch(/^You have reached the limit of 3 query runs a minute; try again in \d+ seconds\.$/);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    const denied = await rowsOf(sql`select count(*)::int as n from audit_log where event_type = 'QUERY_EXECUTED' and outcome = 'DENIED' and actor_id = ${user.id}`);
    expect(denied[0]!.n).toBe(6);
    // And the runs started are counted: the next one, of the other kind, is refused too.
    expect((await (kind === 'saved' ? execute(token) : limited.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token }))).statusCode).toBe(429);
  }

  it('holds under a burst: of 3 × the limit of unsaved runs sent at once, exactly the limit run and the rest get 429 with a detail', async () => {
    await burst([limited], 'burst@example.org', 'unsaved');
  });

  it('holds under a burst of saved runs queued at once', async () => {
    await burst([limited], 'burst-saved@example.org', 'saved');
  });

  it.runIf(testDbKind() === 'postgres')('holds under a burst sent to two API processes sharing the database', async () => {
    const second = await startTestApp({ QUERY_RATE_PER_MINUTE: '3', QUERY_DAILY_BUDGET: '5' }, { sameDatabaseAs: limited });
    try {
      await loadWarehouse(second.services, { kind: 'synthetic', persons: 500, seed: 3 }, { actorEmail: 'test' });
      await burst([limited, second], 'two-processes@example.org', 'unsaved');
      await burst([limited, second], 'two-processes-saved@example.org', 'saved');
    } finally {
      await second.close();
    }
  }, 60_000);

  it('counts cohort refreshes, which run the query again, against the same limits', async () => {
    const { token } = await limited.userWithRoles(['RESEARCHER'], 'refresher@example.org');
    const saved = await limited.request({ method: 'POST', url: '/api/v1/queries/', token, payload: { name: 'all', query: { rules: [] } } });
    const queryId = saved.json().id as string;
    const started = await limited.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token });
    let status = 'PENDING';
    for (let i = 0; i < 400 && (status === 'PENDING' || status === 'RUNNING'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await limited.request({ method: 'GET', url: `/api/v1/queries/${queryId}/executions/${started.json().id}/`, token })).json().status;
    }
    expect(status).toBe('SUCCEEDED');
    const cohort = await limited.request({ method: 'POST', url: '/api/v1/cohorts/', token, payload: { name: 'All', executionId: started.json().id } });
    expect(cohort.statusCode, cohort.body).toBe(201);
    const refresh = () => limited.request({ method: 'POST', url: `/api/v1/cohorts/${cohort.json().id}/refresh/`, token });
    expect((await refresh()).statusCode).toBe(200);
    expect((await refresh()).statusCode).toBe(200);
    const refused = await refresh();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/limit of 3 query runs a minute/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('the upgrade that brings the counters', () => {
  const MIGRATIONS = path.resolve(import.meta.dirname, '../drizzle');

  /** A copy of the migrations folder that ends just before `tag`. */
  function migrationsBefore(tag: string): string {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-migrations-'));
    fs.cpSync(MIGRATIONS, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === tag);
    expect(at).toBeGreaterThan(0);
    fs.writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    return folder;
  }

  it("carries over the last day's runs as earlier versions recorded them, so nobody gets a fresh budget", async () => {
    const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
    const handle = await openDatabase({ databaseUrl: postgres?.url, dataDir: null });
    const folder = migrationsBefore('0010_query_run_counters');
    try {
      if (handle.kind === 'pglite') await migratePglite(handle.db as never, { migrationsFolder: folder });
      else await migratePg(handle.db as never, { migrationsFolder: folder });
      const db = handle.db;
      const [a, b] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
      await db.execute(sql`insert into users (id, email, status, user_source) values (${a}, 'a@example.org', 'ACTIVE', 'LOCAL'), (${b}, 'b@example.org', 'ACTIVE', 'LOCAL')`);
      const [query] = (await db.execute(sql`insert into queries (name, query, owner_id) values ('q', '{"rules":[]}', ${a}) returning id`) as unknown as { rows: { id: string }[] }).rows;
      // Saved runs an hour and two days ago.
      await db.execute(sql`insert into query_executions (query_id, query_version, query, requested_by, created_at) values
        (${query!.id}, 1, '{"rules":[]}', ${a}, now() - interval '1 hour'), (${query!.id}, 1, '{"rules":[]}', ${a}, now() - interval '2 days')`);
      // An unsaved run ten minutes ago; a refused one (not a run) and a saved run's own entry (counted above) are not counted.
      const entry = (seq: number, ago: string, outcome: string, details: string) =>
        db.execute(sql`insert into audit_log (seq, occurred_at, actor_id, event_type, outcome, message, details, prev_hash, hash)
          values (${seq}, now() - cast(${ago} as interval), ${a}, 'QUERY_EXECUTED', ${outcome}, 'm', cast(${details} as jsonb), 'p', 'h')`);
      await entry(1, '10 minutes', 'SUCCESS', '{"anonymous":true}');
      await entry(2, '5 minutes', 'DENIED', '{"reason":"limit per minute"}');
      await entry(3, '50 minutes', 'SUCCESS', '{"query_id":"x"}');
      // A cohort refreshed three hours ago (a run); its first version came from an execution (not one more run).
      const [cohort] = (await db.execute(sql`insert into cohorts (name, person_count, author_id) values ('c', 30, ${a}) returning id`) as unknown as { rows: { id: string }[] }).rows;
      await db.execute(sql`insert into cohort_versions (id, cohort_id, version, origin, query_version, person_count, dataset, dataset_schema, result, created_by, created_at) values
        ('33333333-3333-4333-8333-333333333333', ${cohort!.id}, 1, 'EXECUTION', 1, 30, 's', 'cdm_x', '{}', ${a}, now() - interval '4 hours'),
        ('44444444-4444-4444-8444-444444444444', ${cohort!.id}, 2, 'REFRESH', 1, 30, 's', 'cdm_x', '{}', ${a}, now() - interval '3 hours')`);

      await migrateDatabase(handle);
      const rows = (await db.execute(
        sql`select user_id, array(select extract(epoch from now() - t)::int / 60 from unnest(run_times) as r(t) order by t desc)::text as minutes_ago from query_run_counters`,
      )) as unknown as { rows: { user_id: string; minutes_ago: string }[] };
      expect(rows.rows).toEqual([{ user_id: a, minutes_ago: '{10,60,180}' }]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await handle.close();
      await postgres?.drop();
    }
  });
});
