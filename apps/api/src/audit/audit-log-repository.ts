import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditEventType, AuditOutcome } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { cappedTotal } from '../db/paging';
import { auditLog } from '../db/schema';

export type AuditRow = typeof auditLog.$inferSelect;

export interface AuditLogFilter {
  skip: number;
  limit: number;
  search?: string;
  eventTypes?: AuditEventType[];
  outcomes?: AuditOutcome[];
  /** Inclusive lower bound. */
  from?: Date;
  /** Exclusive upper bound. */
  until?: Date;
  order: 'TIMESTAMP_DESC' | 'TIMESTAMP_ASC';
}

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Reads the audit log. (Appending is audit-trail.ts; nothing updates or deletes.) */
export const auditLogRepository = {
  async list(db: DbOrTx, filter: AuditLogFilter): Promise<{ rows: AuditRow[]; total: number; total_capped: boolean }> {
    const conditions: SQL[] = [];
    if (filter.eventTypes?.length) conditions.push(inArray(auditLog.eventType, filter.eventTypes));
    if (filter.outcomes?.length) conditions.push(inArray(auditLog.outcome, filter.outcomes));
    if (filter.from) conditions.push(gte(auditLog.occurredAt, filter.from));
    if (filter.until) conditions.push(lt(auditLog.occurredAt, filter.until));
    if (filter.search) {
      // Served by the trigram index of migration 0005 on the same expression.
      const pattern = `%${escapeLike(filter.search.toLowerCase())}%`;
      conditions.push(sql`(${auditLog.message} || ' ' || coalesce(${auditLog.actorEmail}, '')) ilike ${pattern}`);
    }
    const where = conditions.length ? and(...conditions) : undefined;
    // Time first, so date ranges and order share the time indexes; the sequence breaks ties.
    const direction = filter.order === 'TIMESTAMP_ASC' ? asc : desc;
    const order = [direction(auditLog.occurredAt), direction(auditLog.seq)];
    const [rows, total] = await Promise.all([
      db.select().from(auditLog).where(where).orderBy(...order).offset(filter.skip).limit(filter.limit),
      cappedTotal(db, auditLog, where),
    ]);
    return { rows, ...total };
  },

  /** The entry that recorded an event on a resource (the newest, if several): e.g. who deleted a workbench, and when. */
  async lastEventOn(db: DbOrTx, eventType: AuditEventType, resourceId: string): Promise<AuditRow | undefined> {
    const [row] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.eventType, eventType), eq(auditLog.resourceId, resourceId), eq(auditLog.outcome, 'SUCCESS')))
      .orderBy(desc(auditLog.occurredAt))
      .limit(1);
    return row;
  },
};
