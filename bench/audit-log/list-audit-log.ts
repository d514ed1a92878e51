/**
 * GET /api/v1/logs/ with 1,000,000 audit entries on PostgreSQL: p50 and p95 of filtered pages
 * (the viewer's default of the past 30 days, event-type filter, search, outcome, a later page),
 * end to end over HTTP. Usage: npm run bench:audit-log [-- --entries 1000000 --requests 200]
 */
import { measureScenarios } from '../support/measure';
import { createBenchDatabase, runSql } from '../support/postgres';
import { signIn, startApi, stop } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const entries = arg('entries', 1_000_000);
const requests = arg('requests', 200);
const password = 'bench-admin-password';

const database = await createBenchDatabase();
let api: Awaited<ReturnType<typeof startApi>> | undefined;
try {
  api = await startApi({ DATABASE_URL: database.url, ADMIN_PASSWORD: password });
  const started = Date.now();
  // A year of history, oldest first, appended after the entries the first start wrote.
  // (Bulk rows are not hash-chained: this measures reading, not verification.)
  await runSql(
    database.url,
    [
      `insert into audit_log (seq, occurred_at, actor_id, actor_email, event_type, resource_type, resource_id, outcome, message, client_address, user_agent, request_id, details, prev_hash, hash)
       select 1000 + i,
              now() - interval '365 days' + (i * interval '365 days' / $1::int),
              null,
              'user' || (i % 5000) || '@example.org',
              (array['AUTH_SIGN_IN','AUTH_TOKEN_REFRESHED','QUERY_EXECUTED','QUERY_CREATED','DOCUMENT_DOWNLOADED','ACCESS_DENIED','AUTH_SIGN_IN_FAILED','WORKBENCH_UPDATED','NOTEBOOK_STARTED','COHORT_UPDATED'])[1 + i % 10],
              'query', md5(i::text),
              case when i % 10 = 5 then 'DENIED' when i % 10 = 6 then 'FAILURE' else 'SUCCESS' end,
              'user' || (i % 5000) || '@example.org did ' || (array['sign in','refresh','run query','save query','download','get denied','fail sign in','edit workbench','start notebook','publish cohort'])[1 + i % 10] || ' #' || i,
              '10.0.' || (i % 250) || '.' || (i % 200), 'Mozilla/5.0', md5((i * 7)::text), '{}'::jsonb, 'x', 'x'
       from generate_series(1, $1::int) as i`,
      'analyze audit_log',
    ],
    [[entries]],
  );
  process.stdout.write(`Inserted ${entries} audit entries in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  const token = await signIn(api.url, 'admin@example.org', password);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const last30 = `start_date=${day(-30)}&end_date=${day(0)}`;
  process.stdout.write(`GET /api/v1/logs/ on PostgreSQL with ${entries} entries, ${requests} sequential requests each\n`);
  const worst = await measureScenarios(
    api.url,
    token,
    [
      ['past 30 days, newest first (the default)', `/api/v1/logs/?${last30}&limit=10`],
      ['past 30 days, event_type=ACCESS_DENIED', `/api/v1/logs/?${last30}&event_type=ACCESS_DENIED&limit=10`],
      ['past year, two event types, page 20', `/api/v1/logs/?start_date=${day(-365)}&event_type=QUERY_EXECUTED&event_type=QUERY_CREATED&skip=200&limit=10`],
      ['past 30 days, search "user42@"', `/api/v1/logs/?${last30}&search=user42%40&limit=10`],
      ['past 6 months, outcome=FAILURE, oldest first', `/api/v1/logs/?start_date=${day(-182)}&outcome=FAILURE&order_by=TIMESTAMP_ASC&limit=10`],
      ['a single old day', `/api/v1/logs/?start_date=${day(-200)}&end_date=${day(-200)}&limit=10`],
    ],
    requests,
  );
  process.stdout.write(`worst p95: ${worst.toFixed(1)} ms (goal <= 50 ms)\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  if (api) await stop(api.child);
  await database.drop();
}
