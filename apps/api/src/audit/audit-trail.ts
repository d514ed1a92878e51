import { createHash } from 'node:crypto';
import { asc, gt, is, sql } from 'drizzle-orm';
import { PgliteTransaction } from 'drizzle-orm/pglite';
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

/**
 * Whether an append in `tx` must take the chain lock. On PostgreSQL it must: other connections and
 * processes append too. PGlite has a single connection that runs one transaction at a time (no other
 * statement runs until it commits) and one process owns its data directory, so nothing can append
 * in between: the lock would only cost a round trip on every audited request.
 */
const needsChainLock = (tx: DbOrTx) => !is(tx, PgliteTransaction);

type AuditRow = typeof auditLog.$inferSelect;
type HashedFields = Omit<AuditRow, 'hash'>;

/**
 * A string as the database will keep it: an unpaired surrogate becomes U+FFFD (what PostgreSQL
 * stores for it anyway) and U+0000, which text and jsonb refuse, becomes U+FFFD too. Applied to
 * every string before an entry is hashed and stored, so the hash covers exactly what is kept;
 * strings read back from the database are unchanged by it, so stored entries hash as before.
 */
export const storableText = (text: string) => text.toWellFormed().replaceAll('\u0000', '\uFFFD');

/** A piece of output already serialised, on the serialiser's work stack among values still to serialise. */
class Emit {
  constructor(readonly text: string) {}
}
const COMMA = new Emit(',');
const CLOSE_ARRAY = new Emit(']');
const CLOSE_OBJECT = new Emit('}');

/**
 * JSON with object keys sorted and strings made storable, so that a value hashes the same after
 * a round trip through jsonb. Built with an explicit work stack, not recursion: any entry already
 * in the chain can be hashed again however deep its details, whatever the process's stack.
 */
export function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [root];
  while (work.length > 0) {
    const value = work.pop();
    if (value instanceof Emit) {
      out.push(value.text);
    } else if (typeof value === 'string') {
      out.push(JSON.stringify(storableText(value)));
    } else if (Array.isArray(value)) {
      out.push('[');
      work.push(CLOSE_ARRAY);
      for (let i = value.length - 1; i >= 0; i--) {
        work.push(i in value ? (value[i] ?? null) : new Emit(''));
        if (i > 0) work.push(COMMA);
      }
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out.push('{');
      work.push(CLOSE_OBJECT);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i]!;
        work.push(v);
        work.push(new Emit(`${JSON.stringify(storableText(key))}:`));
        if (i > 0) work.push(COMMA);
      }
    } else {
      out.push(JSON.stringify(value ?? null));
    }
  }
  return out.join('');
}

/** A deep copy of audit details with every string and key made storable (see `storableText`), without recursion. */
function storableDetails(details: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const work: { from: unknown; into: Record<string, unknown> | unknown[] }[] = [{ from: details, into: root }];
  const copy = (value: unknown): unknown => {
    if (typeof value === 'string') return storableText(value);
    if (value instanceof Date) return value.toISOString();
    if (value === null || typeof value !== 'object') return value;
    const into: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
    work.push({ from: value, into });
    return into;
  };
  while (work.length > 0) {
    const { from, into } = work.pop()!;
    if (Array.isArray(from)) for (const item of from) (into as unknown[]).push(copy(item));
    else for (const [key, value] of Object.entries(from as Record<string, unknown>)) (into as Record<string, unknown>)[storableText(key)] = copy(value);
  }
  return root;
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
 * The last entry, which the next one chains onto. Written once as SQL rather than through the query
 * builder: it runs on every audited request, and building the select each time took about a third
 * of the time the read took.
 */
const CHAIN_HEAD = sql`select ${auditLog.seq} as seq, ${auditLog.hash} as hash from ${auditLog} order by ${auditLog.seq} desc limit 1`;

const storableOrNull = (text: string | null | undefined) => (text == null ? null : storableText(text));

/**
 * Appends one entry inside the caller's transaction, so the entry commits or rolls back with
 * the change it records. Returns the entry's sequence number.
 */
export async function appendAuditEntry(tx: DbOrTx, context: AuditContext, event: AuditEvent): Promise<number> {
  if (needsChainLock(tx)) await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK_KEY})`);
  const { rows } = (await tx.execute(CHAIN_HEAD)) as unknown as { rows: { seq: number | string; hash: string }[] };
  const last = rows[0];
  const entry: HashedFields = {
    // bigint arrives as a string from node-postgres, as a number from PGlite.
    seq: Number(last?.seq ?? 0) + 1,
    occurredAt: new Date(),
    actorId: context.actorId ?? null,
    actorEmail: storableOrNull(context.actorEmail),
    eventType: event.eventType,
    resourceType: storableOrNull(event.resourceType),
    resourceId: storableOrNull(event.resourceId),
    outcome: event.outcome,
    message: storableText(event.message),
    clientAddress: storableOrNull(context.clientAddress),
    userAgent: storableOrNull(context.userAgent),
    requestId: storableOrNull(context.requestId),
    details: storableDetails(event.details ?? {}),
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
