import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CohortDefinitionInput, CohortDetail, Workbench } from '@hdp/contract';
import { CONCEPT as C } from '../src/warehouse/synthetic-vocabulary';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { startTestApp, type TestApp } from './support/test-app';
import { expectReleasedRowsMatch, provisioned, publishedCohort, type Account } from './support/workbench-fixtures';

let t: TestApp;
let dataDir: string;
let rita: Account;
let stella: Account;

/** The first lisinopril exposure in an observation period; the period ends 30 days after it (or with the observation period). */
const THIRTY_DAYS_ON_LISINOPRIL: CohortDefinitionInput = {
  conceptSets: [{ id: 0, name: 'Lisinopril', expression: { items: [{ conceptId: C.lisinopril, includeDescendants: true }] } }],
  primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 0 }], observationWindow: { priorDays: 0, postDays: 0 }, primaryCriteriaLimit: { type: 'First' } },
  endStrategy: { type: 'DateOffset', dateField: 'StartDate', offset: 30 },
};
/** The same cohort, narrowed by a rule of the query tree: women only. */
const WOMEN_ONLY = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: C.female }], cohortDefinition: THIRTY_DAYS_ON_LISINOPRIL };

/** The periods written by hand: `person start end` lines, in order. */
async function handPeriods(women: boolean): Promise<string[]> {
  const s = t.services.warehouse.state!.schema;
  const rows = await t.services.warehouse.query(
    `SELECT f.person_id, CAST(f.start_date AS VARCHAR) AS s, CAST(LEAST(f.start_date + 30, op.observation_period_end_date) AS VARCHAR) AS e
     FROM (SELECT d.person_id, MIN(d.drug_exposure_start_date) AS start_date FROM "${s}".drug_exposure d
           JOIN "${s}".observation_period o ON o.person_id = d.person_id AND d.drug_exposure_start_date BETWEEN o.observation_period_start_date AND o.observation_period_end_date
           WHERE d.drug_concept_id = ${C.lisinopril} GROUP BY d.person_id) f
     JOIN "${s}".observation_period op ON op.person_id = f.person_id AND f.start_date BETWEEN op.observation_period_start_date AND op.observation_period_end_date
     JOIN "${s}".person p ON p.person_id = f.person_id
     ${women ? `WHERE p.gender_concept_id = ${C.female}` : ''}
     ORDER BY 1, 2`,
  );
  return rows.map((r) => `${Number(r.person_id)} ${String(r.s)} ${String(r.e)}`);
}

/** The released periods file as `person start end` lines, in order, after checking its header. */
function releasedPeriods(folder: string): string[] {
  const [header, ...lines] = gunzipSync(fs.readFileSync(path.join(folder, 'cohort_period.csv.gz'))).toString('utf8').trimEnd().split('\n');
  expect(header).toBe('person_id,cohort_start_date,cohort_end_date');
  return lines.map((line) => line.split(',').join(' '));
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-cohort-periods-'));
  t = await startTestApp({ DATA_DIR: dataDir, CLAMAV: 'none', QUERY_TIMEOUT_MS: '20000' });
  [rita, stella] = await Promise.all([t.userWithRoles(['RESEARCHER'], 'rita@example.org'), t.userWithRoles(['DATA_STEWARD'], 'stella@example.org')]);
  await loadWarehouse(t.services, { kind: 'synthetic', persons: 1500, seed: 7 }, { actorEmail: 'test' });
}, 120_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a cohort made from a definition with an exit releases each person's periods to a workbench", () => {
  let cohortId: string;
  let workbench: Workbench;

  it('is made, published and released like any cohort, with a cohort_period file of every period', async () => {
    cohortId = await publishedCohort(t, rita, stella, 'Thirty days on lisinopril', { combinator: 'and', rules: [], cohortDefinition: THIRTY_DAYS_ON_LISINOPRIL });
    const created = await t.request({ method: 'POST', url: '/api/v1/workbenches/', token: rita.token, payload: { name: 'Lisinopril starters', purpose: 'To study the first month of lisinopril treatment in adults, for a service review.', cohorts: [{ id: cohortId }] } });
    expect(created.statusCode, created.body).toBe(201);
    workbench = await provisioned(t, rita, created.json().id);
    const folder = path.join(dataDir, 'workbenches', workbench.id, 'released', 'cohorts', 'thirty-days-on-lisinopril-v1');
    await expectReleasedRowsMatch(t, folder, workbench, cohortId);

    const expected = await handPeriods(false);
    expect(expected.length).toBeGreaterThan(50);
    expect(releasedPeriods(folder)).toEqual(expected);
    expect(workbench.cohorts[0]!.row_counts!.cohort_period).toBe(expected.length);
    // Every period's person is one of the released persons.
    const persons = new Set(gunzipSync(fs.readFileSync(path.join(folder, 'person.csv.gz'))).toString('utf8').trimEnd().split('\n').slice(1).map((line) => line.split(',')[0]));
    expect(expected.every((line) => persons.has(line.split(' ')[0]))).toBe(true);
    const readme = fs.readFileSync(path.join(folder, 'README.txt'), 'utf8');
    expect(readme).toContain(`cohort_period.csv.gz: ${expected.length}\n`);
    expect(readme).toContain("cohort_period.csv.gz holds each person's cohort periods");
    expect(fs.readFileSync(path.join(folder, 'data_dictionary.csv'), 'utf8')).toMatch(/^cohort_period,cohort_end_date,DATE,/m);
  }, 120_000);

  it("a refresh keeps the periods with the new version; the tree's own rules narrow the periods with the persons", async () => {
    const refreshed = await t.request({ method: 'POST', url: `/api/v1/cohorts/${cohortId}/refresh/`, token: stella.token });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const detail = refreshed.json() as CohortDetail;
    expect(detail.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(detail.versions[0]!.definition!.query.cohortDefinition).toMatchObject({ endStrategy: { type: 'DateOffset', offset: 30 } });
    const published = await t.request({ method: 'PATCH', url: `/api/v1/cohorts/${cohortId}/`, token: stella.token, payload: { published_version: 2 } });
    expect(published.statusCode, published.body).toBe(200);

    const women = await publishedCohort(t, rita, stella, 'Women starting lisinopril', WOMEN_ONLY);
    const updated = await t.request({ method: 'PUT', url: `/api/v1/workbenches/${workbench.id}/`, token: rita.token, payload: { name: workbench.name, purpose: workbench.purpose, version: workbench.version, users: [{ id: rita.user.id, role: 'OWNER' }], cohorts: [{ id: cohortId, version: 2 }, { id: women }] } });
    expect(updated.statusCode, updated.body).toBe(200);
    const ready = await provisioned(t, rita, workbench.id);
    const base = path.join(dataDir, 'workbenches', workbench.id, 'released', 'cohorts');
    await expectReleasedRowsMatch(t, path.join(base, 'thirty-days-on-lisinopril-v2'), ready, cohortId);
    expect(releasedPeriods(path.join(base, 'thirty-days-on-lisinopril-v2'))).toEqual(await handPeriods(false));
    await expectReleasedRowsMatch(t, path.join(base, 'women-starting-lisinopril-v1'), ready, women);
    expect(releasedPeriods(path.join(base, 'women-starting-lisinopril-v1'))).toEqual(await handPeriods(true));
  }, 120_000);

  it('a cohort of a plain query has no periods file', async () => {
    const plain = await publishedCohort(t, rita, stella, 'Every woman', { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: C.female }] });
    const created = await t.request({ method: 'POST', url: '/api/v1/workbenches/', token: rita.token, payload: { name: 'Women', purpose: 'To study the first month of lisinopril treatment in adults, for a service review.', cohorts: [{ id: plain }] } });
    const ready = await provisioned(t, rita, created.json().id);
    const folder = path.join(dataDir, 'workbenches', ready.id, 'released', 'cohorts', 'every-woman-v1');
    await expectReleasedRowsMatch(t, folder, ready, plain);
    expect(fs.existsSync(path.join(folder, 'cohort_period.csv.gz'))).toBe(false);
    expect(ready.cohorts[0]!.row_counts!.cohort_period).toBeUndefined();
  }, 120_000);
});
