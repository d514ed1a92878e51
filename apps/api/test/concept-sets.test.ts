import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CohortDefinitionInput, ConceptSet, QueryResult, SavedConceptSet, SavedQuery } from '@hdp/contract';
import { CONCEPT as C } from '../src/warehouse/synthetic-vocabulary';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let adminToken: string;
let rita: { token: string; user: { id: string } };
let otto: { token: string; user: { id: string } };
const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
const auditOf = (id: string) =>
  rowsOf(sql`select event_type, outcome, message from audit_log where resource_type = 'concept_set' and resource_id = ${id} order by seq`);

beforeAll(async () => {
  t = await startTestApp({ QUERY_TIMEOUT_MS: '20000' });
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
  rita = await t.userWithRoles(['RESEARCHER'], 'rita@example.org');
  otto = await t.userWithRoles(['RESEARCHER'], 'otto@example.org');
  await loadWarehouse(t.services, { kind: 'synthetic', persons: 3000, seed: 5 }, { actorEmail: 'test' });
});
afterAll(() => t.close());

const DIABETES = [
  { conceptId: C.diabetes, includeDescendants: true },
  { conceptId: C.type1Diabetes, isExcluded: true },
];
const createSet = (token: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/v1/concept-sets/', token, payload });

/** New users of lisinopril with a year of prior observation and no chronic kidney disease before; the drug's concept set as given. */
const newUsers = (drugSet: Record<string, unknown>): CohortDefinitionInput => ({
  conceptSets: [
    { id: 0, name: 'Lisinopril', expression: { items: [] }, ...drugSet } as ConceptSet,
    { id: 1, name: 'Chronic kidney disease', expression: { items: [{ conceptId: C.ckd, includeDescendants: true }] } },
  ],
  primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 0, first: true }], observationWindow: { priorDays: 365, postDays: 0 }, primaryCriteriaLimit: { type: 'First' } },
  inclusionRules: [
    {
      name: 'No prior chronic kidney disease',
      expression: { type: 'ALL', criteriaList: [{ criteria: { kind: 'ConditionOccurrence', codesetId: 1 }, startWindow: { start: { coeff: -1 }, end: { days: 1, coeff: -1 } }, occurrence: { type: 'EXACTLY', count: 0 } }] },
    },
  ],
});
const query = (definition: CohortDefinitionInput) => ({ combinator: 'and', rules: [], cohortDefinition: definition });

describe('saved concept sets', () => {
  let set: SavedConceptSet;

  it('saves a set as version 1 with its resolved concept count, audited', async () => {
    const response = await createSet(rita.token, { name: ' Diabetes but type 1 ', description: 'all diabetes, less type 1', items: DIABETES });
    expect(response.statusCode, response.body).toBe(201);
    set = response.json();
    expect(set).toMatchObject({ name: 'Diabetes but type 1', version: 1, latest_version: 1, used_by_queries: 0, created_by: rita.user.id });
    // Diabetes mellitus and its two children, less type 1.
    expect(set.resolved_concept_count).toBe(2);
    expect(set.items).toEqual([
      { conceptId: C.diabetes, includeDescendants: true, isExcluded: false, includeMapped: false },
      { conceptId: C.type1Diabetes, includeDescendants: false, isExcluded: true, includeMapped: false },
    ]);
    expect(set.versions.map((v) => v.version)).toEqual([1]);
    expect(await auditOf(set.id)).toEqual([{ event_type: 'CONCEPT_SET_CREATED', outcome: 'SUCCESS', message: 'rita@example.org saved concept set "Diabetes but type 1" (2 items)' }]);
  });

  it('refuses bad input with a 400 that names the field, and saves nothing', async () => {
    const before = await rowsOf(sql`select count(*)::int as n from concept_sets`);
    for (const payload of [
      { name: '', items: [] },
      { name: 'x', items: [{ conceptId: -1 }] },
      { name: 'x', items: [{ conceptId: 'aspirin' }] },
      { name: 'x', items: Array.from({ length: 1001 }, (_v, i) => ({ conceptId: i })) },
      { name: 'x' },
    ]) {
      const response = await createSet(rita.token, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json().detail).toMatch(/name|items/);
    }
    const empty = await t.request({ method: 'PATCH', url: `/api/v1/concept-sets/${set.id}/`, token: rita.token, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(await rowsOf(sql`select count(*)::int as n from concept_sets`)).toEqual(before);
  });

  it('is 404 to everyone but its owner and an ADMIN, and lists only for them', async () => {
    for (const [method, payload] of [['GET'], ['PATCH', { name: 'mine now' }], ['DELETE']] as const) {
      const response = await t.request({ method, url: `/api/v1/concept-sets/${set.id}/`, token: otto.token, ...(payload && { payload }) });
      expect(response.statusCode).toBe(404);
      expect(response.json().detail).toBe('Concept set does not exist.');
    }
    const unknown = await t.request({ method: 'GET', url: '/api/v1/concept-sets/00000000-0000-4000-8000-000000000000/', token: rita.token });
    expect(unknown.statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/v1/concept-sets/', token: otto.token })).json()).toMatchObject({ concept_sets: [], total: 0 });
    const ritas = (await t.request({ method: 'GET', url: '/api/v1/concept-sets/?search=diabetes', token: rita.token })).json();
    expect(ritas.concept_sets.map((s: SavedConceptSet) => s.id)).toEqual([set.id]);
    expect((await t.request({ method: 'GET', url: `/api/v1/concept-sets/${set.id}/`, token: adminToken })).statusCode).toBe(200);
    // An AUDITOR holds no data role: the matrix refuses the route itself.
    const auditor = await t.userWithRoles(['AUDITOR']);
    expect((await t.request({ method: 'GET', url: '/api/v1/concept-sets/', token: auditor.token })).statusCode).toBe(403);
  });

  it('an update makes a new version and keeps the old one readable', async () => {
    const response = await t.request({ method: 'PATCH', url: `/api/v1/concept-sets/${set.id}/`, token: rita.token, payload: { items: [{ conceptId: C.diabetes, includeDescendants: true }] } });
    expect(response.statusCode).toBe(200);
    const updated = response.json() as SavedConceptSet;
    expect(updated).toMatchObject({ name: 'Diabetes but type 1', description: 'all diabetes, less type 1', version: 2, latest_version: 2, resolved_concept_count: 3 });
    expect(updated.versions.map((v) => [v.version, v.item_count])).toEqual([[2, 1], [1, 2]]);
    const first = (await t.request({ method: 'GET', url: `/api/v1/concept-sets/${set.id}/?version=1`, token: rita.token })).json() as SavedConceptSet;
    expect(first).toMatchObject({ version: 1, latest_version: 2, resolved_concept_count: 2 });
    const missing = await t.request({ method: 'GET', url: `/api/v1/concept-sets/${set.id}/?version=9`, token: rita.token });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toMatch(/no version 9; its newest is version 2/);
    expect((await auditOf(set.id)).map((e) => e.message)).toContain('rita@example.org changed concept set "Diabetes but type 1": version 2');
  });
});

describe('a definition that pins a saved concept set', () => {
  let drug: SavedConceptSet;
  let saved: SavedQuery;
  const inline = newUsers({ expression: { items: [{ conceptId: C.lisinopril }] } });

  beforeAll(async () => {
    drug = (await createSet(rita.token, { name: 'Lisinopril', items: [{ conceptId: C.lisinopril }] })).json();
  });

  it('runs with the pinned version\'s items, the same answer as the items written inline', async () => {
    const run = (definition: CohortDefinitionInput) => t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: { query: query(definition) } });
    const byValue = (await run(inline)).json() as QueryResult;
    const byPin = await run(newUsers({ savedConceptSet: { id: drug.id, version: 1 } }));
    expect(byPin.statusCode).toBe(200);
    const pinned = byPin.json() as QueryResult;
    expect(byValue.person_count).toBeGreaterThan(0);
    expect(pinned.person_count).toBe(byValue.person_count);
    expect(pinned.attrition!.steps.map((s) => s.persons.display)).toEqual(byValue.attrition!.steps.map((s) => s.persons.display));
  });

  it('a saved query keeps the pinned items, and says when a newer version exists', async () => {
    const response = await t.request({ method: 'POST', url: '/api/v1/queries/', token: rita.token, payload: { name: 'New lisinopril users', query: query(newUsers({ savedConceptSet: { id: drug.id, version: 1 } })) } });
    expect(response.statusCode).toBe(201);
    saved = response.json();
    expect(saved.query.cohortDefinition!.conceptSets![0]).toMatchObject({ savedConceptSet: { id: drug.id, version: 1 }, expression: { items: [{ conceptId: C.lisinopril }] } });
    expect(saved.concept_set_updates).toBeUndefined();

    await t.request({ method: 'PATCH', url: `/api/v1/concept-sets/${drug.id}/`, token: rita.token, payload: { name: 'Lisinopril (any)', items: [{ conceptId: C.lisinopril, includeDescendants: true }] } });
    const listed = (await t.request({ method: 'GET', url: '/api/v1/queries/', token: rita.token })).json().queries as SavedQuery[];
    const mine = listed.find((q) => q.id === saved.id)!;
    expect(mine.concept_set_updates).toEqual([{ concept_set_id: drug.id, name: 'Lisinopril (any)', pinned_version: 1, latest_version: 2 }]);
    // The stored definition still holds version 1's items: the query means what it meant.
    expect(mine.query.cohortDefinition!.conceptSets![0]!.expression.items).toEqual([{ conceptId: C.lisinopril, includeDescendants: false, isExcluded: false, includeMapped: false }]);

    // Moving the pin to the newest version clears the notice.
    const moved = await t.request({ method: 'PATCH', url: `/api/v1/queries/${saved.id}/`, token: rita.token, payload: { query: query(newUsers({ savedConceptSet: { id: drug.id, version: 2 } })) } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().concept_set_updates).toBeUndefined();
    expect(moved.json().query.cohortDefinition.conceptSets[0].expression.items[0]).toMatchObject({ conceptId: C.lisinopril, includeDescendants: true });
    expect((await t.request({ method: 'GET', url: `/api/v1/concept-sets/${drug.id}/`, token: rita.token })).json().used_by_queries).toBe(1);
  });

  it('a set opened for change keeps where it came from in the saved query, runs its own items, and leaves it out of an ATLAS export', async () => {
    const changed = { changedFrom: { id: drug.id, version: 1, name: 'Lisinopril' }, expression: { items: [{ conceptId: C.lisinopril, includeDescendants: true }] } };
    const response = await t.request({ method: 'POST', url: '/api/v1/queries/', token: rita.token, payload: { name: 'Changed lisinopril set', query: query(newUsers(changed)) } });
    expect(response.statusCode).toBe(201);
    const id = response.json().id;
    const listed = (await t.request({ method: 'GET', url: '/api/v1/queries/', token: rita.token })).json().queries as SavedQuery[];
    const reread = listed.find((q) => q.id === id)!;
    expect(reread.query.cohortDefinition!.conceptSets![0]).toMatchObject({ changedFrom: { id: drug.id, version: 1, name: 'Lisinopril' }, expression: { items: [{ conceptId: C.lisinopril, includeDescendants: true }] } });
    expect(reread.query.cohortDefinition!.conceptSets![0]).not.toHaveProperty('savedConceptSet');
    const exported = await t.request({ method: 'GET', url: `/api/v1/queries/${id}/export/atlas/`, token: rita.token });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain('changedFrom');
    expect(exported.body).not.toContain(drug.id);
    const bad = await t.request({ method: 'POST', url: '/api/v1/queries/', token: rita.token, payload: { name: 'Bad origin', query: query(newUsers({ ...changed, changedFrom: { id: 'not-a-uuid', version: 0, name: '' } })) } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/changedFrom/);
    await t.request({ method: 'DELETE', url: `/api/v1/queries/${id}/`, token: rita.token });
  });

  it("someone else's set, an unknown one or a version it does not have is a 400, and nothing is saved", async () => {
    const attempts = [
      { token: otto.token, pin: { id: drug.id, version: 1 } },
      { token: rita.token, pin: { id: drug.id, version: 7 } },
      { token: rita.token, pin: { id: '00000000-0000-4000-8000-000000000000', version: 1 } },
    ];
    for (const { token, pin } of attempts) {
      const before = await rowsOf(sql`select count(*)::int as n from queries`);
      const save = await t.request({ method: 'POST', url: '/api/v1/queries/', token, payload: { name: 'borrowed', query: query(newUsers({ savedConceptSet: pin })) } });
      expect(save.statusCode).toBe(400);
      expect(save.json().detail).toBe(`query.cohortDefinition.conceptSets[0].savedConceptSet: you have no saved concept set ${pin.id} with a version ${pin.version}.`);
      expect(await rowsOf(sql`select count(*)::int as n from queries`)).toEqual(before);
      const run = await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token, payload: { query: query(newUsers({ savedConceptSet: pin })) } });
      expect(run.statusCode).toBe(400);
    }
    const malformed = await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: { query: query(newUsers({ savedConceptSet: { id: 'lisinopril', version: 0 } })) } });
    expect(malformed.statusCode).toBe(400);
  });

  it('a set in use cannot be deleted; once its queries are gone it can', async () => {
    const refused = await t.request({ method: 'DELETE', url: `/api/v1/concept-sets/${drug.id}/`, token: rita.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Concept set "Lisinopril (any)" is used by 1 saved query; remove it from that query (or delete it) first.');
    expect((await t.request({ method: 'DELETE', url: `/api/v1/queries/${saved.id}/`, token: rita.token })).statusCode).toBe(204);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/concept-sets/${drug.id}/`, token: rita.token })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/api/v1/concept-sets/${drug.id}/`, token: rita.token })).statusCode).toBe(404);
    expect((await auditOf(drug.id)).map((e) => e.event_type)).toEqual(['CONCEPT_SET_CREATED', 'CONCEPT_SET_UPDATED', 'CONCEPT_SET_DELETED']);
  });
});
