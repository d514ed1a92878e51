import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import { jobs } from '../db/schema';

export type JobRow = typeof jobs.$inferSelect;
export type JobState = JobRow['state'];

/** The only code that reads and writes the jobs table. */
export const jobRepository = {
  async enqueue(
    db: DbOrTx,
    values: { kind: string; payload: Record<string, unknown>; subject?: string | null; maxAttempts?: number },
  ): Promise<JobRow> {
    const [row] = await db.insert(jobs).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, id: string): Promise<JobRow | undefined> {
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
    return row;
  },

  /**
   * Takes the oldest PENDING job of `kind` and marks it RUNNING under a lease; concurrent workers
   * (in this process or another) never take the same one. `attempts` counts the claims and fences
   * the holder: only the claim that holds the current attempt may finish the job.
   */
  async claimNext(db: DbOrTx, kind: string, leaseMs: number): Promise<JobRow | undefined> {
    const next = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.state, 'PENDING'), eq(jobs.kind, kind)))
      .orderBy(asc(jobs.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await db
      .update(jobs)
      .set({
        state: 'RUNNING',
        attempts: sql`${jobs.attempts} + 1`,
        startedAt: new Date(),
        heartbeatAt: new Date(),
        leaseUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
      })
      .where(inArray(jobs.id, next))
      .returning();
    return row;
  },

  /** Extends the lease of a job still held by this claim; false when the claim was lost. */
  async heartbeat(db: DbOrTx, job: Pick<JobRow, 'id' | 'attempts'>, leaseMs: number, progress?: number): Promise<boolean> {
    const rows = await db
      .update(jobs)
      .set({
        heartbeatAt: new Date(),
        leaseUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
        ...(progress !== undefined && { progress }),
      })
      .where(held(job))
      .returning({ id: jobs.id });
    return rows.length === 1;
  },

  /** Ends a job held by this claim; false (and nothing written) when the claim was lost. */
  async finish(db: DbOrTx, job: Pick<JobRow, 'id' | 'attempts'>, outcome: { state: 'SUCCEEDED' | 'FAILED'; error?: string }): Promise<boolean> {
    const rows = await db
      .update(jobs)
      .set({ state: outcome.state, error: outcome.error ?? null, finishedAt: new Date(), leaseUntil: null, ...(outcome.state === 'SUCCEEDED' && { progress: 1 }) })
      .where(held(job))
      .returning({ id: jobs.id });
    return rows.length === 1;
  },

  /** Puts a job held by this claim back in the queue (to be tried again). */
  async requeue(db: DbOrTx, job: Pick<JobRow, 'id' | 'attempts'>, error: string): Promise<boolean> {
    const rows = await db.update(jobs).set({ state: 'PENDING', error, leaseUntil: null }).where(held(job)).returning({ id: jobs.id });
    return rows.length === 1;
  },

  /**
   * RUNNING jobs left by a process that stopped, locked until the transaction ends: all of them
   * when this process owns the database alone, else those whose lease ran out.
   */
  async abandonedForUpdate(db: DbOrTx, singleOwner: boolean): Promise<JobRow[]> {
    const running = eq(jobs.state, 'RUNNING');
    return db
      .select()
      .from(jobs)
      .where(singleOwner ? running : and(running, lt(jobs.leaseUntil, sql`now()`)))
      .orderBy(asc(jobs.createdAt))
      .for('update', { skipLocked: true });
  },

  /** Cancels the jobs of a subject that have not started (a workbench being deleted). */
  async cancelPending(db: DbOrTx, subject: string): Promise<void> {
    await db
      .update(jobs)
      .set({ state: 'CANCELLED', finishedAt: new Date() })
      .where(and(eq(jobs.subject, subject), eq(jobs.state, 'PENDING')));
  },
};

const held = (job: Pick<JobRow, 'id' | 'attempts'>) => and(eq(jobs.id, job.id), eq(jobs.state, 'RUNNING'), eq(jobs.attempts, job.attempts));
