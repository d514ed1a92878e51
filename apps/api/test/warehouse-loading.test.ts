import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadThroughRunningApi, startControlSocket } from '../src/warehouse/control-socket';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';
import { sampleDataset } from './support/warehouse-fixtures';

let t: TestApp;
let token: string;
let dataDir: string;
let closeSocket: () => Promise<void>;

beforeAll(async () => {
  // Exact counts tell which dataset is served, so perturbation is off here.
  t = await startTestApp({ PERTURBATION_MAX_CHANGE: '0' });
  token = (await t.signIn(ADMIN_EMAIL)).id_token;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-control-'));
  closeSocket = await startControlSocket(t.services, dataDir);
});
afterAll(async () => {
  await closeSocket();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const personCount = async () =>
  (await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token, payload: { query: { rules: [] } } })).json().person_count;

describe('loading while the server runs (the hdp command through the control socket)', () => {
  it('finds no server when there is no socket', async () => {
    expect(await loadThroughRunningApi(os.tmpdir() + '/no-such-data-dir', { kind: 'synthetic', persons: 10, seed: 1 })).toBeUndefined();
  });

  it('loads through the server, which keeps answering from the old data until the swap', async () => {
    const first = await loadThroughRunningApi(dataDir, { kind: 'synthetic', persons: 100, seed: 1 });
    expect(first!.rows.person).toBe(100);
    expect(await personCount()).toBe(100);
    const big = loadThroughRunningApi(dataDir, { kind: 'synthetic', persons: 60_000, seed: 2 });
    // Queries during the load still see the previous dataset.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await personCount()).toBe(100);
    expect((await big)!.rows.person).toBe(60_000);
    expect(await personCount()).toBe(60_000);
    const audit = (await t.services.db.execute(sql`select actor_email, outcome from audit_log where event_type = 'WAREHOUSE_LOADED' order by seq`)) as unknown as {
      rows: { actor_email: string; outcome: string }[];
    };
    expect(audit.rows).toEqual([
      { actor_email: 'hdp command line (through the running API)', outcome: 'SUCCESS' },
      { actor_email: 'hdp command line (through the running API)', outcome: 'SUCCESS' },
    ]);
  });

  it('reports a failed import with its reason and keeps the data', async () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-broken-'));
    fs.writeFileSync(path.join(broken, 'PERSON.csv'), 'person_id,gender_concept_id,year_of_birth\n1,8507,1970\n2,8532,soon\n');
    await expect(loadThroughRunningApi(dataDir, { kind: 'omop', directory: broken })).rejects.toThrow(
      'person.year_of_birth, row 2 of PERSON.csv: "soon" is not a whole number.',
    );
    expect(await personCount()).toBe(60_000);
    const loaded = await loadThroughRunningApi(dataDir, { kind: 'omop', directory: sampleDataset('synthea27nj-omop-5.4') });
    expect(loaded!.rows.person).toBe(28);
    expect((await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token, payload: { query: { rules: [] } } })).json().person_count_display).toBe('28');
  });
});
