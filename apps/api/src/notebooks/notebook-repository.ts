import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import { notebooks, type NotebookStatus } from '../db/schema';

export type NotebookRow = typeof notebooks.$inferSelect;

/** Statuses in which a notebook holds (or is about to hold, or still holds) the workbench's files. */
export const ACTIVE_NOTEBOOK_STATUSES: readonly NotebookStatus[] = ['PROVISIONING', 'STARTING', 'RUNNING', 'STOPPING', 'DELETING'];

/** The only code that reads and writes the notebooks table. */
export const notebookRepository = {
  async insert(db: DbOrTx, values: typeof notebooks.$inferInsert): Promise<NotebookRow> {
    const [row] = await db.insert(notebooks).values(values).returning();
    return row!;
  },

  async setStatus(db: DbOrTx, id: string, status: NotebookStatus, reason: string | null = null): Promise<void> {
    await db.update(notebooks).set({ status, statusReason: reason, updatedAt: new Date() }).where(eq(notebooks.id, id));
  },

  /** A workbench's notebooks that are running or between states: they keep it from being deleted. */
  async activeInWorkbench(db: DbOrTx, workbenchId: string): Promise<Pick<NotebookRow, 'id' | 'name' | 'status'>[]> {
    return db
      .select({ id: notebooks.id, name: notebooks.name, status: notebooks.status })
      .from(notebooks)
      .where(and(eq(notebooks.workbenchId, workbenchId), inArray(notebooks.status, [...ACTIVE_NOTEBOOK_STATUSES])));
  },
};
