import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '@hdp/contract';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { startTestApp, type TestApp } from './support/test-app';
import { createPostgresDatabase } from './support/test-database';
import { expectReleasedRowsMatch, provisioned, publishedCohort, type Account } from './support/workbench-fixtures';

/** The embedded DuckDB warehouse is covered by workbenches.test.ts; this is the same release from the PostgreSQL engine. */
describe('provisioning from the PostgreSQL warehouse engine', () => {
  let t: TestApp;
  let dataDir: string;
  let warehouseDb: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let rita: Account;
  let stella: Account;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-wb-pg-'));
    warehouseDb = await createPostgresDatabase();
    t = await startTestApp({ DATA_DIR: dataDir, WAREHOUSE_URL: warehouseDb.url, QUERY_TIMEOUT_MS: '20000' });
    rita = await t.userWithRoles(['RESEARCHER'], 'rita@example.org');
    stella = await t.userWithRoles(['DATA_STEWARD'], 'stella@example.org');
    await loadWarehouse(t.services, { kind: 'synthetic', persons: 1200, seed: 11 }, { actorEmail: 'test' });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await warehouseDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes exactly the cohort's persons' rows, streamed out of PostgreSQL by COPY and gzip", async () => {
    expect(t.services.warehouse.kind).toBe('postgres');
    const cohortId = await publishedCohort(t, rita, stella, 'Over sixty', { combinator: 'and', rules: [{ field: 'person.age', operator: '>', value: 60 }] });
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/workbenches/',
      token: rita.token,
      payload: { name: 'From PostgreSQL', purpose: 'To check that releases from the PostgreSQL warehouse hold the same rows.', cohorts: [{ id: cohortId }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const workbench: Workbench = await provisioned(t, rita, created.json().id);
    await expectReleasedRowsMatch(t, path.join(dataDir, 'workbenches', workbench.id, 'released', 'cohorts', 'over-sixty-v1'), workbench, cohortId);
  });
});
