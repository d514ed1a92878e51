import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { LIST_TOTAL_CAP } from '@hdp/contract';
import type { DbOrTx } from './database';

/**
 * Counts the rows matching `where`, stopping after LIST_TOTAL_CAP: a broad filter over millions of
 * rows costs no more to count than a narrow one. Returns the total for the list answer.
 */
export async function cappedTotal(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  join?: { table: PgTable; on: SQL },
): Promise<{ total: number; total_capped: boolean }> {
  const base = db.select({ one: sql`1` }).from(table).$dynamic();
  const matches = (join ? base.leftJoin(join.table, join.on) : base).where(where).limit(LIST_TOTAL_CAP + 1).as('matches');
  const [row] = await db.select({ n: count() }).from(matches);
  const n = row?.n ?? 0;
  return n > LIST_TOTAL_CAP ? { total: LIST_TOTAL_CAP, total_capped: true } : { total: n, total_capped: false };
}
