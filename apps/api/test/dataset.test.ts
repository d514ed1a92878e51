import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '@hdp/contract';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let rita: { token: string };
let stella: { token: string };
let audrey: { token: string };
let adminToken: string;

beforeAll(async () => {
  t = await startTestApp({ QUERY_TIMEOUT_MS: '20000' });
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
  rita = await t.userWithRoles(['RESEARCHER']);
  stella = await t.userWithRoles(['DATA_STEWARD']);
  audrey = await t.userWithRoles(['AUDITOR']);
});
afterAll(() => t.close());

const dataset = (token: string, app: TestApp = t) => app.request({ method: 'GET', url: '/api/v1/data-explorer/dataset/', token });
const runEveryone = (token: string, app: TestApp = t) =>
  app.request({ method: 'POST', url: '/api/v1/queries/execute/', token, payload: { query: { combinator: 'and', rules: [] } } });

/** Every count is either shown (0 or at least the threshold) or withheld as "< threshold". */
function expectReleased(body: Dataset, threshold: number) {
  for (const domain of body.domains) {
    if (domain.records === null) expect(domain.records_display).toBe(`< ${threshold}`);
    else {
      expect(domain.records === 0 || domain.records >= threshold).toBe(true);
      expect(domain.records_display).toBe(String(domain.records));
    }
  }
}

describe('the dataset in use', () => {
  it('says no data is loaded before the first load', async () => {
    const response = await dataset(rita.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ loaded: false, source: null, loaded_at: null, person_count: null, domains: [] });
  });

  it('is for the roles that may see aggregate data: not for an auditor', async () => {
    expect((await dataset(adminToken)).statusCode).toBe(200);
    expect((await dataset(stella.token)).statusCode).toBe(200);
    const refused = await dataset(audrey.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBeTruthy();
  });

  describe('with the synthetic dataset', () => {
    beforeAll(async () => {
      await loadWarehouse(t.services, { kind: 'synthetic', persons: 3000, seed: 3 }, { actorEmail: 'test' });
    });

    it('names the source, the load date and the CDM version, and counts records per domain', async () => {
      const body = (await dataset(rita.token)).json() as Dataset;
      expect(body).toMatchObject({ loaded: true, source: 'synthetic: 3000 persons, seed 3', cdm_version: '5.4', suppression_threshold: 20 });
      expect(Date.parse(body.loaded_at!)).toBeLessThanOrEqual(Date.now());
      expect(body.domains.map((d) => d.label)).toEqual(['Conditions', 'Drug exposures', 'Procedures', 'Measurements', 'Observations', 'Visits', 'Deaths']);
      expect(body.domains.find((d) => d.domain === 'Condition')!.records).toBeGreaterThan(3000);
      expectReleased(body, 20);
    });

    it('releases the person count exactly as a query with no criteria does', async () => {
      const body = (await dataset(rita.token)).json() as Dataset;
      const everyone = (await runEveryone(rita.token)).json();
      expect(body.person_count).toBe(everyone.person_count);
      expect(body.person_count_display).toBe(everyone.person_count_display);
      expect(body.perturbed).toBe(everyone.perturbed);
      expect(body.person_count).toBeGreaterThan(2900);
      // The same answer every time, for every role.
      expect((await dataset(stella.token)).json()).toEqual(body);
    });
  });

  it('withholds a person count and record counts below the threshold', async () => {
    const tiny = await startTestApp({ SUPPRESSION_THRESHOLD: '20' });
    try {
      await loadWarehouse(tiny.services, { kind: 'synthetic', persons: 6, seed: 5 }, { actorEmail: 'test' });
      const token = (await tiny.signIn(ADMIN_EMAIL)).id_token;
      const body = (await dataset(token, tiny)).json() as Dataset;
      const everyone = (await runEveryone(token, tiny)).json();
      expect(body).toMatchObject({ loaded: true, person_count: null, person_count_display: '< 20' });
      expect(everyone).toMatchObject({ person_count: null, person_count_display: '< 20' });
      expectReleased(body, 20);
      expect(body.domains.some((d) => d.records_display === '< 20')).toBe(true);
    } finally {
      await tiny.close();
    }
  });
});
