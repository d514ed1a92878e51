/**
 * GET /api/v1/users/ with 100,000 users on PostgreSQL: p50 and p95 latency of typical list calls
 * (first page, search, role and status filters, sort, deep page), end to end over HTTP.
 * Usage: npm run bench:users [-- --users 100000 --requests 200]
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres);
 * it creates and drops its own database.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { percentile, signIn, startApi, stop } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const userCount = arg('users', 100_000);
const requests = arg('requests', 200);
const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `hdp_bench_${randomBytes(4).toString('hex')}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const password = 'bench-admin-password';
let api: Awaited<ReturnType<typeof startApi>> | undefined;
try {
  // First start migrates and creates the admin; then the users are added in bulk.
  api = await startApi({ DATABASE_URL: dbUrl, ADMIN_PASSWORD: password });
  const db = new pg.Client({ connectionString: dbUrl });
  db.on('error', () => undefined); // the database is dropped at the end, taking connections with it
  await db.connect();
  const started = Date.now();
  await db.query(
    `insert into users (email, name, roles, status, user_source, created_at)
     select 'user' || i || '@' || (array['example.org','uni.example.ac.uk','hospital.example.net'])[1 + i % 3],
            (array['Alex','Sam','Rita','Dana','Lee','Kim','Noor','Ivan'])[1 + i % 8] || ' ' || (array['Smith','Jones','Patel','Garcia','Chen','Okafor'])[1 + (i / 8) % 6] || ' ' || i,
            case i % 6 when 3 then array['DATA_STEWARD'] when 4 then array['AUDITOR'] when 5 then array['RESEARCHER','DATA_STEWARD'] else array['RESEARCHER'] end,
            (array['ACTIVE','ACTIVE','ACTIVE','ACTIVE','INVITED','DISABLED','REVOKED'])[1 + i % 7],
            case when i % 4 = 0 then 'EXTERNAL' else 'LOCAL' end,
            now() - (i || ' minutes')::interval
     from generate_series(1, $1::int) as i`,
    [userCount],
  );
  await db.query('analyze users');
  await db.end();
  process.stdout.write(`Inserted ${userCount} users in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  const token = await signIn(api.url, 'admin@example.org', password);
  const scenarios: [string, string][] = [
    ['first page (default sort)', '/api/v1/users/'],
    ['search by name or email', '/api/v1/users/?search=patel%2012'],
    ['search, one letter-pair', '/api/v1/users/?search=ri'],
    ['roles=DATA_STEWARD&roles=AUDITOR', '/api/v1/users/?roles=DATA_STEWARD&roles=AUDITOR'],
    ['status=INVITED, newest first', '/api/v1/users/?status=INVITED&order_by=-created_at'],
    ['source EXTERNAL, by name, page 50', '/api/v1/users/?user_source=EXTERNAL&order_by=name&skip=500&limit=10'],
    ['deep page (skip 50,000)', '/api/v1/users/?skip=50000&limit=15'],
  ];
  process.stdout.write(`GET /api/v1/users/ on PostgreSQL with ${userCount} users, ${requests} sequential requests each\n`);
  const p95s: number[] = [];
  for (const [name, path] of scenarios) {
    const times: number[] = [];
    for (let i = 0; i < requests + 10; i += 1) {
      const t0 = performance.now();
      const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { total: number };
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
      if (i >= 10) times.push(performance.now() - t0); // the first ten warm up
    }
    const p95 = percentile(times, 95);
    p95s.push(p95);
    process.stdout.write(`  ${name.padEnd(38)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms\n`);
  }
  process.stdout.write(`worst p95: ${Math.max(...p95s).toFixed(1)} ms (goal <= 20 ms)\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  if (api) await stop(api.child);
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
