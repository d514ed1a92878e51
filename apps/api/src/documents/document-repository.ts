import { asc, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import { cappedTotal } from '../db/paging';
import { documents, users } from '../db/schema';

export type DocumentRow = typeof documents.$inferSelect;
export type DocumentWithOwner = DocumentRow & { ownerEmail: string };

const ORDER_COLUMNS = { created_at: documents.createdAt, name: documents.originalName, size_bytes: documents.sizeBytes } as const;

const withOwner = {
  id: documents.id,
  ownerId: documents.ownerId,
  originalName: documents.originalName,
  contentType: documents.contentType,
  sizeBytes: documents.sizeBytes,
  sha256: documents.sha256,
  scanStatus: documents.scanStatus,
  storageKey: documents.storageKey,
  createdAt: documents.createdAt,
  ownerEmail: users.email,
};

/** The only code that reads and writes the documents table. */
export const documentRepository = {
  async insert(db: DbOrTx, values: typeof documents.$inferInsert): Promise<DocumentRow> {
    const [row] = await db.insert(documents).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, id: string): Promise<DocumentWithOwner | undefined> {
    const [row] = await db.select(withOwner).from(documents).innerJoin(users, eq(users.id, documents.ownerId)).where(eq(documents.id, id)).limit(1);
    return row;
  },

  async delete(db: DbOrTx, id: string): Promise<void> {
    await db.delete(documents).where(eq(documents.id, id));
  },

  /** One owner's documents, or everyone's when `ownerId` is null. */
  async list(
    db: DbOrTx,
    filter: { ownerId: string | null; skip: number; limit: number; orderBy: string },
  ): Promise<{ rows: DocumentWithOwner[]; total: number; total_capped: boolean }> {
    const where = filter.ownerId ? eq(documents.ownerId, filter.ownerId) : undefined;
    const column = ORDER_COLUMNS[filter.orderBy.replace(/^-/, '') as keyof typeof ORDER_COLUMNS] ?? documents.createdAt;
    const direction = filter.orderBy.startsWith('-') ? desc : asc;
    const [rows, total] = await Promise.all([
      db
        .select(withOwner)
        .from(documents)
        .innerJoin(users, eq(users.id, documents.ownerId))
        .where(where)
        .orderBy(direction(column), direction(documents.id))
        .offset(filter.skip)
        .limit(filter.limit),
      cappedTotal(db, documents, where),
    ]);
    return { rows, ...total };
  },
};
