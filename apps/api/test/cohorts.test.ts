import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CohortDetail, CohortList, QueryExecution } from '@hdp/contract';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
type Account = { token: string; user: { id: string; email: string } };
let rita: Account; // researcher, the author
let otto: Account; // another researcher
let stella: Account; // data steward
let audrey: Account; // auditor
let adminToken: string;

const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };
const WOMEN_OVER_50 = { combinator: 'and', rules: [...WOMEN.rules, { field: 'person.age', operator: '>', value: 50 }] };
/** Very few persons: found below, a band of ages holding 1 to 19 of them. */
let FEW: unknown;
const NOBODY = { combinator: 'and', rules: [{ field: 'person.age', operator: '>', value: 200 }] };

async function runSavedQuery(account: Account, name: string, query: unknown): Promise<{ queryId: string; execution: QueryExecution }> {
  const saved = await t.request({ method: 'POST', url: '/api/v1/queries/', token: account.token, payload: { name, query } });
  expect(saved.statusCode).toBe(201);
  const queryId = saved.json().id as string;
  return { queryId, execution: await runAgain(account, queryId) };
}

async function runAgain(account: Account, queryId: string): Promise<QueryExecution> {
  const started = await t.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token: account.token });
  for (let i = 0; i < 400; i++) {
    const response = await t.request({ method: 'GET', url: `/api/v1/queries/${queryId}/executions/${started.json().id}/`, token: account.token });
    const execution = response.json() as QueryExecution;
    if (execution.status === 'SUCCEEDED' || execution.status === 'FAILED') return execution;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the execution did not finish');
}

const createCohort = (account: Account, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/v1/cohorts/', token: account.token, payload });
const getCohort = (account: Account, id: string) => t.request({ method: 'GET', url: `/api/v1/cohorts/${id}/`, token: account.token });
const patchCohort = (account: Account, id: string, payload: Record<string, unknown>) =>
  t.request({ method: 'PATCH', url: `/api/v1/cohorts/${id}/`, token: account.token, payload });
const refreshCohort = (account: Account, id: string) => t.request({ method: 'POST', url: `/api/v1/cohorts/${id}/refresh/`, token: account.token });
const listCohorts = async (account: Account, query = '') => {
  const response = await t.request({ method: 'GET', url: `/api/v1/cohorts/${query}`, token: account.token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as CohortList;
};
const snapshotSize = async (cohortId: string, version: number) => {
  const [row] = await rowsOf(sql`select id from cohort_versions where cohort_id = ${cohortId} and version = ${version}`);
  const [count] = await t.services.warehouse.query('SELECT COUNT(*) AS n FROM hdp_cohorts.cohort_person WHERE cohort_version_id = $1', [row!.id]);
  return Number(count!.n);
};
/** A cohort shows its perturbed size (PERTURBATION_MAX_CHANGE, 2 by default): at most 2 away from the persons kept. */
const expectShownSize = (kept: number, shown: number | null) => expect(Math.abs(kept - shown!)).toBeLessThanOrEqual(2);
const auditOf = (cohortId: string) =>
  rowsOf(sql`select event_type, outcome, actor_email, message from audit_log where resource_type = 'cohort' and resource_id = ${cohortId} order by seq`);

beforeAll(async () => {
  t = await startTestApp({ QUERY_TIMEOUT_MS: '20000' });
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
  rita = await t.userWithRoles(['RESEARCHER'], 'rita@example.org');
  otto = await t.userWithRoles(['RESEARCHER'], 'otto@example.org');
  stella = await t.userWithRoles(['DATA_STEWARD'], 'stella@example.org');
  audrey = await t.userWithRoles(['AUDITOR'], 'audrey@example.org');
  await loadWarehouse(t.services, { kind: 'synthetic', persons: 3000, seed: 5 }, { actorEmail: 'test' });
  // The oldest persons of the dataset: a band small enough to stay under the threshold of 20.
  const [oldest] = await t.services.warehouse.query(
    `SELECT MIN(year_of_birth) AS y FROM "${t.services.warehouse.state!.schema}".person`,
  );
  const age = new Date().getFullYear() - Number(oldest!.y);
  FEW = { combinator: 'and', rules: [{ field: 'person.age', operator: '>=', value: age - 1 }] };
});
afterAll(() => t.close());

describe('making a cohort from a run', () => {
  it('keeps the persons of a successful run as version 1 of a DRAFT cohort, audited, with no person ids in the answer', async () => {
    const { queryId, execution } = await runSavedQuery(rita, 'Women', WOMEN);
    expect(execution.status).toBe('SUCCEEDED');
    const response = await createCohort(rita, {
      name: 'Women of the sample',
      description: 'Every woman',
      tags: ['Women', ' women ', 'Sample'],
      executionId: execution.id,
    });
    expect(response.statusCode, response.body).toBe(201);
    const cohort = response.json() as CohortDetail;
    expect(cohort).toMatchObject({
      name: 'Women of the sample',
      description: 'Every woman',
      tags: ['women', 'sample'],
      status: 'DRAFT',
      version: 1,
      person_count: execution.result!.person_count,
      source_query: { id: queryId, name: 'Women', version: 1, created_by: rita.user.id },
      author: { id: rita.user.id, email: 'rita@example.org' },
      published_at: null,
      published_by: null,
      published_version: null,
    });
    expect(cohort.person_count).toBeGreaterThan(1000);
    // The version keeps the criteria it was computed from, in plain language too.
    expect(cohort.versions[0]!.definition).toEqual({
      query: WOMEN,
      summary: [
        { depth: 0, text: 'All of these:' },
        { depth: 1, text: 'Sex is Female' },
      ],
    });
    expect(cohort.versions).toEqual([
      expect.objectContaining({ version: 1, origin: 'EXECUTION', query_version: 1, execution_id: execution.id, person_count: cohort.person_count, created_by: { id: rita.user.id, email: 'rita@example.org' } }),
    ]);
    // The charts are those of the kept persons, the same as the run's.
    expect(cohort.result.breakdowns).toEqual(execution.result!.breakdowns);
    expect(response.body).not.toMatch(/person_id/);
    expectShownSize(await snapshotSize(cohort.id, 1), cohort.person_count);
    expect(await auditOf(cohort.id)).toEqual([
      expect.objectContaining({ event_type: 'COHORT_CREATED', outcome: 'SUCCESS', actor_email: 'rita@example.org' }),
    ]);
  });

  it('refuses bad input with a detail that names the field, and writes nothing', async () => {
    const { execution } = await runSavedQuery(rita, 'Women again', WOMEN);
    const before = (await rowsOf(sql`select count(*)::int as n from cohorts`))[0]!.n;
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ name: '', executionId: execution.id }, 400, /^body\.name/],
      [{ name: 'x', executionId: 'not-an-id' }, 400, /^body\.executionId/],
      [{ name: 'x', executionId: execution.id, tags: ['x'.repeat(41)] }, 400, /^body\.tags/],
      [{ name: 'x', executionId: crypto.randomUUID() }, 404, /^executionId: no execution/],
    ];
    for (const [payload, status, detail] of cases) {
      const response = await createCohort(rita, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().detail).toMatch(detail);
    }
    // Somebody else's run is not found either.
    const others = await createCohort(otto, { name: 'x', executionId: execution.id });
    expect(others.statusCode).toBe(404);
    // A run that selects nobody makes no cohort.
    const nobody = await runSavedQuery(rita, 'Nobody', NOBODY);
    const empty = await createCohort(rita, { name: 'Nobody', executionId: nobody.execution.id });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().detail).toMatch(/no persons/);
    expect((await rowsOf(sql`select count(*)::int as n from cohorts`))[0]!.n).toBe(before);
    // No persons were left behind in the warehouse by the refused attempts.
    const kept = await t.services.warehouse.query('SELECT DISTINCT cohort_version_id AS id FROM hdp_cohorts.cohort_person');
    const recorded = await rowsOf(sql`select id from cohort_versions`);
    expect(kept.map((r) => String(r.id)).sort()).toEqual(recorded.map((r) => String(r.id)).sort());
  });

  it('refuses a run that has not succeeded', async () => {
    const saved = await t.request({ method: 'POST', url: '/api/v1/queries/', token: rita.token, payload: { name: 'pending', query: WOMEN } });
    const [pending] = await rowsOf(
      sql`insert into query_executions (query_id, query_version, query, status, requested_by) values (${saved.json().id}, 1, ${JSON.stringify(WOMEN)}::jsonb, 'FAILED', ${rita.user.id}) returning id`,
    );
    const response = await createCohort(rita, { name: 'x', executionId: pending!.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toMatch(/this run is failed/);
  });
});

describe('who sees and changes a cohort', () => {
  let cohortId: string;
  beforeAll(async () => {
    const { execution } = await runSavedQuery(rita, 'Women over 50', WOMEN_OVER_50);
    cohortId = (await createCohort(rita, { name: 'Older women', tags: ['ageing'], executionId: execution.id })).json().id;
  });

  it('a draft is seen by its author and the stewards only; other researchers are told it does not exist, and that is audited', async () => {
    expect((await getCohort(rita, cohortId)).statusCode).toBe(200);
    expect((await getCohort(stella, cohortId)).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/v1/cohorts/${cohortId}/`, token: adminToken })).statusCode).toBe(200);
    const hidden = await getCohort(otto, cohortId);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().detail).toBe('Cohort does not exist.');
    expect((await listCohorts(otto)).cohorts.map((c) => c.id)).not.toContain(cohortId);
    expect((await listCohorts(stella)).cohorts.map((c) => c.id)).toContain(cohortId);
    expect((await patchCohort(otto, cohortId, { name: 'mine now' })).statusCode).toBe(404);
    expect((await refreshCohort(otto, cohortId)).statusCode).toBe(404);
    expect(await auditOf(cohortId)).toContainEqual(expect.objectContaining({ event_type: 'ACCESS_DENIED', outcome: 'DENIED', actor_email: 'otto@example.org' }));
    // An auditor has no cohort routes at all (the matrix).
    expect((await t.request({ method: 'GET', url: '/api/v1/cohorts/', token: audrey.token })).statusCode).toBe(403);
  });

  it('only a steward publishes; once published, everyone sees it and only stewards change it', async () => {
    const refused = await patchCohort(rita, cohortId, { status: 'PUBLISHED' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/Only a data steward or an administrator/);
    expect((await getCohort(rita, cohortId)).json().status).toBe('DRAFT');

    const published = await patchCohort(stella, cohortId, { status: 'PUBLISHED' });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toMatchObject({ status: 'PUBLISHED', published_by: { id: stella.user.id, email: 'stella@example.org' } });
    expect(published.json().published_at).not.toBeNull();
    expect((await getCohort(otto, cohortId)).statusCode).toBe(200);
    expect((await listCohorts(otto, '?status=PUBLISHED')).cohorts.map((c) => c.id)).toContain(cohortId);

    const edit = await patchCohort(rita, cohortId, { description: 'changed after publication' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().detail).toMatch(/published: only a data steward/);
    const stewardEdit = await patchCohort(stella, cohortId, { description: 'Women over 50, reviewed', tags: ['ageing', 'reviewed'] });
    expect(stewardEdit.json()).toMatchObject({ description: 'Women over 50, reviewed', tags: ['ageing', 'reviewed'], status: 'PUBLISHED' });
  });

  it('moves through unpublish, archive and restore, refusing transitions that do not exist', async () => {
    expect((await patchCohort(stella, cohortId, { status: 'DRAFT' })).json()).toMatchObject({ status: 'DRAFT', published_at: null, published_by: null });
    expect((await patchCohort(stella, cohortId, { status: 'ARCHIVED' })).json().status).toBe('ARCHIVED');
    const skip = await patchCohort(stella, cohortId, { status: 'PUBLISHED' });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().detail).toMatch(/ARCHIVED cannot become PUBLISHED; restore it to DRAFT first/);
    // An archived cohort is the author's still, but not offered to others.
    expect((await getCohort(otto, cohortId)).statusCode).toBe(404);
    expect((await refreshCohort(stella, cohortId)).statusCode).toBe(409);
    expect((await patchCohort(stella, cohortId, { status: 'DRAFT' })).json().status).toBe('DRAFT');
    expect((await patchCohort(stella, cohortId, { status: 'PUBLISHED' })).json().status).toBe('PUBLISHED');
    const events = (await auditOf(cohortId)).filter((e) => e.event_type !== 'ACCESS_DENIED').map((e) => `${e.event_type}:${e.outcome}`);
    expect(events).toEqual([
      'COHORT_CREATED:SUCCESS',
      'COHORT_PUBLISHED:SUCCESS',
      'COHORT_UPDATED:SUCCESS',
      'COHORT_UNPUBLISHED:SUCCESS',
      'COHORT_ARCHIVED:SUCCESS',
      'COHORT_RESTORED:SUCCESS',
      'COHORT_PUBLISHED:SUCCESS',
    ]);
  });

  it('refuses an empty update and an unknown status', async () => {
    const empty = await patchCohort(stella, cohortId, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toMatch(/at least one of name, description, tags, status or published_version/);
    const unknown = await patchCohort(stella, cohortId, { status: 'DELETED' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toMatch(/^body\.status/);
  });
});

describe('the suppression threshold', () => {
  it('a cohort below it shows no count and cannot be published (409 with the reason, audited, nothing changed)', async () => {
    const { execution } = await runSavedQuery(rita, 'The oldest', FEW);
    expect(execution.result!.person_count).toBeNull();
    const created = await createCohort(rita, { name: 'The oldest', executionId: execution.id });
    expect(created.statusCode, created.body).toBe(201);
    const cohort = created.json() as CohortDetail;
    expect(cohort).toMatchObject({ person_count: null, person_count_display: '< 20' });
    expect(await snapshotSize(cohort.id, 1)).toBeGreaterThan(0);

    const refused = await patchCohort(stella, cohort.id, { status: 'PUBLISHED', name: 'Renamed' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/fewer persons than the suppression threshold \(20\)/);
    expect((await getCohort(stella, cohort.id)).json()).toMatchObject({ status: 'DRAFT', name: 'The oldest' });
    expect(await auditOf(cohort.id)).toContainEqual(expect.objectContaining({ event_type: 'COHORT_PUBLISHED', outcome: 'FAILURE', actor_email: 'stella@example.org' }));
  });
});

describe('versions', () => {
  it('running the query again never changes a cohort; a refresh takes a new version and keeps the history', async () => {
    const { queryId, execution } = await runSavedQuery(rita, 'Women, to refresh', WOMEN);
    const cohort = (await createCohort(rita, { name: 'Refreshable', executionId: execution.id })).json() as CohortDetail;
    // Narrow the query and run it: the cohort stays as it was.
    await t.request({ method: 'PATCH', url: `/api/v1/queries/${queryId}/`, token: rita.token, payload: { query: WOMEN_OVER_50 } });
    const narrower = await runAgain(rita, queryId);
    expect(narrower.result!.person_count).toBeLessThan(cohort.person_count!);
    expect((await getCohort(rita, cohort.id)).json()).toMatchObject({ version: 1, person_count: cohort.person_count });

    const refreshed = await refreshCohort(rita, cohort.id);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const detail = refreshed.json() as CohortDetail;
    expect(detail).toMatchObject({ version: 2, person_count: narrower.result!.person_count, source_query: { version: 2 } });
    expect(detail.versions.map((v) => [v.version, v.origin, v.query_version, v.person_count, v.created_by.email])).toEqual([
      [2, 'REFRESH', 2, narrower.result!.person_count, 'rita@example.org'],
      [1, 'EXECUTION', 1, cohort.person_count, 'rita@example.org'],
    ]);
    expect(detail.result.person_count).toBe(narrower.result!.person_count);
    expectShownSize(await snapshotSize(cohort.id, 1), cohort.person_count);
    expectShownSize(await snapshotSize(cohort.id, 2), narrower.result!.person_count);
    expect((await auditOf(cohort.id)).map((e) => e.event_type)).toEqual(['COHORT_CREATED', 'COHORT_REFRESHED']);
    // Nothing published yet: the re-run is simply the draft's newest version.
    expect(detail.published_version).toBeNull();

    // Published, it is the stewards' to re-run.
    expect((await patchCohort(stella, cohort.id, { status: 'PUBLISHED', published_version: 2 })).json()).toMatchObject({ published_version: 2, version: 2 });
    expect((await refreshCohort(rita, cohort.id)).statusCode).toBe(403);
    const bySteward = await refreshCohort(stella, cohort.id);
    // The new version does not inherit the publication: it awaits a steward's review.
    expect(bySteward.json()).toMatchObject({ status: 'PUBLISHED', version: 3, published_version: 2 });
    expect(bySteward.json().versions[0]).toMatchObject({ version: 3, created_by: { email: 'stella@example.org' } });
    expect(bySteward.json().versions[0].definition.summary).toEqual([
      { depth: 0, text: 'All of these:' },
      { depth: 1, text: 'Sex is Female' },
      { depth: 1, text: 'Age (years) is above 50' },
    ]);
    // Researchers keep the published version: its count, its demographics, its history, and the
    // criteria of the published version only (the one they may release), never of others.
    const asOtto = (await getCohort(otto, cohort.id)).json() as CohortDetail;
    expect(asOtto).toMatchObject({ version: 2, published_version: 2, person_count: narrower.result!.person_count });
    expect(asOtto.versions.map((v) => [v.version, v.definition?.query ?? null])).toEqual([[2, WOMEN_OVER_50], [1, null]]);
    expect((await listCohorts(otto, '?search=Refreshable')).cohorts[0]).toMatchObject({ version: 2, published_version: 2 });
    // The author (and stewards) see the newest version, and beside it the published version's count,
    // which is what "Published" means and what a workbench releases.
    const asRita = (await getCohort(rita, cohort.id)).json() as CohortDetail;
    expect(asRita).toMatchObject({
      version: 3, published_version: 2,
      published_person_count: narrower.result!.person_count, published_person_count_display: String(narrower.result!.person_count),
      published_on_current_data: true,
    });
    expect((await listCohorts(stella, '?search=Refreshable')).cohorts[0]).toMatchObject({ version: 3, published_person_count: narrower.result!.person_count });
    // The steward's review queue holds it; another researcher learns nothing of a version awaiting review.
    expect((await listCohorts(stella, '?status=AWAITING_REVIEW')).cohorts.map((c) => c.id)).toContain(cohort.id);
    expect((await listCohorts(rita, '?status=AWAITING_REVIEW')).cohorts.map((c) => c.id)).toContain(cohort.id);
    expect((await listCohorts(otto, '?status=AWAITING_REVIEW')).cohorts).toEqual([]);
    // Publishing names the version reviewed: an older one is stale, a missing one does not exist.
    const stale = await patchCohort(stella, cohort.id, { published_version: 2 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toBe("Version 2 is no longer this cohort's newest: version 3 was made since. Review version 3 and publish it instead.");
    expect((await patchCohort(stella, cohort.id, { published_version: 4 })).statusCode).toBe(409);
    expect((await patchCohort(rita, cohort.id, { published_version: 3 })).statusCode).toBe(403);
    const approved = await patchCohort(stella, cohort.id, { published_version: 3 });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'PUBLISHED', version: 3, published_version: 3 });
    expect((await getCohort(otto, cohort.id)).json()).toMatchObject({ version: 3, published_version: 3 });
    expect((await patchCohort(stella, cohort.id, { published_version: 3 })).json().detail).toBe('Version 3 is already the published version.');
    // A rename is audited with the name it had.
    await patchCohort(stella, cohort.id, { name: 'Refreshable, renamed' });
    const audit = await auditOf(cohort.id);
    expect(audit.map((e) => `${e.event_type}:${e.outcome}`)).toEqual([
      'COHORT_CREATED:SUCCESS', 'COHORT_REFRESHED:SUCCESS', 'COHORT_PUBLISHED:SUCCESS', 'COHORT_REFRESHED:SUCCESS',
      'COHORT_PUBLISHED:SUCCESS', 'COHORT_UPDATED:SUCCESS',
    ]);
    expect(audit.at(-2)!.message).toBe('stella@example.org published version 3 of cohort "Refreshable" in place of version 2');
    expect(audit.at(-1)!.message).toBe('stella@example.org updated cohort "Refreshable, renamed" (name), renamed from "Refreshable"');

    // With its query deleted, the cohort stays but cannot be refreshed.
    await t.request({ method: 'DELETE', url: `/api/v1/queries/${queryId}/`, token: rita.token });
    const orphan = (await getCohort(rita, cohort.id)).json() as CohortDetail;
    expect(orphan).toMatchObject({ source_query: null, version: 3, status: 'PUBLISHED' });
    // Its versions keep their criteria.
    expect(orphan.versions.map((v) => v.definition?.query)).toEqual([WOMEN_OVER_50, WOMEN_OVER_50, WOMEN]);
    expect(orphan.versions[2]!.execution_id).toBeNull();
    const refused = await refreshCohort(stella, cohort.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/has been deleted/);
  });
});

describe('the list', () => {
  it('searches, filters by status and tags, sorts, pages, and gives the tags in use', async () => {
    const made: string[] = [];
    for (const [name, tags] of [
      ['Zeta cohort', ['list-test', 'zeta']],
      ['Alpha cohort', ['list-test', 'alpha']],
      ['Mu cohort', ['list-test']],
    ] as const) {
      const { execution } = await runSavedQuery(otto, name, WOMEN);
      made.push((await createCohort(otto, { name, tags, executionId: execution.id, description: `the ${name.split(' ')[0]} one` })).json().id);
    }
    await patchCohort(stella, made[0]!, { status: 'PUBLISHED' });

    const byName = await listCohorts(otto, '?tags=list-test&order_by=name');
    expect(byName.cohorts.map((c) => c.name)).toEqual(['Alpha cohort', 'Mu cohort', 'Zeta cohort']);
    expect(byName.total).toBe(3);
    expect(byName.total_tags).toEqual(expect.arrayContaining(['list-test', 'alpha', 'zeta', 'ageing', 'reviewed']));
    expect(byName.total_tags).not.toContain('sample'); // rita's draft's tags are not otto's to see
    expect((await listCohorts(otto, '?tags=list-test&tags=zeta')).cohorts.map((c) => c.name)).toEqual(['Zeta cohort']);
    expect((await listCohorts(otto, '?tags=list-test&order_by=-name&limit=2&skip=1')).cohorts.map((c) => c.name)).toEqual(['Mu cohort', 'Alpha cohort']);
    expect((await listCohorts(otto, '?search=ALPHA')).cohorts.map((c) => c.name)).toEqual(['Alpha cohort']);
    expect((await listCohorts(otto, '?search=the%20mu')).cohorts.map((c) => c.name)).toEqual(['Mu cohort']);
    expect((await listCohorts(otto, '?tags=list-test&status=PUBLISHED')).cohorts.map((c) => c.name)).toEqual(['Zeta cohort']);
    // Rita sees otto's published cohort, not his drafts.
    expect((await listCohorts(rita, '?tags=list-test')).cohorts.map((c) => c.name)).toEqual(['Zeta cohort']);
    const bad = await t.request({ method: 'GET', url: '/api/v1/cohorts/?order_by=size', token: otto.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^query\.order_by/);
  });
});

describe('after the data is reloaded', () => {
  it('a cohort is not made from a run on the old data', async () => {
    const { execution } = await runSavedQuery(rita, 'Before the reload', WOMEN);
    await loadWarehouse(t.services, { kind: 'synthetic', persons: 2000, seed: 6 }, { actorEmail: 'test' });
    const response = await createCohort(rita, { name: 'Stale', executionId: execution.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toMatch(/reloaded since this run/);
  });
});
