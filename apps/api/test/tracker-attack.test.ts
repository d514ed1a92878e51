import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryGroup, QueryResult } from '@hdp/contract';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { startTestApp, type TestApp } from './support/test-app';
import { sampleDataset } from './support/warehouse-fixtures';

/**
 * The tracker (Denning, 1980) against the explorer, as an outside attacker runs it through HTTP on
 * the Eunomia sample with the production settings (threshold 20, perturbation ±2, a day's budget of
 * 500 runs per account).
 *
 * The attack: a small set S whose count is hidden ("< 20") is isolated many ways, each a pair
 * `A = S or X` and `B = X and not S`, with a different large set X each time (persons born from a
 * given year on, and other large covers). A and B differ by exactly the persons of S, so each pair's
 * difference is |S| plus the two answers' noise, and the noise of different sets is independent:
 * the mean of thirty differences is |S| to within a fraction. The attacker wins when the rounded
 * mean of their estimates is the true |S|.
 *
 * `truth` (threshold 1, no perturbation) gives the true counts the test checks against; `guarded`
 * runs with the defaults and is the one attacked.
 */
const EUNOMIA = sampleDataset('eunomia-gibleed-omop-5.3');
const DAILY_BUDGET = 500;
const condition = (id: number): QueryGroup => ({ rules: [{ field: 'condition_occurrence.condition_concept_id', operator: 'in', value: [id] }] });
const bornFrom = (year: number) => ({ field: 'person.year_of_birth', operator: '>=', value: year });

interface Server {
  app: TestApp;
  tokens: string[];
}

async function serverWith(env: Record<string, string>): Promise<Server> {
  const app = await startTestApp({ QUERY_TIMEOUT_MS: '20000', QUERY_RATE_PER_MINUTE: '1000', QUERY_DAILY_BUDGET: String(DAILY_BUDGET), ...env });
  await loadWarehouse(app.services, { kind: 'omop', directory: EUNOMIA }, { actorEmail: 'test' });
  const tokens = [];
  for (const email of ['mallory@example.org', 'trudy@example.org']) tokens.push((await app.userWithRoles(['RESEARCHER'], email)).token);
  return { app, tokens };
}

/** Runs a tree as one of the server's accounts; a refusal by the limits (429) ends the attacker's day. */
async function run(server: Server, query: QueryGroup, account = 0): Promise<QueryResult | 'budget spent'> {
  const response = await server.app.request({ method: 'POST', url: '/api/v1/queries/execute/', token: server.tokens[account], payload: { query } });
  if (response.statusCode === 429) return 'budget spent';
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as QueryResult;
}

async function trueCount(query: QueryGroup): Promise<number> {
  const result = await run(truth, query);
  if (result === 'budget spent') throw new Error('the truth server has no budget to spend');
  return result.person_count!;
}

/**
 * One tracker pair on `cover` X: A = S or X, B = X and not S; `accounts` says which account asks
 * which. Answers A − B when both counts are shown, undefined when either is withheld (or the
 * budget is spent).
 */
async function trackerPair(server: Server, small: QueryGroup, cover: QueryGroup, accounts: [number, number]): Promise<number | undefined> {
  const a = await run(server, { combinator: 'or', rules: [small, cover] }, accounts[0]);
  const b = await run(server, { rules: [cover, { not: true, rules: [small] }] }, accounts[1]);
  if (a === 'budget spent' || b === 'budget spent') return undefined;
  if (a.person_count === null || b.person_count === null) return undefined;
  return a.person_count - b.person_count;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The attacker's verdict: the rounded mean of their estimates, or nothing when they got none. */
const recovered = (estimates: number[]) => (estimates.length === 0 ? undefined : Math.round(mean(estimates)));

let truth: Server;
let guarded: Server;

beforeAll(async () => {
  truth = await serverWith({ SUPPRESSION_THRESHOLD: '1', PERTURBATION_MAX_CHANGE: '0', QUERY_DAILY_BUDGET: '1000000' });
  guarded = await serverWith({});
}, 120_000);

afterAll(async () => {
  await Promise.all([truth, guarded].filter(Boolean).map((s) => s.app.close()));
});

describe('the tracker of the report', () => {
  it('30 pairs A = S or X, B = X and not S (X: born from a given year on) do not recover a hidden small count', async () => {
    // Budget: 60 runs from one account (an eighth of its day), as reported.
    for (const id of [4043241, 198199]) {
      const small = condition(id);
      const size = await trueCount(small);
      expect(size).toBeGreaterThan(0);
      expect(size).toBeLessThan(20);
      const shown = await run(guarded, small);
      // Hidden: "< 20", or "suppressed" when perturbed up to the threshold.
      expect(shown !== 'budget spent' && shown.person_count).toBeNull();
      const estimates: number[] = [];
      for (let year = 1920; year < 1950; year++) {
        const estimate = await trackerPair(guarded, small, { rules: [bornFrom(year)] }, [0, 0]);
        if (estimate !== undefined) estimates.push(estimate);
      }
      expect(recovered(estimates), `estimates ${JSON.stringify(estimates)} of |S| = ${size}`).not.toBe(size);
    }
  }, 300_000);
});
