import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_NOT_EXECUTED, type QueryExecution } from '@hdp/contract';
import { queryExecutionRepository, queryRepository } from '../src/queries/query-repository';
import { INTERRUPTED_REASON, QueryExecutionWorker } from '../src/queries/query-execution-worker';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
/** Rows of a raw SQL read (PGlite and node-postgres both answer `{ rows }`). */
const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
let adminToken: string;
let rita: { token: string; user: { id: string; email: string } };
let otto: { token: string; user: { id: string; email: string } };

const WOMEN_40_65_T2DM_HBA1C = {
  combinator: 'and',
  rules: [
    { field: 'person.gender_concept_id', operator: '=', value: 8532 },
    { field: 'person.age', operator: 'between', value: [40, 65] },
    { field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [201826] },
    {
      table: 'measurement',
      combinator: 'and',
      rules: [
        { field: 'measurement.measurement_concept_id', operator: '=', value: 3004410 },
        { field: 'measurement.value_as_number', operator: '>', value: 7 },
      ],
    },
  ],
};

beforeAll(async () => {
  t = await startTestApp({ QUERY_TIMEOUT_MS: '20000' });
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
  rita = await t.userWithRoles(['RESEARCHER'], 'rita@example.org');
  otto = await t.userWithRoles(['RESEARCHER'], 'otto@example.org');
});
afterAll(() => t.close());

const create = (token: string, name: string, query: unknown = WOMEN_40_65_T2DM_HBA1C) =>
  t.request({ method: 'POST', url: '/api/v1/queries/', token, payload: { name, description: `about ${name}`, query } });

async function waitForExecution(queryId: string, executionId: string, token: string): Promise<QueryExecution> {
  for (let i = 0; i < 200; i++) {
    const response = await t.request({ method: 'GET', url: `/api/v1/queries/${queryId}/executions/${executionId}/`, token });
    const execution = response.json() as QueryExecution;
    if (execution.status === 'SUCCEEDED' || execution.status === 'FAILED') return execution;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the execution did not finish');
}

describe('before any data is loaded', () => {
  it('the schema says so, concept search finds nothing, and a run fails cleanly with a reason', async () => {
    const schema = await t.request({ method: 'GET', url: '/api/v1/data-explorer/schema/', token: rita.token });
    expect(schema.json().warehouse).toEqual({ loaded: false, source: null });
    const concepts = await t.request({ method: 'GET', url: '/api/v1/data-explorer/concepts/?search=diabetes', token: rita.token });
    expect(concepts.json()).toEqual({ concepts: [] });
    const anonymous = await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: { query: { rules: [] } } });
    expect(anonymous.statusCode).toBe(409);
    expect(anonymous.json().detail).toMatch(/^No health data is loaded yet/);
    const saved = (await create(rita.token, 'early')).json();
    const started = await t.request({ method: 'POST', url: `/api/v1/queries/${saved.id}/executions/`, token: rita.token });
    const finished = await waitForExecution(saved.id, started.json().id, rita.token);
    expect(finished).toMatchObject({ status: 'FAILED', result: null });
    expect(finished.error).toMatch(/^No health data is loaded yet/);
    await t.request({ method: 'DELETE', url: `/api/v1/queries/${saved.id}/`, token: rita.token });
  });
});

describe('with the synthetic dataset', () => {
  beforeAll(async () => {
    await loadWarehouse(t.services, { kind: 'synthetic', persons: 3000, seed: 3 }, { actorEmail: 'test' });
  });

  it('describes the tables and fields a query can use, with operators and value editors', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/data-explorer/schema/', token: rita.token });
    expect(response.statusCode).toBe(200);
    const { tableSchema, warehouse } = response.json();
    expect(warehouse).toEqual({ loaded: true, source: 'synthetic: 3000 persons, seed 3' });
    expect(tableSchema.map((table: { name: string }) => table.name)).toEqual(
      expect.arrayContaining(['person', 'condition_occurrence', 'drug_exposure', 'measurement', 'observation', 'procedure_occurrence', 'visit_occurrence', 'death']),
    );
    const measurement = tableSchema.find((table: { name: string }) => table.name === 'measurement');
    const concept = measurement.fields.find((f: { name: string }) => f.name === 'measurement.measurement_concept_id');
    expect(concept).toMatchObject({ type: 'concept', valueEditor: { type: 'concept', domain: 'Measurement' }, includesDescendants: true });
    const sex = tableSchema[0].fields.find((f: { name: string }) => f.name === 'person.gender_concept_id');
    expect(sex.valueEditor).toEqual({ type: 'select', values: [{ value: 8532, label: 'Female' }, { value: 8507, label: 'Male' }] });
    expect(measurement.fields.find((f: { name: string }) => f.name === 'measurement.measurement_date').valueEditor.type).toBe('date');
    expect(JSON.stringify(tableSchema)).not.toContain('source');
  });

  it('searches concepts by name or code within a domain', async () => {
    const byName = await t.request({ method: 'GET', url: '/api/v1/data-explorer/concepts/?search=DIABETES&domain=Condition', token: rita.token });
    expect(byName.json().concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual([201820, 201254, 201826]);
    const byCode = await t.request({ method: 'GET', url: '/api/v1/data-explorer/concepts/?search=4548-4', token: rita.token });
    expect(byCode.json().concepts).toMatchObject([{ concept_id: 3004410, domain_id: 'Measurement', vocabulary_id: 'LOINC', units: [{ concept_id: 8554, code: '%', name: 'percent' }] }]);
    expect(byName.json().concepts[0]).not.toHaveProperty('units');
    const otherDomain = await t.request({ method: 'GET', url: '/api/v1/data-explorer/concepts/?search=diabetes&domain=Drug', token: rita.token });
    expect(otherDomain.json().concepts.map((c: { concept_name: string }) => c.concept_name)).toEqual(['Drugs used in diabetes']);
    const hostile = await t.request({ method: 'GET', url: `/api/v1/data-explorer/concepts/?search=${encodeURIComponent("x' OR '1'='1")}`, token: rita.token });
    expect(hostile.json()).toEqual({ concepts: [] });
  });

  it('names the concepts of a list of ids, each of them whatever the limit, and refuses a list that is not one', async () => {
    const ids = '8554,201826,8507,8532,999999999,8507';
    const named = await t.request({ method: 'GET', url: `/api/v1/data-explorer/concepts/?ids=${ids}&limit=1`, token: rita.token });
    expect(named.statusCode).toBe(200);
    const names = new Map<number, string>(named.json().concepts.map((c: { concept_id: number; concept_name: string }) => [c.concept_id, c.concept_name]));
    expect([...names.keys()].sort((a, b) => a - b)).toEqual([8507, 8532, 8554, 201826]);
    expect(names.get(8554)).toBe('percent');
    for (const bad of ['8507,,8532', '8507;DROP', `${'1,'.repeat(100)}1`, '1234567890123']) {
      const refused = await t.request({ method: 'GET', url: `/api/v1/data-explorer/concepts/?ids=${encodeURIComponent(bad)}`, token: rita.token });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toMatch(/ids must be up to 100 concept ids/);
    }
  });

  it('runs an unsaved query and answers aggregates only, with small counts suppressed, and audits the count shown', async () => {
    const response = await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: { query: WOMEN_40_65_T2DM_HBA1C } });
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result.person_count).toBeGreaterThan(20);
    expect(result.breakdowns.sex).toEqual([{ key: '8532', label: 'FEMALE', count: result.person_count, display: String(result.person_count), suppressed: false }]);
    expect(result.breakdowns.age_band.map((c: { label: string }) => c.label)).toEqual(expect.arrayContaining(['40–49', '50–59']));
    expect(result.execution_time_ms).toBeGreaterThan(0);
    expect(result.dataset).toBe('synthetic: 3000 persons, seed 3');
    for (const breakdown of ['sex', 'age_band', 'race', 'ethnicity'] as const) {
      for (const cell of result.breakdowns[breakdown]) {
        if (cell.count !== null) expect(cell.count === 0 || cell.count >= 20).toBe(true);
        if (cell.suppressed) expect(cell.display).toBe('suppressed');
      }
      const hidden = result.breakdowns[breakdown].filter((c: { suppressed: boolean }) => c.suppressed);
      if (hidden.length > 0) expect(hidden.length).toBeGreaterThanOrEqual(2);
    }
    expect(JSON.stringify(result)).not.toMatch(/person_id/);
    const audit = await rowsOf(sql`select actor_email, details from audit_log where event_type = 'QUERY_EXECUTED' order by seq desc limit 1`);
    expect(audit[0]).toMatchObject({ actor_email: 'rita@example.org', details: { anonymous: true, person_count_shown: String(result.person_count) } });
  });

  it('shows a small cohort as "< 20" (the threshold is configuration)', async () => {
    const tiny = { rules: [{ field: 'person.year_of_birth', operator: '=', value: 1990 }, { field: 'condition_occurrence.condition_concept_id', operator: '=', value: 4329847 }] };
    const result = (await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: { query: tiny } })).json();
    if (result.person_count_display !== '0') {
      expect(result).toMatchObject({ person_count: null, person_count_display: '< 20' });
    }
    const other = await startTestApp({ SUPPRESSION_THRESHOLD: '5' });
    try {
      await loadWarehouse(other.services, { kind: 'synthetic', persons: 200, seed: 3 }, { actorEmail: 'test' });
      const token = (await other.signIn(ADMIN_EMAIL)).id_token;
      const small = await other.request({ method: 'POST', url: '/api/v1/queries/execute/', token, payload: { query: { rules: [{ field: 'person.age', operator: '>=', value: 95 }] } } });
      expect(small.json().suppression_threshold).toBe(5);
      const cells = small.json().breakdowns.race as { display: string }[];
      expect(cells.every((c) => c.display !== '< 20')).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('answers 400 naming the rule for an invalid tree, on run and on save', async () => {
    const bad = { rules: [{ field: 'person.age', operator: '>', value: 30 }, { table: 'measurement', rules: [{ field: 'measurement.value_as_number', operator: '>', value: "7; DROP TABLE person" }] }] };
    const run = await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: { query: bad } });
    expect(run.statusCode).toBe(400);
    expect(run.json().detail).toBe('query.rules[1].rules[0] (measurement.value_as_number): value must be a number');
    const save = await create(rita.token, 'bad', { rules: [{ field: 'person.password_hash', operator: '=', value: 'x' }] });
    expect(save.statusCode).toBe(400);
    expect(save.json().detail).toBe('query.rules[0] (person.password_hash): unknown field');
    const noName = await t.request({ method: 'POST', url: '/api/v1/queries/', token: rita.token, payload: { name: '', query: { rules: [] } } });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().detail).toMatch(/^body\.name: /);
  });

  it('saves, lists with its search parameters, updates with a new version, and deletes', async () => {
    const created = await create(rita.token, 'Diabetic women');
    expect(created.statusCode).toBe(201);
    const query = created.json();
    expect(query).toMatchObject({ name: 'Diabetic women', description: 'about Diabetic women', version: 1, created_by: rita.user.id, created_by_email: 'rita@example.org' });
    expect(query.query).toEqual(WOMEN_40_65_T2DM_HBA1C);
    await create(rita.token, 'Hypertension', { rules: [{ field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [316866] }] });
    await create(otto.token, "Otto's cohort");

    const mine = await t.request({ method: 'GET', url: '/api/v1/queries/?order_by=name', token: rita.token });
    expect(mine.json().queries.map((q: { name: string }) => q.name)).toEqual(['Diabetic women', 'Hypertension']);
    expect(mine.json().total).toBe(2);
    const all = await t.request({ method: 'GET', url: '/api/v1/queries/?order_by=-name&limit=2&skip=0', token: adminToken });
    expect(all.json()).toMatchObject({ total: 3, queries: [{ name: "Otto's cohort" }, { name: 'Hypertension' }] });
    const byName = await t.request({ method: 'GET', url: '/api/v1/queries/?name_search=DIABET', token: adminToken });
    expect(byName.json().queries.map((q: { id: string }) => q.id)).toEqual([query.id]);
    const byId = await t.request({ method: 'GET', url: `/api/v1/queries/?id_search=${query.id.slice(0, 8)}`, token: adminToken });
    expect(byId.json().queries.map((q: { id: string }) => q.id)).toEqual([query.id]);
    const byEmail = await t.request({ method: 'GET', url: '/api/v1/queries/?email_search=otto', token: adminToken });
    expect(byEmail.json().queries.map((q: { name: string }) => q.name)).toEqual(["Otto's cohort"]);
    const byCreator = await t.request({ method: 'GET', url: `/api/v1/queries/?created_by=${otto.user.id}`, token: adminToken });
    expect(byCreator.json().total).toBe(1);
    const byCreatorEmail = await t.request({ method: 'GET', url: '/api/v1/queries/?created_by=otto@example.org', token: adminToken });
    expect(byCreatorEmail.json().total).toBe(1);

    const renamed = await t.request({ method: 'PATCH', url: `/api/v1/queries/${query.id}/`, token: rita.token, payload: { name: 'Diabetic women 40–65' } });
    expect(renamed.json()).toMatchObject({ name: 'Diabetic women 40–65', version: 2 });
    const edited = await t.request({ method: 'PATCH', url: `/api/v1/queries/${query.id}/`, token: rita.token, payload: { query: { rules: [] } } });
    expect(edited.json()).toMatchObject({ version: 3, query: { rules: [] } });
    const invalid = await t.request({ method: 'PATCH', url: `/api/v1/queries/${query.id}/`, token: rita.token, payload: { query: { combinator: 'xor', rules: [] } } });
    expect(invalid.statusCode).toBe(400);

    const deleted = await t.request({ method: 'DELETE', url: `/api/v1/queries/${query.id}/`, token: rita.token });
    expect(deleted.statusCode).toBe(204);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/queries/${query.id}/`, token: rita.token })).statusCode).toBe(404);
    const events = await rowsOf(sql`select event_type from audit_log where resource_id = ${query.id} order by seq`);
    expect(events.map((r) => r.event_type)).toEqual(['QUERY_CREATED', 'QUERY_UPDATED', 'QUERY_UPDATED', 'QUERY_DELETED']);
  });

  it("keeps a query to its owner and ADMIN: others are told it does not exist", async () => {
    const query = (await create(rita.token, 'private')).json();
    for (const [method, url] of [
      ['PATCH', `/api/v1/queries/${query.id}/`],
      ['DELETE', `/api/v1/queries/${query.id}/`],
      ['POST', `/api/v1/queries/${query.id}/executions/`],
      ['GET', `/api/v1/queries/${query.id}/executions/latest/`],
    ] as const) {
      const response = await t.request({ method, url, token: otto.token, ...(method === 'PATCH' && { payload: { name: 'mine now' } }) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().detail).toBe('Query does not exist.');
    }
    const asAdmin = await t.request({ method: 'PATCH', url: `/api/v1/queries/${query.id}/`, token: adminToken, payload: { description: 'checked' } });
    expect(asAdmin.json()).toMatchObject({ description: 'checked', version: 2, created_by: rita.user.id });
  });

  it('runs a saved query as a job: 202 at once, then PENDING/RUNNING to SUCCEEDED, latest, and an audit entry with the count', async () => {
    const query = (await create(rita.token, 'job')).json();
    const none = await t.request({ method: 'GET', url: `/api/v1/queries/${query.id}/executions/latest/`, token: rita.token });
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toBe(QUERY_NOT_EXECUTED);
    expect(QUERY_NOT_EXECUTED).toBe('Query has not been executed yet.');

    const started = await t.request({ method: 'POST', url: `/api/v1/queries/${query.id}/executions/`, token: rita.token });
    expect(started.statusCode).toBe(202);
    expect(['PENDING', 'RUNNING', 'SUCCEEDED']).toContain(started.json().status);
    expect(started.json()).toMatchObject({ query_id: query.id, query_version: 1, requested_by: rita.user.id });
    const finished = await waitForExecution(query.id, started.json().id, rita.token);
    expect(finished.status).toBe('SUCCEEDED');
    const direct = (await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: { query: WOMEN_40_65_T2DM_HBA1C } })).json();
    expect(finished.result!.person_count).toBe(direct.person_count);
    expect(finished.started_at).not.toBeNull();
    expect(finished.finished_at).not.toBeNull();

    const latest = await t.request({ method: 'GET', url: `/api/v1/queries/${query.id}/executions/latest/`, token: rita.token });
    expect(latest.json().id).toBe(started.json().id);
    const missing = await t.request({ method: 'GET', url: `/api/v1/queries/${query.id}/executions/00000000-0000-4000-8000-000000000000/`, token: rita.token });
    expect(missing.statusCode).toBe(404);
    const audit = await rowsOf(sql`select actor_email, outcome, details, message from audit_log where event_type = 'QUERY_EXECUTED' and resource_id = ${query.id}`);
    expect(audit).toHaveLength(1);
    // Named, with the id beside the name.
    expect(audit[0]!.message).toContain(`ran query "${query.name}" (${query.id}) (version 1)`);
    expect(audit[0]).toMatchObject({ actor_email: 'rita@example.org', outcome: 'SUCCESS', details: { execution_id: started.json().id, person_count_shown: finished.result!.person_count_display } });
  });

  it('marks runs interrupted by a restart as FAILED with a reason, and picks up queued ones', async () => {
    const query = (await create(rita.token, 'interrupted')).json();
    const row = await queryRepository.findById(t.services.db, query.id);
    await t.services.queryWorker.stop();
    try {
      const running = await queryExecutionRepository.insert(t.services.db, { queryId: query.id, queryVersion: 1, query: row!.query, requestedBy: rita.user.id, auditContext: {} });
      await t.services.db.execute(sql`update query_executions set status = 'RUNNING', started_at = now() where id = ${running.id}`);
      const queued = await queryExecutionRepository.insert(t.services.db, { queryId: query.id, queryVersion: 1, query: row!.query, requestedBy: rita.user.id, auditContext: {} });
      const worker = new QueryExecutionWorker({ db: t.services.db, warehouse: t.services.warehouse, config: t.config, singleOwner: true });
      await worker.start();
      const failed = await waitForExecution(query.id, running.id, rita.token);
      expect(failed).toMatchObject({ status: 'FAILED', error: INTERRUPTED_REASON });
      expect((await waitForExecution(query.id, queued.id, rita.token)).status).toBe('SUCCEEDED');
      await worker.stop();
    } finally {
      await t.services.queryWorker.start();
    }
  });
});
