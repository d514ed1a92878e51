import type { Config } from '../config';
import type { Database, DbOrTx } from '../db/database';
import { queryLabel } from '../audit/audit-labels';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import { INTERRUPTED_JOB_REASON, JobWorker, type JobHandler } from '../jobs/job-worker';
import { runCohortQuery, type DisclosureCost } from '../warehouse/cohort-results';
import type { WarehouseEngine } from '../warehouse/warehouse-engine';
import { auditedCost, failureReason } from './query-commands';
import { queryExecutionRepository, type QueryExecutionRow } from './query-repository';

export const INTERRUPTED_REASON = 'The run was interrupted (the server stopped) before it finished; run the query again.';
export const QUERY_RUN_JOB = 'query-run';
/** Extra time past the limit before a RUNNING run is taken for abandoned by a stopped process. */
const GRACE_MS = 60_000;

/** The audit entry of a run that failed, in the transaction that records the failure. */
async function auditFailure(tx: DbOrTx, execution: QueryExecutionRow, reason: string): Promise<void> {
  const context: AuditContext = execution.auditContext;
  await appendAuditEntry(tx, context, {
    eventType: 'QUERY_EXECUTED',
    outcome: 'FAILURE',
    message: `${context.actorEmail ?? execution.requestedBy} ran ${await queryLabel(tx, execution.queryId)} (version ${execution.queryVersion}), which failed: ${reason}`,
    resourceType: 'query',
    resourceId: execution.queryId,
    details: { execution_id: execution.id, version: execution.queryVersion, reason },
  });
}

/**
 * Runs of saved queries, as jobs of the one queue. `query_executions` stays the run record the
 * contract answers from; the job (payload `{ executionId }`) is how a run is queued, claimed and
 * leased. A run's result (or failure) and its audit entry are written in one transaction.
 */
export function queryRunHandler(deps: { warehouse: WarehouseEngine; config: Config }): JobHandler {
  const { warehouse, config } = deps;
  return {
    kind: QUERY_RUN_JOB,
    concurrency: config.queryWorkers,

    async run({ job, db, log, finish }) {
      const execution = await queryExecutionRepository.start(db, String(job.payload.executionId));
      // Already ended (failed as interrupted at start) or gone with its query: nothing to do.
      if (!execution) return void (await finish('SUCCEEDED', async () => undefined));
      const context = execution.auditContext;
      const who = context.actorEmail ?? execution.requestedBy;
      try {
        // The dataset is pinned for the run, so a cohort made from it later can check it is still served.
        const state = warehouse.state;
        const cost: DisclosureCost = { suppressionAuditMs: 0, linearPrograms: 0 };
        const result = await runCohortQuery(warehouse, execution.query, {
          threshold: config.suppressionThreshold,
          perturbation: config.perturbation,
          trackerDefence: config.trackerDefence,
          timeoutMs: config.queryTimeoutMs,
          release: { db, kind: 'explorer', reference: `query ${execution.queryId} execution ${execution.id}`, audit: context },
          state,
          cost,
        });
        await finish('SUCCEEDED', async (tx) => {
          if (!(await queryExecutionRepository.finish(tx, execution.id, { status: 'SUCCEEDED', result, dataset: state?.schema }))) return;
          await appendAuditEntry(tx, context, {
            eventType: 'QUERY_EXECUTED',
            outcome: 'SUCCESS',
            message: `${who} ran ${await queryLabel(tx, execution.queryId)} (version ${execution.queryVersion}): ${result.person_count_display} persons`,
            resourceType: 'query',
            resourceId: execution.queryId,
            details: {
              execution_id: execution.id,
              version: execution.queryVersion,
              person_count_shown: result.person_count_display,
              execution_time_ms: result.execution_time_ms,
              ...auditedCost(cost),
            },
          });
        });
      } catch (error) {
        const reason = failureReason(error);
        if (reason === 'The warehouse could not run this query.') log.error({ err: error, executionId: execution.id }, 'query run failed');
        const record = async (tx: DbOrTx) => {
          if (await queryExecutionRepository.finish(tx, execution.id, { status: 'FAILED', error: reason })) await auditFailure(tx, execution, reason);
        };
        await finish('FAILED', record, reason);
      }
    },

    async failed(tx, job, reason) {
      const why = reason === INTERRUPTED_JOB_REASON ? INTERRUPTED_REASON : reason;
      const failed = await queryExecutionRepository.failOne(tx, String(job.payload.executionId), why);
      if (failed) await auditFailure(tx, failed, why);
    },

    /** Runs left RUNNING: at once when this process owns the database alone, after the time limit otherwise. */
    async recover(db, { singleOwner }) {
      const cutoff = singleOwner ? null : new Date(Date.now() - config.queryTimeoutMs - GRACE_MS);
      await db.transaction(async (tx) => {
        for (const execution of await queryExecutionRepository.failInterrupted(tx, cutoff, INTERRUPTED_REASON)) {
          await auditFailure(tx, execution, INTERRUPTED_REASON);
        }
      });
    },

    describeError: failureReason,
  };
}

/**
 * A job worker that runs query runs only (the API's own worker runs every kind). Kept for tools and
 * tests that run saved queries without the rest of the platform.
 */
export class QueryExecutionWorker extends JobWorker {
  constructor(deps: { db: Database; warehouse: WarehouseEngine; config: Config; singleOwner: boolean }) {
    super({ db: deps.db, singleOwner: deps.singleOwner }, [queryRunHandler(deps)]);
  }
}
