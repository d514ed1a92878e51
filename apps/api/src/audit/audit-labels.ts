import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import { cohorts, queries, workbenches } from '../db/schema';

/**
 * How audit messages name things: by name, with the id beside it (`workbench "Scratch bench"
 * (75ba3c78-…)`), so that an auditor reads and searches names while the id stays exact. The name is
 * the one it had when the event happened; an unknown id is named by itself.
 */
async function nameOf(db: DbOrTx, table: typeof workbenches | typeof cohorts | typeof queries, id: string): Promise<string | null> {
  const [row] = await db.select({ name: table.name }).from(table).where(eq(table.id, id)).limit(1);
  return row?.name ?? null;
}

const label = (kind: string, name: string | null, id: string) => (name === null ? `${kind} ${id}` : `${kind} "${name}" (${id})`);

export const workbenchLabel = async (db: DbOrTx, id: string) => label('workbench', await nameOf(db, workbenches, id), id);
export const cohortLabel = async (db: DbOrTx, id: string) => label('cohort', await nameOf(db, cohorts, id), id);
export const queryLabel = async (db: DbOrTx, id: string) => label('query', await nameOf(db, queries, id), id);
