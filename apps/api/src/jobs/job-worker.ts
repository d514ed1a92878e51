import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../db/database';
import { jobRepository, type JobRow } from './job-repository';

/** How often the worker looks for work when nobody wakes it (jobs queued by another API process). */
const POLL_MS = 1_000;
/** How long a claim holds a job without a heartbeat; heartbeats come three times per lease. */
export const DEFAULT_LEASE_MS = 30_000;

export const INTERRUPTED_JOB_REASON = 'The job was interrupted (the server stopped) before it finished.';

/** What a job handler is given while it runs its job. */
export interface JobContext {
  job: JobRow;
  db: Database;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  /** Records how far the job got (0 to 1), with the heartbeat. */
  progress(fraction: number): Promise<void>;
  /**
   * Ends the job: `record` writes its outcome (a result, an audit entry) in the same transaction
   * that marks the job done. When this claim no longer holds the job, nothing is written.
   */
  finish(state: 'SUCCEEDED' | 'FAILED', record: (tx: DbOrTx) => Promise<void>, error?: string): Promise<boolean>;
}

/** One kind of job: how to run it and what to record when it cannot finish. */
export interface JobHandler {
  kind: string;
  /** How many jobs of this kind one process runs at once. */
  concurrency: number;
  /** Runs the job; ends it with `context.finish`. A throw counts as a failed attempt. */
  run(context: JobContext): Promise<void>;
  /**
   * Records, in the transaction that marks the job FAILED, why it did not finish (its last attempt
   * threw, or the process holding it stopped) — e.g. the run record and its audit entry.
   */
  failed(tx: DbOrTx, job: JobRow, reason: string): Promise<void>;
  /** Before the first claim: clean up records of this kind left by a process that stopped. */
  recover?(db: Database, options: { singleOwner: boolean }): Promise<void>;
  /** What a thrown error tells the user; internals stay in the log. */
  describeError?(error: unknown): string;
}

/**
 * The one job queue's worker: claims PENDING jobs of the kinds it has handlers for (FOR UPDATE SKIP
 * LOCKED, so several API processes share the queue), holds them by a lease it extends while the
 * handler works, and ends them through the handler in one transaction with the job's own row.
 *
 * Jobs left RUNNING by a stopped process are found at start (all of them when this process owns
 * the embedded database alone) and, on a shared PostgreSQL, at every poll once their lease has run
 * out: they go back to the queue while attempts remain, else they are FAILED through their handler.
 */
export class JobWorker {
  private running = false;
  private readonly active = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly idle = new Set<() => void>();
  private readonly handlers = new Map<string, JobHandler>();
  log: Pick<FastifyBaseLogger, 'error' | 'warn'> = { error: () => undefined, warn: () => undefined };

  constructor(
    private readonly deps: { db: Database; singleOwner: boolean; leaseMs?: number },
    handlers: JobHandler[] = [],
  ) {
    for (const handler of handlers) this.register(handler);
  }

  register(handler: JobHandler): void {
    this.handlers.set(handler.kind, handler);
    this.active.set(handler.kind, 0);
  }

  private get leaseMs(): number {
    return this.deps.leaseMs ?? DEFAULT_LEASE_MS;
  }

  async start(): Promise<void> {
    const { db, singleOwner } = this.deps;
    for (const handler of this.handlers.values()) await handler.recover?.(db, { singleOwner });
    await this.reclaimAbandoned(singleOwner);
    this.running = true;
    this.wake();
  }

  /** Looks for work now (called when a job is queued). */
  wake(): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    for (const handler of this.handlers.values()) {
      while (this.active.get(handler.kind)! < handler.concurrency) {
        this.active.set(handler.kind, this.active.get(handler.kind)! + 1);
        void this.takeOne(handler).finally(() => {
          this.active.set(handler.kind, this.active.get(handler.kind)! - 1);
          if (this.activeCount() === 0) for (const resolve of this.idle) resolve();
        });
      }
    }
    this.timer = setTimeout(() => {
      // On a shared server, another process may have stopped holding a job: take it back once its lease is out.
      const sweep = this.deps.singleOwner ? Promise.resolve() : this.reclaimAbandoned(false);
      void sweep.catch((error: unknown) => this.log.error({ err: error }, 'job lease sweep failed')).finally(() => this.wake());
    }, POLL_MS);
    this.timer.unref();
  }

  private activeCount(): number {
    let n = 0;
    for (const count of this.active.values()) n += count;
    return n;
  }

  private async takeOne(handler: JobHandler): Promise<void> {
    let job: JobRow | undefined;
    try {
      job = await jobRepository.claimNext(this.deps.db, handler.kind, this.leaseMs);
      if (!job) return;
      await this.run(handler, job);
      // There may be more: look again at once.
      setImmediate(() => this.wake());
    } catch (error) {
      this.log.error({ err: error, jobId: job?.id, kind: handler.kind }, 'job worker error');
    }
  }

  private async run(handler: JobHandler, job: JobRow): Promise<void> {
    const { db } = this.deps;
    let lost = false;
    const beat = setInterval(() => {
      void jobRepository
        .heartbeat(db, job, this.leaseMs)
        .then((held) => (lost ||= !held))
        .catch((error: unknown) => this.log.warn({ err: error, jobId: job.id }, 'job heartbeat failed'));
    }, Math.max(100, Math.floor(this.leaseMs / 3)));
    const context: JobContext = {
      job,
      db,
      log: this.log,
      progress: async (fraction) => {
        if (!(await jobRepository.heartbeat(db, job, this.leaseMs, fraction))) lost = true;
      },
      finish: (state, record, error) =>
        db
          .transaction(async (tx) => {
            if (!(await jobRepository.finish(tx, job, { state, error }))) throw new ClaimLost();
            await record(tx);
            return true;
          })
          .catch((caught: unknown) => {
            if (caught instanceof ClaimLost) return false;
            throw caught;
          }),
    };
    try {
      await handler.run(context);
    } catch (error) {
      const reason = handler.describeError?.(error) ?? (error instanceof Error ? error.message : String(error));
      this.log.error({ err: error, jobId: job.id, kind: job.kind, lost }, 'job failed');
      await db.transaction(async (tx) => {
        if (job.attempts < job.maxAttempts) {
          await jobRepository.requeue(tx, job, reason);
          return;
        }
        if (await jobRepository.finish(tx, job, { state: 'FAILED', error: reason })) await handler.failed(tx, job, reason);
      });
    } finally {
      clearInterval(beat);
    }
  }

  /** Jobs left RUNNING by a stopped process: back to the queue while attempts remain, else FAILED. */
  private async reclaimAbandoned(singleOwner: boolean): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      for (const job of await jobRepository.abandonedForUpdate(tx, singleOwner)) {
        const handler = this.handlers.get(job.kind);
        // A kind this process does not run: another process (a newer version) will.
        if (!handler) continue;
        if (job.attempts < job.maxAttempts) {
          await jobRepository.requeue(tx, job, INTERRUPTED_JOB_REASON);
        } else if (await jobRepository.finish(tx, job, { state: 'FAILED', error: INTERRUPTED_JOB_REASON })) {
          await handler.failed(tx, job, INTERRUPTED_JOB_REASON);
        }
      }
    });
  }

  /** Stops taking work and waits for the jobs in progress to end. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    if (this.activeCount() > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
  }
}

class ClaimLost extends Error {}
