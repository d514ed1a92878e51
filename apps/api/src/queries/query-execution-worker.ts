import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { QueryResult } from '@hdp/contract';
import type { Database, DbOrTx } from '../db/database';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import { runCohortQuery } from '../warehouse/cohort-results';
import type { WarehouseEngine } from '../warehouse/warehouse-engine';
import { failureReason } from './query-commands';
import { queryExecutionRepository, type QueryExecutionRow } from './query-repository';

export const INTERRUPTED_REASON = 'The run was interrupted (the server stopped) before it finished; run the query again.';
/** How often the worker looks for work when nobody wakes it (runs queued by another API process). */
const POLL_MS = 1_000;
/** With a shared database: how often runs abandoned by a stopped process are looked for. */
const SWEEP_MS = 10_000;
/** A run claimed this recently may not be held yet by the process that claimed it. */
const CLAIM_MARGIN_MS = 10_000;

type Outcome =
  | { status: 'SUCCEEDED'; result: QueryResult; dataset?: string }
  | { status: 'FAILED'; error: string };

/**
 * Runs saved queries' executions: a job queue in the database. Runs are claimed with
 * FOR UPDATE SKIP LOCKED, so several API processes can share one queue. A run's outcome and its
 * QUERY_EXECUTED entry are written in one transaction.
 *
 * Runs left RUNNING by a stopped process are marked FAILED and audited when the worker starts:
 * all of them when this process owns the database alone (PGlite). With a shared PostgreSQL
 * database, a process holds a row lock on each run for as long as it runs it, so a RUNNING run
 * that nobody holds was abandoned: those are swept at start and every SWEEP_MS after.
 * PENDING runs are simply picked up.
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

  private sweeper: NodeJS.Timeout | undefined;

  async start(): Promise<void> {
    await this.failInterrupted();
    this.running = true;
    if (!this.deps.singleOwner) {
      this.sweeper = setInterval(() => {
        this.failInterrupted().catch((error: unknown) => this.log.error({ err: error }, 'sweep of interrupted runs failed'));
      }, SWEEP_MS);
      this.sweeper.unref();
    }
    this.wake();
  }

  /** Marks abandoned RUNNING runs FAILED, each with its QUERY_EXECUTED failure entry, in one transaction. */
  async failInterrupted(): Promise<number> {
    const { db, singleOwner } = this.deps;
    const startedBefore = singleOwner ? null : new Date(Date.now() - CLAIM_MARGIN_MS);
    return db.transaction(async (tx) => {
      const failed = await queryExecutionRepository.failInterrupted(tx, startedBefore, INTERRUPTED_REASON);
      for (const execution of failed) await this.audit(tx, execution, { status: 'FAILED', error: INTERRUPTED_REASON });
      return failed.length;
    });
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
    const { db, warehouse, config, singleOwner } = this.deps;
    // The dataset is pinned for the run, so a cohort made from it later can check it is still served.
    const state = warehouse.state;
    const runQuery = async (): Promise<Outcome> => ({
      status: 'SUCCEEDED',
      result: await runCohortQuery(warehouse, execution.query, { threshold: config.suppressionThreshold, timeoutMs: config.queryTimeoutMs, state }),
      dataset: state?.schema,
    });
    try {
      if (singleOwner) {
        // PGlite has one session: a transaction held through the run would stall every request.
        const outcome = await runQuery();
        await db.transaction((tx) => this.finish(tx, execution, outcome));
      } else {
        await db.transaction(async (tx) => {
          await queryExecutionRepository.holdRunning(tx, execution.id);
          await this.finish(tx, execution, await runQuery());
        });
      }
    } catch (error) {
      const reason = failureReason(error);
      if (reason === 'The warehouse could not run this query.') this.log.error({ err: error, executionId: execution.id }, 'query run failed');
      await db.transaction((tx) => this.finish(tx, execution, { status: 'FAILED', error: reason }));
    }
  }

  /** Records a run's outcome and its audit entry in the caller's transaction (nothing if it ended already). */
  private async finish(tx: DbOrTx, execution: QueryExecutionRow, outcome: Outcome): Promise<void> {
    const finished = await queryExecutionRepository.finish(tx, execution.id, outcome);
    if (finished) await this.audit(tx, execution, outcome);
  }

  private async audit(tx: DbOrTx, execution: QueryExecutionRow, outcome: Outcome): Promise<void> {
    const context = execution.auditContext as AuditContext;
    const who = context.actorEmail ?? execution.requestedBy;
    const run = `${who} ran query ${execution.queryId} (version ${execution.queryVersion})`;
    const common = { eventType: 'QUERY_EXECUTED', resourceType: 'query', resourceId: execution.queryId } as const;
    await appendAuditEntry(
      tx,
      context,
      outcome.status === 'SUCCEEDED'
        ? {
            ...common,
            outcome: 'SUCCESS',
            message: `${run}: ${outcome.result.person_count_display} persons`,
            details: {
              execution_id: execution.id,
              version: execution.queryVersion,
              person_count_shown: outcome.result.person_count_display,
              execution_time_ms: outcome.result.execution_time_ms,
            },
          }
        : {
            ...common,
            outcome: 'FAILURE',
            message: `${run}, which failed: ${outcome.error}`,
            details: { execution_id: execution.id, version: execution.queryVersion, reason: outcome.error },
          },
    );
  }

  /** Stops taking work and waits for the runs in progress to end. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    clearInterval(this.sweeper);
    if (this.active > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
  }
}
