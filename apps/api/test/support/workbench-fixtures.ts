import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { RELEASED_TABLES, type QueryExecution, type Workbench } from '@hdp/contract';
import type { TestApp } from './test-app';

export type Account = { token: string; user: { id: string; email: string } };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A cohort made by `author` from a run of `query`, published by `steward` (left a draft without one); answers its id. */
export async function publishedCohort(t: TestApp, author: Account, steward: Account | null, name: string, query: unknown): Promise<string> {
  const saved = await t.request({ method: 'POST', url: '/api/v1/queries/', token: author.token, payload: { name, query: query as object } });
  const started = await t.request({ method: 'POST', url: `/api/v1/queries/${saved.json().id}/executions/`, token: author.token });
  let execution: QueryExecution | undefined;
  for (let i = 0; i < 800 && execution?.status !== 'SUCCEEDED' && execution?.status !== 'FAILED'; i++) {
    await sleep(25);
    execution = (await t.request({ method: 'GET', url: `/api/v1/queries/${saved.json().id}/executions/${started.json().id}/`, token: author.token })).json();
  }
  expect(execution?.status, execution?.error ?? 'the run did not finish').toBe('SUCCEEDED');
  const cohort = await t.request({ method: 'POST', url: '/api/v1/cohorts/', token: author.token, payload: { name, tags: ['test'], executionId: execution!.id } });
  expect(cohort.statusCode, cohort.body).toBe(201);
  if (!steward) return cohort.json().id;
  const published = await t.request({ method: 'PATCH', url: `/api/v1/cohorts/${cohort.json().id}/`, token: steward.token, payload: { status: 'PUBLISHED' } });
  expect(published.statusCode, published.body).toBe(200);
  return cohort.json().id;
}

/** The workbench once no release of it is being provisioned any more. */
export async function provisioned(t: TestApp, account: Account, id: string): Promise<Workbench> {
  for (let i = 0; i < 1200; i++) {
    const workbench = (await t.request({ method: 'GET', url: `/api/v1/workbenches/${id}/`, token: account.token })).json() as Workbench;
    if (workbench.state !== 'PROVISIONING') return workbench;
    await sleep(50);
  }
  throw new Error('provisioning did not finish');
}

/**
 * Checks a READY release against the warehouse: each table's file holds exactly the rows of the
 * cohort version's persons (counted in the warehouse), as does the release's row count.
 */
export async function expectReleasedRowsMatch(t: TestApp, folder: string, workbench: Workbench, cohortId: string): Promise<void> {
  const release = workbench.cohorts.find((c) => c.id === cohortId)!;
  expect(release).toMatchObject({ state: 'READY', progress: 1, error: null });
  const { rows } = (await t.services.db.execute(sql`select id from cohort_versions where cohort_id = ${cohortId} and version = ${release.version}`)) as unknown as {
    rows: { id: string }[];
  };
  // A version of a query with a cohort definition also releases its persons' cohort periods; others do not.
  const [periods] = await t.services.warehouse.query('SELECT COUNT(*) AS n FROM hdp_cohorts.cohort_period WHERE cohort_version_id = $1', [rows[0]!.id]);
  const periodFile = Number(periods!.n) > 0 ? ['cohort_period.csv.gz'] : [];
  expect(fs.readdirSync(folder).sort()).toEqual([...RELEASED_TABLES.map((table) => `${table}.csv.gz`), ...periodFile, 'README.txt', 'data_dictionary.csv'].sort());
  expect(release.row_counts!.cohort_period).toBe(periodFile.length > 0 ? Number(periods!.n) : undefined);
  const schema = t.services.warehouse.state!.schema;
  for (const table of RELEASED_TABLES) {
    const [expected] = await t.services.warehouse.query(
      `SELECT COUNT(*) AS n FROM "${schema}"."${table}" WHERE person_id IN (SELECT person_id FROM hdp_cohorts.cohort_person WHERE cohort_version_id = $1)`,
      [rows[0]!.id],
    );
    const lines = gunzipSync(fs.readFileSync(path.join(folder, `${table}.csv.gz`))).toString('utf8').trimEnd().split('\n');
    expect(lines.length - 1, table).toBe(Number(expected!.n));
    expect(release.row_counts![table], table).toBe(Number(expected!.n));
  }
  // The workbench holds every person of the snapshot; the size shown outside is the released (perturbed) count.
  expect(Math.abs(release.row_counts!.person! - release.person_count!)).toBeLessThanOrEqual(2);
}
