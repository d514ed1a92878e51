import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, type CohortDefinitionInput, type QueryResult } from '@hdp/contract';
import { CONCEPT as C } from '../src/warehouse/synthetic-vocabulary';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The cohort-definition editor's live counts: the definition as it stands is run through
 * `POST /api/v1/queries/execute/` after each edit (debounced). Each run is a query run like any
 * other: counted against the per-user limits, refused with 429 past them; a definition refused as
 * malformed takes no run. The answer carries every attrition row, in order.
 */
const ALL_BEFORE = { start: { coeff: -1 as const }, end: { days: 1, coeff: -1 as const } };
const EDITED: CohortDefinitionInput = {
  conceptSets: [
    { id: 0, name: 'Lisinopril', expression: { items: [{ conceptId: C.lisinopril, includeDescendants: true }] } },
    { id: 1, name: 'Chronic kidney disease', expression: { items: [{ conceptId: C.ckd, includeDescendants: true }] } },
    { id: 2, name: 'Essential hypertension', expression: { items: [{ conceptId: C.essentialHypertension }] } },
  ],
  primaryCriteria: { criteriaList: [{ kind: 'DrugExposure', codesetId: 0, first: true }], observationWindow: { priorDays: 365, postDays: 0 }, primaryCriteriaLimit: { type: 'First' } },
  inclusionRules: [
    { name: 'No prior chronic kidney disease', expression: { type: 'ALL', criteriaList: [{ criteria: { kind: 'ConditionOccurrence', codesetId: 1 }, startWindow: ALL_BEFORE, occurrence: { type: 'EXACTLY', count: 0 } }] } },
    { name: 'Hypertension before', expression: { type: 'ALL', criteriaList: [{ criteria: { kind: 'ConditionOccurrence', codesetId: 2 }, startWindow: ALL_BEFORE, occurrence: { type: 'AT_LEAST', count: 1 } }] } },
  ],
  censorWindow: { startDate: '2000-01-01', endDate: '2030-12-31' },
};
const withPriorDays = (days: number): CohortDefinitionInput => ({ ...EDITED, primaryCriteria: { ...EDITED.primaryCriteria, observationWindow: { priorDays: days, postDays: 0 } } });
const live = (t: TestApp, token: string, definition: unknown) =>
  t.request({ method: 'POST', url: '/api/v1/queries/execute/', token, payload: { query: { combinator: 'and', rules: [], cohortDefinition: definition as object } } });

describe('live counts under the default limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ QUERY_TIMEOUT_MS: '20000' });
    await loadWarehouse(t.services, { kind: 'synthetic', persons: 3000, seed: 5 }, { actorEmail: 'test' });
  }, 60_000);
  afterAll(() => t?.close());

  it('every answer carries the whole attrition in order: entry steps, each rule by name, exit, censor window', async () => {
    const { token } = await t.userWithRoles(['RESEARCHER']);
    const response = await live(t, token, EDITED);
    expect(response.statusCode).toBe(200);
    const { attrition } = response.json() as QueryResult;
    expect(attrition!.steps.map((s) => (s.rule === undefined ? s.step : `${s.step} ${s.rule}: ${s.label}`))).toEqual([
      'entry_events',
      'observation_window',
      'primary_limit',
      'qualified_limit',
      'inclusion_rule 0: No prior chronic kidney disease',
      'inclusion_rule 1: Hypertension before',
      'expression_limit',
      'cohort_exit',
      'censor_window',
    ]);
    expect(attrition!.inclusion_rules.map((r) => r.name)).toEqual(['No prior chronic kidney disease', 'Hypertension before']);
    for (const step of attrition!.steps) expect(step.persons.display).toMatch(/^(\d+|suppressed)$/);
  });

  it('a definition whose persons equal an earlier answer\'s gets the earlier counts but its own steps', async () => {
    const { token } = await t.userWithRoles(['RESEARCHER']);
    const first = (await live(t, token, EDITED)).json() as QueryResult;
    // A third rule every entry passes (at least 0 occurrences): the same persons, one more step.
    const withRule: CohortDefinitionInput = {
      ...EDITED,
      inclusionRules: [
        ...EDITED.inclusionRules!,
        { name: 'Anything at all', expression: { type: 'ALL', criteriaList: [{ criteria: { kind: 'ConditionOccurrence', codesetId: 2 }, startWindow: ALL_BEFORE, occurrence: { type: 'AT_LEAST', count: 0 } }] } },
      ],
    };
    const second = await live(t, token, withRule);
    expect(second.statusCode, second.body).toBe(200);
    const answer = second.json() as QueryResult;
    expect(answer.person_count_display).toBe(first.person_count_display);
    expect(answer.attrition!.inclusion_rules.map((r) => r.name)).toEqual(['No prior chronic kidney disease', 'Hypertension before', 'Anything at all']);
    expect(answer.attrition!.steps.filter((s) => s.step === 'inclusion_rule')).toHaveLength(3);
  });

  it(`a burst of editing (${LIMITS.defaultQueryRatePerMinute} runs in a minute, each after a change) is never refused`, async () => {
    const { token } = await t.userWithRoles(['RESEARCHER']);
    const started = Date.now();
    for (let i = 0; i < LIMITS.defaultQueryRatePerMinute; i++) {
      const response = await live(t, token, withPriorDays(300 + i));
      expect(response.statusCode, response.body).toBe(200);
    }
    // One more in the same minute is refused: the limit still holds. The window slides: on a machine
    // so loaded that the burst outlasted the minute, the first runs have left it and this one is not
    // part of the same minute.
    const nextAnswer = await live(t, token, withPriorDays(1));
    if (Date.now() - started < 55_000) expect(nextAnswer.statusCode).toBe(429);
  }, 120_000);
});

describe('live counts are query runs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ QUERY_TIMEOUT_MS: '20000', QUERY_RATE_PER_MINUTE: '3', QUERY_DAILY_BUDGET: '50' });
    await loadWarehouse(t.services, { kind: 'synthetic', persons: 500, seed: 3 }, { actorEmail: 'test' });
  }, 60_000);
  afterAll(() => t?.close());

  it('each counts against the limit, a malformed definition takes none, and the fourth in a minute is refused with 429, audited', async () => {
    const { token, user } = await t.userWithRoles(['RESEARCHER']);
    // Half-written definitions the editor may send: refused as 400, no run taken.
    for (const broken of [{ primaryCriteria: { criteriaList: [] } }, { ...EDITED, inclusionRules: [{ name: '', expression: { type: 'ALL' } }] }, { ...EDITED, primaryCriteria: { ...EDITED.primaryCriteria, criteriaList: [{ kind: 'DrugExposure', codesetId: 9 }] } }]) {
      const refused = await live(t, token, broken);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toMatch(/cohortDefinition/);
    }
    for (let i = 0; i < 3; i++) expect((await live(t, token, withPriorDays(i))).statusCode).toBe(200);
    const refused = await live(t, token, withPriorDays(9));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/^You have reached the limit of 3 query runs a minute; try again in \d+ seconds\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const rows = ((await t.services.db.execute(sql`select outcome from audit_log where event_type = 'QUERY_EXECUTED' and actor_id = ${user.id} order by seq`)) as unknown as { rows: { outcome: string }[] }).rows;
    expect(rows.map((r) => r.outcome)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'DENIED']);
  });
});
