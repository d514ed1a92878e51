/**
 * Workbenches:
 * - provisioning: a cohort of about 100,000 persons from the 1,000,000-person synthetic dataset,
 *   released to a workbench through the API on its embedded defaults (DuckDB warehouse, PGlite):
 *   the time from the create call to READY, and rows written per second;
 * - list and detail: GET /workbenches/ and /workbenches/{id}/ with 1,000 workbenches of 20 members
 *   each on PostgreSQL, as an ADMIN (every workbench) and as a researcher (a member of 100).
 * Usage: npm run bench:workbenches [-- --persons 1000000 --cohort 100000 --workbenches 1000 --part all|provisioning|lists]
 * Goals: provisioning <= 15 s; list and detail p95 <= 50 ms.
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres) for the lists.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDbWarehouse } from '../../apps/api/src/warehouse/duckdb-warehouse';
import { syntheticDataset } from '../../apps/api/src/warehouse/synthetic-generator';
import { measureScenarios } from '../support/measure';
import { createBenchDatabase, runSql } from '../support/postgres';
import { signIn, startApi, stop } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const partArg = process.argv.indexOf('--part') > 0 ? process.argv[process.argv.indexOf('--part') + 1] : 'all';
const persons = arg('persons', 1_000_000);
const cohortSize = arg('cohort', 100_000);
const workbenchCount = arg('workbenches', 1000);
const out = (line: string) => process.stdout.write(`${line}\n`);
const password = 'bench-admin-password';
const PURPOSE = 'A benchmark workbench: its purpose is long enough for the wizard, fifty characters or more.';

function client(base: string, token: string) {
  return async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${String(json.detail)}`);
    return json;
  };
}

async function provisioning(): Promise<boolean> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-workbenches-'));
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  try {
    const generated = await DuckDbWarehouse.open(path.join(dataDir, 'warehouse.duckdb'));
    await generated.load(`synthetic: ${persons} persons, seed 1`, syntheticDataset({ persons, seed: 1 }));
    await generated.close();
    api = await startApi({ DATA_DIR: dataDir, ADMIN_PASSWORD: password, DEMO_PERSONS: '0', QUERY_TIMEOUT_MS: '120000' });
    const call = client(`${api.url}/api/v1`, await signIn(api.url, 'admin@example.org', password));

    // The oldest persons, down to the age band that brings them to about the cohort size wanted.
    let query: unknown;
    let count = 0;
    for (let age = 100; age >= 0; age -= 1) {
      query = { combinator: 'and', rules: [{ field: 'person.age', operator: '>=', value: age }] };
      count = Number((await call('POST', '/queries/execute/', { query })).person_count);
      if (count >= cohortSize) break;
    }
    const saved = await call('POST', '/queries/', { name: 'Bench cohort', query });
    const execution = await call('POST', `/queries/${saved.id}/executions/`);
    for (;;) {
      const run = await call('GET', `/queries/${saved.id}/executions/${execution.id}/`);
      if (run.status === 'SUCCEEDED') break;
      if (run.status === 'FAILED') throw new Error(`run failed: ${String(run.error)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const cohort = await call('POST', '/cohorts/', { name: 'Bench cohort', executionId: execution.id });
    await call('PATCH', `/cohorts/${cohort.id}/`, { status: 'PUBLISHED' });

    const t0 = performance.now();
    const created = await call('POST', '/workbenches/', { name: 'Bench', purpose: PURPOSE, cohorts: [{ id: cohort.id }] });
    let release: { state: string; row_counts: Record<string, number> | null; error: string | null } | undefined;
    for (;;) {
      const workbench = await call('GET', `/workbenches/${created.id}/`);
      release = (workbench.cohorts as (typeof release)[])[0];
      if (release!.state === 'READY' || release!.state === 'FAILED') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - t0) / 1000;
    if (release!.state !== 'READY') throw new Error(`provisioning failed: ${release!.error}`);
    const rows = Object.values(release!.row_counts!).reduce((a, b) => a + b, 0);
    const folder = path.join(dataDir, 'workbenches', String(created.id), 'released', 'cohorts');
    const dir = path.join(folder, fs.readdirSync(folder)[0]!);
    const bytes = fs.readdirSync(dir).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
    out(`dataset: ${persons.toLocaleString('en')} persons; cohort: ${count.toLocaleString('en')} persons`);
    out(`provisioning (create call to READY): ${seconds.toFixed(1)} s for ${rows.toLocaleString('en')} rows in 9 tables, ${Math.round(rows / seconds).toLocaleString('en')} rows/s, ${(bytes / 1e6).toFixed(0)} MB of gzip CSV (goal <= 15 s)`);
    out(`  rows per table: ${Object.entries(release!.row_counts!).map(([t, n]) => `${t} ${n}`).join(', ')}`);
    return seconds <= 15;
  } finally {
    if (api) await stop(api.child);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function lists(): Promise<boolean> {
  const database = await createBenchDatabase();
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-wb-lists-'));
  try {
    api = await startApi({ DATABASE_URL: database.url, DATA_DIR: dataDir, ADMIN_PASSWORD: password, DEMO_PERSONS: '0' });
    const adminToken = await signIn(api.url, 'admin@example.org', password);
    const started = Date.now();
    await runSql(database.url, [
      // A researcher who signs in with the admin's password (copied hash), and 200 other members.
      `insert into users (email, name, roles, status, user_source, password_hash)
       select 'researcher@example.org', 'Rita Researcher', array['RESEARCHER'], 'ACTIVE', 'LOCAL', password_hash from users where email = 'admin@example.org'`,
      `insert into users (email, name, roles, status, user_source)
       select 'member' || i || '@example.org', 'Member ' || i, array['RESEARCHER'], 'ACTIVE', 'LOCAL' from generate_series(1, 200) as i`,
      `insert into workbenches (name, purpose, created_by, updated_by, updated_at)
       select 'Workbench ' || lpad(i::text, 4, '0'), 'Study number ' || i || ' of the benchmark. ' || repeat('A purpose of some length. ', 4),
              u.id, u.id, now() - (i || ' minutes')::interval
       from generate_series(1, $1::int) as i, (select id from users where email = 'admin@example.org') u`,
      // 20 members each: an OWNER (the researcher for every tenth workbench, else the admin) and 19 others.
      `with w as (select id, row_number() over (order by name) as rn from workbenches),
            m as (select id, row_number() over (order by email) as rn from users where email like 'member%@example.org')
       insert into workbench_members (workbench_id, user_id, role)
       select w.id, m.id, case when m.rn % 3 = 0 then 'WRITER' else 'READER' end from w join m on ((m.rn - w.rn * 7) % 200 + 200) % 200 < 19`,
      `insert into workbench_members (workbench_id, user_id, role)
       select w.id, u.id, 'OWNER' from (select id, row_number() over (order by name) as rn from workbenches) w,
              (select id, email from users where email in ('researcher@example.org', 'admin@example.org')) u
       where (w.rn % 10 = 0) = (u.email = 'researcher@example.org')`,
      'analyze',
    ], [[], [], [workbenchCount], [], [], []]);
    out(`Inserted ${workbenchCount} workbenches of 20 members each in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const researcherToken = await signIn(api.url, 'researcher@example.org', password);
    const base = `${api.url}/api/v1`;
    const mine = (await client(base, researcherToken)('GET', '/workbenches/?limit=1')) as { workbenches: { id: string }[]; total: number };
    out(`the researcher is a member of ${mine.total} workbenches; reads on PostgreSQL (200 requests each):`);
    const worstAdmin = await measureScenarios(
      base,
      adminToken,
      [
        ['ADMIN: list, first page (12)', '/workbenches/?limit=12'],
        ['ADMIN: list, search "number 12"', '/workbenches/?limit=12&search=number%2012'],
        ['ADMIN: list, page 50', '/workbenches/?limit=12&skip=600'],
        ['ADMIN: detail (20 members)', `/workbenches/${mine.workbenches[0]!.id}/`],
      ],
      200,
    );
    const worstResearcher = await measureScenarios(
      base,
      researcherToken,
      [
        ['member: list, first page (12)', '/workbenches/?limit=12'],
        ['member: list, search "workbench 05"', '/workbenches/?limit=12&search=workbench%2005'],
        ['member: list, page 5', '/workbenches/?limit=12&skip=48'],
        ['member: detail (20 members)', `/workbenches/${mine.workbenches[0]!.id}/`],
      ],
      200,
    );
    return Math.max(worstAdmin, worstResearcher) <= 50;
  } finally {
    if (api) await stop(api.child);
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

let ok = true;
if (partArg === 'all' || partArg === 'lists') ok = (await lists()) && ok;
if (partArg === 'all' || partArg === 'provisioning') ok = (await provisioning()) && ok;
out(ok ? 'all goals met' : 'GOAL MISSED');
process.exitCode = ok ? 0 : 1;
