import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryGroup, QueryResult } from '@hdp/contract';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Honest use with the tracker defence on: a researcher who is not attacking gets the answers they
 * got before it (the same cell-key perturbation, the same suppression), every shown count within ±2
 * of the truth, and the same answer for the same persons however they are asked. Two APIs hold the
 * same synthetic dataset (same seed: the same persons): `truth` hides and perturbs nothing;
 * `guarded` runs with the defaults.
 */
const SYNTHETIC = { kind: 'synthetic' as const, persons: 10_000, seed: 7 };

const women = { field: 'person.gender_concept_id', operator: '=', value: 8532 };
/** The examples of docs/data-explorer.md (the product spec's). */
const SPEC_EXAMPLES: QueryGroup[] = [
  { combinator: 'and', rules: [
    women,
    { field: 'person.age', operator: 'between', value: [40, 65] },
    { field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [201826] },
    { table: 'measurement', rules: [
      { field: 'measurement.measurement_concept_id', operator: '=', value: 3004410 },
      { field: 'measurement.value_as_number', operator: '>', value: 7 } ] } ] },
  { rules: [ { table: 'condition_occurrence', rules: [
    { field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [201820] },
    { field: 'condition_occurrence.age_at_event', operator: '<', value: 50 },
    { field: 'condition_occurrence.record_count', operator: '>=', value: 2 } ] } ] },
  { combinator: 'or', rules: [
    { rules: [
      { table: 'drug_exposure', rules: [
        { field: 'drug_exposure.drug_concept_id', operator: '=', value: 1503297 },
        { field: 'drug_exposure.drug_exposure_start_date', operator: 'between', value: ['2020-01-01', '2020-12-31'] } ] },
      { table: 'drug_exposure', not: true, rules: [
        { field: 'drug_exposure.drug_concept_id', operator: '=', value: 1502905 } ] } ] },
    { field: 'visit_occurrence.visit_concept_id', operator: '=', value: 9201 } ] },
  { rules: [ { table: 'death', rules: [] } ] },
];

interface Server {
  app: TestApp;
  token: string;
}

async function serverWith(env: Record<string, string>): Promise<Server> {
  const app = await startTestApp({ QUERY_TIMEOUT_MS: '20000', QUERY_RATE_PER_MINUTE: '1000', ...env });
  await loadWarehouse(app.services, SYNTHETIC, { actorEmail: 'test' });
  const { token } = await app.userWithRoles(['RESEARCHER'], 'rita@example.org');
  return { app, token };
}

async function run(server: Server, query: QueryGroup): Promise<QueryResult> {
  const response = await server.app.request({ method: 'POST', url: '/api/v1/queries/execute/', token: server.token, payload: { query } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as QueryResult;
}

const strip = ({ execution_time_ms: _t, ...rest }: QueryResult) => rest;

let truth: Server;
let guarded: Server;

beforeAll(async () => {
  truth = await serverWith({ SUPPRESSION_THRESHOLD: '1', PERTURBATION_MAX_CHANGE: '0' });
  guarded = await serverWith({});
}, 120_000);

afterAll(async () => {
  await Promise.all([truth, guarded].filter(Boolean).map((s) => s.app.close()));
});

describe('honest use with the tracker defence', () => {
  // Each test asks tens of questions through HTTP, every one checked against the ledger: on a
  // loaded two-core machine that takes longer than the default 30 s.
  it('the spec\'s examples answer exactly as without the defence, and again the same when repeated or rephrased', async () => {
    const withDefence = [];
    for (const example of SPEC_EXAMPLES) withDefence.push(await run(guarded, example));
    // The same API and data with the defence switched off: the answers it gave before the defence existed.
    guarded.app.config.trackerDefence = false;
    try {
      for (const [i, example] of SPEC_EXAMPLES.entries()) expect(strip(await run(guarded, example))).toEqual(strip(withDefence[i]!));
    } finally {
      guarded.app.config.trackerDefence = true;
    }
    for (const [i, example] of SPEC_EXAMPLES.entries()) {
      expect(withDefence[i]!.withheld).toBeUndefined();
      expect(withDefence[i]!.person_count).not.toBeNull();
      const forms: QueryGroup[] = [
        example,
        { combinator: 'or', rules: [example, example] },
        { not: true, rules: [{ not: true, rules: [example] }] },
        { rules: [example] },
      ];
      for (const form of forms) expect(strip(await run(guarded, form))).toEqual(strip(withDefence[i]!));
    }
  }, 120_000);

  it('a researcher refining a question step by step sees every count within ±2 of the truth, none withheld', async () => {
    // Narrowing by age, then sex, then a condition: each step moves the count by far more than 20 persons.
    const steps: QueryGroup[] = [];
    for (let age = 20; age <= 80; age += 10) {
      const aged = { field: 'person.age', operator: '>=', value: age };
      steps.push({ rules: [aged] }, { rules: [aged, women] }, { rules: [aged, women, { field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [201820] }] });
    }
    let shown = 0;
    for (const step of steps) {
      const exact = (await run(truth, step)).person_count!;
      const answer = await run(guarded, step);
      if (exact < 20) continue;
      expect(answer.withheld, JSON.stringify(step)).toBeUndefined();
      if (answer.person_count === null) continue;
      shown++;
      expect(Math.abs(answer.person_count - exact), JSON.stringify(step)).toBeLessThanOrEqual(2);
    }
    expect(shown).toBeGreaterThanOrEqual(15);
  }, 120_000);

  it('splits and complements are answered: a question that is exactly two earlier answers together, or one less the other, is released', async () => {
    // Every synthetic person has a recorded sex and a year of birth, so each split leaves nobody over.
    const men = { field: 'person.gender_concept_id', operator: '=', value: 8507 };
    const bornBy = (year: number) => ({ field: 'person.year_of_birth', operator: '<=', value: year });
    const splits: QueryGroup[][] = [
      // Everyone born by 1972; its women; its men (the first less the second).
      [{ rules: [bornBy(1972)] }, { rules: [bornBy(1972), women] }, { rules: [bornBy(1972), men] }],
      // Born by 1952, and born 1953 to 1972: together the first question above.
      [{ rules: [bornBy(1952)] }, { rules: [bornBy(1972), { not: true, rules: [bornBy(1952)] }] }],
      // Women born after 1952: no two answers above combine to within 20 persons of it.
      [{ rules: [women, { not: true, rules: [bornBy(1952)] }] }],
    ];
    for (const question of splits.flat()) {
      const exact = (await run(truth, question)).person_count!;
      const answer = await run(guarded, question);
      expect(exact).toBeGreaterThanOrEqual(20);
      expect(answer.withheld, JSON.stringify(question)).toBeUndefined();
      expect(Math.abs(answer.person_count! - exact), JSON.stringify(question)).toBeLessThanOrEqual(2);
    }
  }, 120_000);

  it('the home page\'s dataset summary is released through the same path: it matches the query with no criteria', async () => {
    const summary = await guarded.app.request({ method: 'GET', url: '/api/v1/data-explorer/dataset/', token: guarded.token });
    expect(summary.statusCode).toBe(200);
    const everyone = await run(guarded, { rules: [] });
    expect(summary.json().person_count).toBe(everyone.person_count);
    // Everybody but a handful of the oldest: within 20 persons of the summary's released answer, so withheld.
    const exactEveryone = (await run(truth, { rules: [] })).person_count!;
    let year = 1900;
    const bornAfter = (y: number): QueryGroup => ({ rules: [{ field: 'person.year_of_birth', operator: '>', value: y }] });
    while (exactEveryone - (await run(truth, bornAfter(year))).person_count! < 1) year++;
    expect(exactEveryone - (await run(truth, bornAfter(year))).person_count!).toBeLessThan(20);
    const almostEveryone = await run(guarded, bornAfter(year));
    expect(almostEveryone.person_count).toBeNull();
    expect(almostEveryone.withheld).toMatch(/fewer than 20/);
  }, 120_000);
});
