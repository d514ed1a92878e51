/**
 * Cohorts on 1,000,000 synthetic persons, through the API on its embedded defaults:
 * - making a cohort of about half the persons (women) from an execution: the snapshot of their ids
 *   in the warehouse, the demographics counted from it, the database transaction and the audit entry;
 * - refreshing it (the query run again, a new version);
 * - reading a cohort's detail, and the list (search, status, tag filters, sorts) over a few hundred cohorts.
 * Usage: npm run bench:cohorts [-- --persons 1000000 --large 10 --small 300]
 * Goals: making or refreshing a half-the-dataset cohort p95 <= 2 s; detail and list p95 <= 50 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDbWarehouse } from '../../apps/api/src/warehouse/duckdb-warehouse';
import { syntheticDataset } from '../../apps/api/src/warehouse/synthetic-generator';
import { measureScenarios } from '../support/measure';
import { percentile, signIn, startApi, stop } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const persons = arg('persons', 1_000_000);
const large = arg('large', 10);
const small = arg('small', 300);
const out = (line: string) => process.stdout.write(`${line}\n`);

const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };
const OLDEST = { combinator: 'and', rules: [{ field: 'person.age', operator: '>=', value: 85 }, { field: 'person.gender_concept_id', operator: '=', value: 8507 }] };

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-cohorts-'));
const dataDir = path.join(work, 'data');
fs.mkdirSync(dataDir);
const password = 'bench-admin-password';
let api: Awaited<ReturnType<typeof startApi>> | undefined;
try {
  const generated = await DuckDbWarehouse.open(path.join(dataDir, 'warehouse.duckdb'));
  await generated.load(`synthetic: ${persons} persons, seed 1`, syntheticDataset({ persons, seed: 1 }));
  await generated.close();
  api = await startApi({ DATA_DIR: dataDir, ADMIN_PASSWORD: password, DEMO_PERSONS: '0' });
  const base = `${api.url}/api/v1`;
  const token = await signIn(api.url, 'admin@example.org', password);
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${json.detail}`);
    return json;
  };
  const runSaved = async (name: string, query: unknown) => {
    const saved = await call('POST', '/queries/', { name, query });
    await call('POST', `/queries/${saved.id}/executions/`);
    for (;;) {
      const latest = await call('GET', `/queries/${saved.id}/executions/latest/`);
      if (latest.status === 'SUCCEEDED') return latest as { id: string; result: { person_count: number } };
      if (latest.status === 'FAILED') throw new Error(`run failed: ${latest.error}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const timed = async <T>(work: () => Promise<T>) => {
    const t0 = performance.now();
    const value = await work();
    return { ms: performance.now() - t0, value };
  };

  const women = await runSaved('Women', WOMEN);
  const createMs: number[] = [];
  let cohortId = '';
  for (let i = 0; i < large; i++) {
    const made = await timed(() => call('POST', '/cohorts/', { name: `Women ${i}`, tags: ['women', `batch-${i % 3}`], executionId: women.id }));
    createMs.push(made.ms);
    cohortId = made.value.id as string;
  }
  const refreshMs: number[] = [];
  for (let i = 0; i < Math.max(3, Math.floor(large / 2)); i++) refreshMs.push((await timed(() => call('POST', `/cohorts/${cohortId}/refresh/`))).ms);

  const oldest = await runSaved('The oldest men', OLDEST);
  const smallMs: number[] = [];
  for (let i = 0; i < small; i++) {
    const made = await timed(() =>
      call('POST', '/cohorts/', { name: `Cohort ${String(i).padStart(4, '0')}`, description: `bench cohort number ${i}`, tags: [`tag-${i % 20}`], executionId: oldest.id }),
    );
    smallMs.push(made.ms);
    if (i % 4 === 0) await call('PATCH', `/cohorts/${made.value.id}/`, { status: 'PUBLISHED' });
  }

  out(`dataset: ${persons.toLocaleString('en')} persons; a cohort of women holds ${women.result.person_count.toLocaleString('en')} persons`);
  out(`make a cohort of ${women.result.person_count.toLocaleString('en')} persons (${large} times): p50 ${percentile(createMs, 50).toFixed(0)} ms, p95 ${percentile(createMs, 95).toFixed(0)} ms (goal p95 <= 2000 ms)`);
  out(`refresh it (${refreshMs.length} times): p50 ${percentile(refreshMs, 50).toFixed(0)} ms, p95 ${percentile(refreshMs, 95).toFixed(0)} ms (goal p95 <= 2000 ms)`);
  out(`make a cohort of ${oldest.result.person_count.toLocaleString('en')} persons (${small} times): p50 ${percentile(smallMs, 50).toFixed(0)} ms, p95 ${percentile(smallMs, 95).toFixed(0)} ms`);
  out(`reads over ${large + small} cohorts (200 requests each):`);
  const worst = await measureScenarios(
    base,
    token,
    [
      ['detail of a cohort with versions', `/cohorts/${cohortId}/`],
      ['list, first page (12)', '/cohorts/?limit=12'],
      ['list, search "number 12"', '/cohorts/?limit=12&search=number%2012'],
      ['list, PUBLISHED, by person count', '/cohorts/?limit=12&status=PUBLISHED&order_by=-person_count'],
      ['list, tag filter, by name', '/cohorts/?limit=12&tags=tag-7&order_by=name'],
      ['list, page 20', '/cohorts/?limit=12&skip=240'],
    ],
    200,
  );
  const ok = percentile(createMs, 95) <= 2000 && percentile(refreshMs, 95) <= 2000 && worst <= 50;
  out(ok ? 'all goals met' : 'GOAL MISSED');
  process.exitCode = ok ? 0 : 1;
} finally {
  if (api) await stop(api.child);
  fs.rmSync(work, { recursive: true, force: true });
}
