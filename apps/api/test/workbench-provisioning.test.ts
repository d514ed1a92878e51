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

  it('refuses at once a cohort version whose data is no longer served, saying who can fix it, and writes nothing', async () => {
    const cohortId = await publishedCohort(t, rita, stella, 'Under thirty', { combinator: 'and', rules: [{ field: 'person.age', operator: '<', value: 30 }] });
    const before = await t.request({ method: 'GET', url: `/api/v1/cohorts/${cohortId}/`, token: rita.token });
    expect(before.json().published_on_current_data).toBe(true);
    // A new dataset replaces the one the cohort version was taken from.
    await loadWarehouse(t.services, { kind: 'synthetic', persons: 300, seed: 12 }, { actorEmail: 'test' });
    const after = await t.request({ method: 'GET', url: `/api/v1/cohorts/?search=Under%20thirty`, token: rita.token });
    expect(after.json().cohorts[0]).toMatchObject({ id: cohortId, published_on_current_data: false });
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/workbenches/',
      token: rita.token,
      payload: { name: 'After a reload', purpose: 'To check that a release from data no longer served is refused at once, with a reason.', cohorts: [{ id: cohortId }] },
    });
    // Not "created" and failed later: refused in the answer, the rest of the workbench applied.
    expect(created.statusCode, created.body).toBe(418);
    expect(created.json().refused).toEqual([
      {
        kind: 'cohort',
        id: cohortId,
        reason:
          'version 1 of cohort "Under thirty" was taken from data the platform no longer serves (the warehouse was reloaded): a data steward must re-run the cohort on the current data and publish the new version before it can be released',
      },
    ]);
    const workbench = created.json().workbench as Workbench;
    expect(workbench.cohorts).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'workbenches', workbench.id, 'released', 'cohorts'))).toBe(false);
  });
});
