import { createHash } from 'node:crypto';
import { asc, desc, gt, sql } from 'drizzle-orm';
import type { AuditEventType, AuditOutcome } from '@hdp/contract';
import type { Database, DbOrTx } from '../db/database';
import { auditLog } from '../db/schema';

/** Who did it and from where; taken from the request. */
export interface AuditContext {
  actorId?: string | null;
  actorEmail?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

/** What happened. */
export interface AuditEvent {
  eventType: AuditEventType;
  outcome: AuditOutcome;
  message: string;
  resourceType?: string | null;
  resourceId?: string | null;
  details?: Record<string, unknown>;
}

export const GENESIS_HASH = '0'.repeat(64);
/** Serialises appends so that every entry chains onto the one before it, across processes. */
const AUDIT_CHAIN_LOCK_KEY = 72_410_002;

type AuditRow = typeof auditLog.$inferSelect;
type HashedFields = Omit<AuditRow, 'hash'>;

/** JSON with object keys sorted, so that a value hashes the same after a round trip through jsonb. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash of one entry: its fields, in a fixed order, and the previous entry's hash. */
export function hashAuditEntry(entry: HashedFields): string {
  const fields = [
    entry.seq,
    entry.occurredAt.toISOString(),
    entry.actorId,
    entry.actorEmail,
    entry.eventType,
    entry.resourceType,
    entry.resourceId,
    entry.outcome,
    entry.message,
    entry.clientAddress,
    entry.userAgent,
    entry.requestId,
    entry.details,
    entry.prevHash,
  ];
  return createHash('sha256').update(canonicalJson(fields)).digest('hex');
}

/**
 * Appends one entry inside the caller's transaction, so the entry commits or rolls back with
 * the change it records. Returns the entry's sequence number.
 */
export async function appendAuditEntry(tx: DbOrTx, context: AuditContext, event: AuditEvent): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK_KEY})`);
  const [last] = await tx
    .select({ seq: auditLog.seq, hash: auditLog.hash })
    .from(auditLog)
    .orderBy(desc(auditLog.seq))
    .limit(1);
  const entry: HashedFields = {
    seq: (last?.seq ?? 0) + 1,
    occurredAt: new Date(),
    actorId: context.actorId ?? null,
    actorEmail: context.actorEmail ?? null,
    eventType: event.eventType,
    resourceType: event.resourceType ?? null,
    resourceId: event.resourceId ?? null,
    outcome: event.outcome,
    message: event.message,
    clientAddress: context.clientAddress ?? null,
    userAgent: context.userAgent ?? null,
    requestId: context.requestId ?? null,
    details: event.details ?? {},
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  await tx.insert(auditLog).values({ ...entry, hash: hashAuditEntry(entry) });
  return entry.seq;
}

/** Records an event that changes nothing else (a denial, a failed sign-in) in its own transaction. */
export async function recordAuditEvent(db: Database, context: AuditContext, event: AuditEvent): Promise<number> {
  return db.transaction((tx) => appendAuditEntry(tx, context, event));
}

export interface AuditChainReport {
  ok: boolean;
  /** How many entries were checked. */
  entries: number;
  /** The last sequence number up to which the chain is intact (null when empty or broken at the first). */
  verifiedUpTo: number | null;
  /** The first broken link, when there is one. */
  firstBroken?: { seq: number; reason: string };
}

/** Walks the whole chain in order and reports the first broken link. */
export async function verifyAuditChain(db: Database, batchSize = 5000): Promise<AuditChainReport> {
  let previousHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(gt(auditLog.seq, expectedSeq - 1))
      .orderBy(asc(auditLog.seq))
      .limit(batchSize);
    for (const row of rows) {
      const broken = (seq: number, reason: string): AuditChainReport => ({
        ok: false,
        entries: checked,
        verifiedUpTo: expectedSeq > 1 ? expectedSeq - 1 : null,
        firstBroken: { seq, reason },
      });
      if (row.seq !== expectedSeq) return broken(expectedSeq, `entries ${expectedSeq} to ${row.seq - 1} are missing`);
      if (row.prevHash !== previousHash) return broken(row.seq, 'prev_hash does not match the hash of the entry before it');
      const { hash, ...fields } = row;
      if (hashAuditEntry(fields) !== hash) return broken(row.seq, 'the entry was changed after it was written (hash mismatch)');
      previousHash = hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (rows.length < batchSize) break;
  }
  return { ok: true, entries: checked, verifiedUpTo: checked > 0 ? expectedSeq - 1 : null };
}
