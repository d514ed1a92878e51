import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { recordAuditEvent } from '../audit/audit-trail';
import { runCohortQuery, type DisclosureCost } from '../warehouse/cohort-results';
import type { WarehouseEngine } from '../warehouse/warehouse-engine';
import { auditedCost, failureReason } from './query-commands';
import { queryExecutionRepository, type QueryExecutionRow } from './query-repository';

export const INTERRUPTED_REASON = 'The run was interrupted (the server stopped) before it finished; run the query again.';
/** How often the worker looks for work when nobody wakes it (runs queued by another API process). */
const POLL_MS = 1_000;
/** Extra time past the limit before a RUNNING run is taken for abandoned by a stopped process. */
const GRACE_MS = 60_000;

/**
 * Runs saved queries' executions: a job queue in the database. Runs are claimed with
 * FOR UPDATE SKIP LOCKED, so several API processes can share one queue. On start, runs left
 * RUNNING by a stopped process are marked FAILED with a reason (at once when this process owns
 * the database alone, after the time limit otherwise); PENDING ones are simply picked up.
 */
export class QueryExecutionWorker {
  private running = false;
  private active = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly idle = new Set<() => void>();
  log: Pick<FastifyBaseLogger, 'error'> = { error: () => undefined };

  constructor(
    private readonly deps: { db: Database; warehouse: WarehouseEngine; config: Config; singleOwner: boolean },
  ) {}

  async start(): Promise<void> {
    const { db, config, singleOwner } = this.deps;
    const cutoff = singleOwner ? null : new Date(Date.now() - config.queryTimeoutMs - GRACE_MS);
    await queryExecutionRepository.failInterrupted(db, cutoff, INTERRUPTED_REASON);
    this.running = true;
    this.wake();
  }

  /** Looks for work now (called when a run is queued). */
  wake(): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    while (this.active < this.deps.config.queryWorkers) {
      this.active++;
      void this.takeOne().finally(() => {
        this.active--;
        if (this.active === 0) for (const resolve of this.idle) resolve();
      });
    }
    this.timer = setTimeout(() => this.wake(), POLL_MS);
    this.timer.unref();
  }

  private async takeOne(): Promise<void> {
    let execution: QueryExecutionRow | undefined;
    try {
      execution = await queryExecutionRepository.claimNext(this.deps.db);
      if (!execution) return;
      await this.run(execution);
      // There may be more: look again at once.
      setImmediate(() => this.wake());
    } catch (error) {
      this.log.error({ err: error, executionId: execution?.id }, 'query worker error');
    }
  }

  private async run(execution: QueryExecutionRow): Promise<void> {
    const { db, warehouse, config } = this.deps;
    const context = execution.auditContext;
    const who = context.actorEmail ?? execution.requestedBy;
    try {
      // The dataset is pinned for the run, so a cohort made from it later can check it is still served.
      const state = warehouse.state;
      const cost: DisclosureCost = { suppressionAuditMs: 0, linearPrograms: 0 };
      const result = await runCohortQuery(warehouse, execution.query, {
        threshold: config.suppressionThreshold,
        perturbation: config.perturbation,
        timeoutMs: config.queryTimeoutMs,
        state,
        cost,
      });
      const finished = await queryExecutionRepository.finish(db, execution.id, { status: 'SUCCEEDED', result, dataset: state?.schema });
      if (!finished) return;
      await recordAuditEvent(db, context, {
        eventType: 'QUERY_EXECUTED',
        outcome: 'SUCCESS',
        message: `${who} ran query ${execution.queryId} (version ${execution.queryVersion}): ${result.person_count_display} persons`,
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
    } catch (error) {
      const reason = failureReason(error);
      if (reason === 'The warehouse could not run this query.') this.log.error({ err: error, executionId: execution.id }, 'query run failed');
      const finished = await queryExecutionRepository.finish(db, execution.id, { status: 'FAILED', error: reason });
      if (!finished) return;
      await recordAuditEvent(db, context, {
        eventType: 'QUERY_EXECUTED',
        outcome: 'FAILURE',
        message: `${who} ran query ${execution.queryId} (version ${execution.queryVersion}), which failed: ${reason}`,
        resourceType: 'query',
        resourceId: execution.queryId,
        details: { execution_id: execution.id, version: execution.queryVersion, reason },
      });
    }
  }

  /** Stops taking work and waits for the runs in progress to end. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    if (this.active > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
  }
}
