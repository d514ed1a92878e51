import { and, asc, desc, eq, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { QueryExecutionStatus, QueryGroup, QueryResult } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { cappedTotal } from '../db/paging';
import { queries, queryExecutions, users } from '../db/schema';
import { jobRepository } from '../jobs/job-repository';

export type QueryRow = typeof queries.$inferSelect;
export type QueryWithOwner = QueryRow & { ownerEmail: string | null };
export type QueryExecutionRow = typeof queryExecutions.$inferSelect;

export interface QueryListFilter {
  /** Only this owner's queries (everyone but an ADMIN); undefined for all. */
  ownerId?: string;
  nameSearch?: string;
  idSearch?: string;
  emailSearch?: string;
  createdBy?: string;
  skip: number;
  limit: number;
  orderBy: string;
}

const ORDER_COLUMNS = { name: queries.name, created_at: queries.createdAt, updated_at: queries.updatedAt } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The only code that reads and writes the queries table. */
export const queryRepository = {
  async findById(db: DbOrTx, id: string): Promise<QueryWithOwner | undefined> {
    const [row] = await db
      .select({ query: queries, ownerEmail: users.email })
      .from(queries)
      .leftJoin(users, eq(users.id, queries.ownerId))
      .where(eq(queries.id, id))
      .limit(1);
    return row && { ...row.query, ownerEmail: row.ownerEmail };
  },

  /** Locks the row until the transaction ends, so two updates bump the version one after the other. */
  async findByIdForUpdate(db: DbOrTx, id: string): Promise<QueryRow | undefined> {
    const [row] = await db.select().from(queries).where(eq(queries.id, id)).for('update').limit(1);
    return row;
  },

  async insert(db: DbOrTx, values: { name: string; description: string; query: QueryGroup; ownerId: string }): Promise<QueryRow> {
    const [row] = await db.insert(queries).values(values).returning();
    return row!;
  },

  async update(db: DbOrTx, id: string, changes: { name?: string; description?: string; query?: QueryGroup }): Promise<QueryRow> {
    const [row] = await db
      .update(queries)
      .set({ ...changes, version: sql`${queries.version} + 1`, updatedAt: new Date() })
      .where(eq(queries.id, id))
      .returning();
    return row!;
  },

  async delete(db: DbOrTx, id: string): Promise<void> {
    await db.delete(queries).where(eq(queries.id, id));
  },

  async list(db: DbOrTx, filter: QueryListFilter): Promise<{ rows: QueryWithOwner[]; total: number; total_capped: boolean }> {
    const conditions: SQL[] = [];
    if (filter.ownerId) conditions.push(eq(queries.ownerId, filter.ownerId));
    if (filter.nameSearch) conditions.push(ilike(queries.name, likePattern(filter.nameSearch)));
    if (filter.idSearch) conditions.push(ilike(sql`${queries.id}::text`, `${filter.idSearch.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
    if (filter.emailSearch) conditions.push(ilike(users.email, likePattern(filter.emailSearch)));
    if (filter.createdBy) {
      conditions.push(UUID.test(filter.createdBy) ? eq(queries.ownerId, filter.createdBy) : eq(users.email, filter.createdBy.toLowerCase()));
    }
    const where = conditions.length ? and(...conditions) : undefined;
    const descending = filter.orderBy.startsWith('-');
    const column = ORDER_COLUMNS[filter.orderBy.replace(/^-/, '') as keyof typeof ORDER_COLUMNS] ?? queries.updatedAt;
    const [rows, total] = await Promise.all([
      db
        .select({ query: queries, ownerEmail: users.email })
        .from(queries)
        .leftJoin(users, eq(users.id, queries.ownerId))
        .where(where)
        .orderBy(descending ? desc(column) : asc(column), asc(queries.id))
        .offset(filter.skip)
        .limit(filter.limit),
      cappedTotal(db, queries, where, { table: users, on: eq(users.id, queries.ownerId) }),
    ]);
    return { rows: rows.map((r) => ({ ...r.query, ownerEmail: r.ownerEmail })), ...total };
  },
};

/** The only code that reads and writes the query_executions table (the records of query runs). */
export const queryExecutionRepository = {
  /** Records a PENDING run and queues its job (kind `query-run`), together. */
  async insert(
    db: DbOrTx,
    values: { queryId: string; queryVersion: number; query: QueryGroup; requestedBy: string; auditContext: Record<string, string | null> },
  ): Promise<QueryExecutionRow> {
    return db.transaction(async (tx) => {
      const [row] = await tx.insert(queryExecutions).values(values).returning();
      await jobRepository.enqueue(tx, { kind: 'query-run', payload: { executionId: row!.id }, subject: row!.id });
      return row!;
    });
  },

  /** Marks a PENDING run RUNNING; undefined when it is not PENDING (already ended) or gone. */
  async start(db: DbOrTx, id: string): Promise<QueryExecutionRow | undefined> {
    const [row] = await db
      .update(queryExecutions)
      .set({ status: 'RUNNING', startedAt: new Date() })
      .where(and(eq(queryExecutions.id, id), eq(queryExecutions.status, 'PENDING')))
      .returning();
    return row;
  },

  /** Marks one run that has not ended FAILED. */
  async failOne(db: DbOrTx, id: string, reason: string): Promise<QueryExecutionRow | undefined> {
    const [row] = await db
      .update(queryExecutions)
      .set({ status: 'FAILED', error: reason, finishedAt: new Date() })
      .where(and(eq(queryExecutions.id, id), inArray(queryExecutions.status, ['PENDING', 'RUNNING'])))
      .returning();
    return row;
  },

  async findForQuery(db: DbOrTx, queryId: string, executionId: string): Promise<QueryExecutionRow | undefined> {
    const [row] = await db
      .select()
      .from(queryExecutions)
      .where(and(eq(queryExecutions.id, executionId), eq(queryExecutions.queryId, queryId)))
      .limit(1);
    return row;
  },

  async findById(db: DbOrTx, executionId: string): Promise<QueryExecutionRow | undefined> {
    const [row] = await db.select().from(queryExecutions).where(eq(queryExecutions.id, executionId)).limit(1);
    return row;
  },

  async latestForQuery(db: DbOrTx, queryId: string): Promise<QueryExecutionRow | undefined> {
    const [row] = await db
      .select()
      .from(queryExecutions)
      .where(eq(queryExecutions.queryId, queryId))
      .orderBy(desc(queryExecutions.createdAt), desc(queryExecutions.id))
      .limit(1);
    return row;
  },

  async finish(
    db: DbOrTx,
    id: string,
    outcome: { status: Extract<QueryExecutionStatus, 'SUCCEEDED' | 'FAILED'>; result?: QueryResult; error?: string; dataset?: string },
  ): Promise<QueryExecutionRow | undefined> {
    const [row] = await db
      .update(queryExecutions)
      .set({ status: outcome.status, result: outcome.result ?? null, error: outcome.error ?? null, dataset: outcome.dataset ?? null, finishedAt: new Date() })
      .where(and(eq(queryExecutions.id, id), eq(queryExecutions.status, 'RUNNING')))
      .returning();
    return row;
  },

  /** Marks as FAILED the RUNNING runs that started before `startedBefore` (any time, when null), and returns them. */
  async failInterrupted(tx: DbOrTx, startedBefore: Date | null, reason: string): Promise<QueryExecutionRow[]> {
    const running = eq(queryExecutions.status, 'RUNNING');
    return tx
      .update(queryExecutions)
      .set({ status: 'FAILED', error: reason, finishedAt: new Date() })
      .where(startedBefore ? and(running, lt(queryExecutions.startedAt, startedBefore)) : running)
      .returning();
  },
};
