import { and, asc, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { NOTEBOOK_ORDERS } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { cappedTotal } from '../db/paging';
import { notebooks, users, type NotebookStatus } from '../db/schema';

export type NotebookRow = typeof notebooks.$inferSelect;

/** A notebook with the fields of its owner that the API shows. */
export interface NotebookView extends NotebookRow {
  ownerEmail: string;
  ownerName: string | null;
}

/** Statuses in which a notebook holds (or is about to hold, or still holds) the workbench's files. */
export const ACTIVE_NOTEBOOK_STATUSES: readonly NotebookStatus[] = ['PROVISIONING', 'STARTING', 'RUNNING', 'STOPPING', 'DELETING'];

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const ORDER_COLUMNS = { name: notebooks.name, created_at: notebooks.createdAt, updated_at: notebooks.updatedAt, status: notebooks.status } as const;

const viewColumns = { notebook: notebooks, ownerEmail: users.email, ownerName: users.name };

/** The only code that reads and writes the notebooks table. */
export const notebookRepository = {
  async insert(db: DbOrTx, values: typeof notebooks.$inferInsert): Promise<NotebookRow> {
    const [row] = await db.insert(notebooks).values(values).returning();
    return row!;
  },

  async setStatus(db: DbOrTx, id: string, status: NotebookStatus, reason: string | null = null): Promise<void> {
    await db.update(notebooks).set({ status, statusReason: reason, updatedAt: new Date() }).where(eq(notebooks.id, id));
  },

  /** Moves a notebook on only if it is still in `from` (a job and a request may race): whether it moved. */
  async moveStatus(db: DbOrTx, id: string, from: readonly NotebookStatus[], to: NotebookStatus, reason: string | null = null): Promise<boolean> {
    const moved = await db
      .update(notebooks)
      .set({ status: to, statusReason: reason, updatedAt: new Date() })
      .where(and(eq(notebooks.id, id), inArray(notebooks.status, [...from])))
      .returning({ id: notebooks.id });
    return moved.length > 0;
  },

  async findInWorkbench(db: DbOrTx, workbenchId: string, id: string): Promise<NotebookView | undefined> {
    const [row] = await db
      .select(viewColumns)
      .from(notebooks)
      .innerJoin(users, eq(users.id, notebooks.ownerId))
      .where(and(eq(notebooks.id, id), eq(notebooks.workbenchId, workbenchId)))
      .limit(1);
    return row && { ...row.notebook, ownerEmail: row.ownerEmail, ownerName: row.ownerName };
  },

  async findById(db: DbOrTx, id: string): Promise<NotebookRow | undefined> {
    const [row] = await db.select().from(notebooks).where(eq(notebooks.id, id)).limit(1);
    return row;
  },

  /** Locks the row for a status change. */
  async findByIdForUpdate(db: DbOrTx, id: string): Promise<NotebookRow | undefined> {
    const [row] = await db.select().from(notebooks).where(eq(notebooks.id, id)).for('update').limit(1);
    return row;
  },

  async list(
    db: DbOrTx,
    filter: { workbenchId: string; ownerId?: string; search?: string; orderBy: (typeof NOTEBOOK_ORDERS)[number]; skip: number; limit: number },
  ): Promise<{ rows: NotebookView[]; total: number; total_capped: boolean }> {
    const conditions: (SQL | undefined)[] = [eq(notebooks.workbenchId, filter.workbenchId)];
    if (filter.ownerId) conditions.push(eq(notebooks.ownerId, filter.ownerId));
    if (filter.search) conditions.push(ilike(notebooks.name, likePattern(filter.search)));
    const where = and(...conditions);
    const descending = filter.orderBy.startsWith('-');
    const column = ORDER_COLUMNS[filter.orderBy.replace(/^-/, '') as keyof typeof ORDER_COLUMNS];
    const [rows, total] = await Promise.all([
      db
        .select(viewColumns)
        .from(notebooks)
        .innerJoin(users, eq(users.id, notebooks.ownerId))
        .where(where)
        .orderBy(descending ? desc(column) : asc(column), asc(notebooks.id))
        .offset(filter.skip)
        .limit(filter.limit),
      cappedTotal(db, notebooks, where),
    ]);
    return { rows: rows.map((r) => ({ ...r.notebook, ownerEmail: r.ownerEmail, ownerName: r.ownerName })), ...total };
  },

  /** Notebooks in these statuses, across workbenches (the reconcile at start). */
  async withStatus(db: DbOrTx, statuses: readonly NotebookStatus[]): Promise<NotebookRow[]> {
    return db.select().from(notebooks).where(inArray(notebooks.status, [...statuses]));
  },

  async delete(db: DbOrTx, id: string): Promise<void> {
    await db.delete(notebooks).where(eq(notebooks.id, id));
  },

  /** A workbench's notebooks that are running or between states: they keep it from being deleted. */
  async activeInWorkbench(db: DbOrTx, workbenchId: string): Promise<Pick<NotebookRow, 'id' | 'name' | 'status'>[]> {
    return db
      .select({ id: notebooks.id, name: notebooks.name, status: notebooks.status })
      .from(notebooks)
      .where(and(eq(notebooks.workbenchId, workbenchId), inArray(notebooks.status, [...ACTIVE_NOTEBOOK_STATUSES])));
  },
};
