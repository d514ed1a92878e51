import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryExecution } from '@hdp/contract';
import { INTERRUPTED_REASON, QueryExecutionWorker } from '../src/queries/query-execution-worker';
import { queryExecutionRepository, queryRepository } from '../src/queries/query-repository';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let rita: { token: string; user: { id: string } };
const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };
const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

beforeAll(async () => {
  t = await startTestApp({ JOB_LEASE_MS: '1000' });
  rita = await t.userWithRoles(['RESEARCHER'], 'rita@example.org');
  await loadWarehouse(t.services, { kind: 'synthetic', persons: 500, seed: 2 }, { actorEmail: 'test' });
});
afterAll(() => t.close());

async function execution(queryId: string, id: string): Promise<QueryExecution> {
  return (await t.request({ method: 'GET', url: `/api/v1/queries/${queryId}/executions/${id}/`, token: rita.token })).json();
}

describe('the job queue shared by several processes', () => {
  it('takes over a job whose holder stopped once its lease has run out, and leaves a held one alone', async () => {
    const query = (await t.request({ method: 'POST', url: '/api/v1/queries/', token: rita.token, payload: { name: 'leases', query: WOMEN } })).json();
    const row = await queryRepository.findById(t.services.db, query.id);
    await t.services.jobs.stop();
    try {
      const values = { queryId: query.id, queryVersion: 1, query: row!.query, requestedBy: rita.user.id, auditContext: { actorEmail: 'rita@example.org' } };
      // Two runs claimed by another process: one that stopped (its lease ran out), one still working on its run.
      const abandoned = await queryExecutionRepository.insert(t.services.db, values);
      const held = await queryExecutionRepository.insert(t.services.db, values);
      await t.services.db.execute(sql`update query_executions set status = 'RUNNING', started_at = now() where id in (${abandoned.id}, ${held.id})`);
      await t.services.db.execute(sql`update jobs set state = 'RUNNING', attempts = 1, started_at = now(), lease_until = now() - interval '1 second' where subject = ${abandoned.id}`);
      await t.services.db.execute(sql`update jobs set state = 'RUNNING', attempts = 1, started_at = now(), lease_until = now() + interval '1 hour' where subject = ${held.id}`);

      const worker = new QueryExecutionWorker({ db: t.services.db, warehouse: t.services.warehouse, config: t.config, singleOwner: false });
      await worker.start();
      await worker.stop();
      expect(await execution(query.id, abandoned.id)).toMatchObject({ status: 'FAILED', error: INTERRUPTED_REASON });
      expect(await execution(query.id, held.id)).toMatchObject({ status: 'RUNNING' });
      expect(await rowsOf(sql`select state, error from jobs where subject = ${abandoned.id}`)).toEqual([{ state: 'FAILED', error: expect.stringMatching(/interrupted/) }]);
      expect(await rowsOf(sql`select state from jobs where subject = ${held.id}`)).toEqual([{ state: 'RUNNING' }]);
      // The failure is audited, in the transaction that recorded it.
      const audit = await rowsOf(sql`select outcome, details from audit_log where event_type = 'QUERY_EXECUTED' and resource_id = ${query.id}`);
      expect(audit).toEqual([{ outcome: 'FAILURE', details: expect.objectContaining({ execution_id: abandoned.id, reason: INTERRUPTED_REASON }) }]);
    } finally {
      await t.services.jobs.start();
    }
  });

  it('runs a queued run once, with its result and its audit entry together', async () => {
    const query = (await t.request({ method: 'POST', url: '/api/v1/queries/', token: rita.token, payload: { name: 'once', query: WOMEN } })).json();
    const started = await t.request({ method: 'POST', url: `/api/v1/queries/${query.id}/executions/`, token: rita.token });
    let run = await execution(query.id, started.json().id);
    for (let i = 0; i < 400 && run.status !== 'SUCCEEDED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      run = await execution(query.id, started.json().id);
    }
    expect(run.status).toBe('SUCCEEDED');
    expect(await rowsOf(sql`select state, attempts, progress from jobs where subject = ${run.id}`)).toEqual([{ state: 'SUCCEEDED', attempts: 1, progress: 1 }]);
    expect(await rowsOf(sql`select outcome from audit_log where event_type = 'QUERY_EXECUTED' and resource_id = ${query.id}`)).toEqual([{ outcome: 'SUCCESS' }]);
  });
});
