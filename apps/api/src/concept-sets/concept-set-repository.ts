import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ConceptSetItem } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { cappedTotal } from '../db/paging';
import { conceptSets, conceptSetVersions, queryConceptSets, users } from '../db/schema';

export type ConceptSetRow = typeof conceptSets.$inferSelect;
export type ConceptSetVersionRow = typeof conceptSetVersions.$inferSelect;
/** A saved concept set with one of its versions (the newest unless another was asked for). */
export interface ConceptSetWithVersion {
  set: ConceptSetRow;
  ownerEmail: string | null;
  current: ConceptSetVersionRow;
  usedByQueries: number;
}

const ORDER_COLUMNS = { name: conceptSets.name, created_at: conceptSets.createdAt, updated_at: conceptSets.updatedAt } as const;

/** The only code that reads and writes concept_sets, concept_set_versions and query_concept_sets. */
export const conceptSetRepository = {
  async findById(db: DbOrTx, id: string): Promise<(ConceptSetRow & { ownerEmail: string | null }) | undefined> {
    const [row] = await db
      .select({ set: conceptSets, ownerEmail: users.email })
      .from(conceptSets)
      .leftJoin(users, eq(users.id, conceptSets.ownerId))
      .where(eq(conceptSets.id, id))
      .limit(1);
    return row && { ...row.set, ownerEmail: row.ownerEmail };
  },

  /** Locks the set until the transaction ends: versions are made one after the other, and a set in use is not deleted under a query being saved. */
  async findByIdForUpdate(db: DbOrTx, id: string): Promise<ConceptSetRow | undefined> {
    const [row] = await db.select().from(conceptSets).where(eq(conceptSets.id, id)).for('update').limit(1);
    return row;
  },

  /** Locks the sets against deletion (not against new versions) while a query that pins them is saved. */
  async findManyForShare(db: DbOrTx, ids: string[]): Promise<ConceptSetRow[]> {
    if (ids.length === 0) return [];
    return db.select().from(conceptSets).where(inArray(conceptSets.id, ids)).for('share');
  },

  async findVersion(db: DbOrTx, id: string, version: number): Promise<ConceptSetVersionRow | undefined> {
    const [row] = await db
      .select()
      .from(conceptSetVersions)
      .where(and(eq(conceptSetVersions.conceptSetId, id), eq(conceptSetVersions.version, version)))
      .limit(1);
    return row;
  },

  async versions(db: DbOrTx, id: string): Promise<ConceptSetVersionRow[]> {
    return db.select().from(conceptSetVersions).where(eq(conceptSetVersions.conceptSetId, id)).orderBy(desc(conceptSetVersions.version));
  },

  async insert(db: DbOrTx, values: { name: string; description: string; items: ConceptSetItem[]; ownerId: string }): Promise<ConceptSetRow> {
    const [row] = await db.insert(conceptSets).values({ name: values.name, ownerId: values.ownerId }).returning();
    await db.insert(conceptSetVersions).values({ conceptSetId: row!.id, version: 1, name: values.name, description: values.description, items: values.items, createdBy: values.ownerId });
    return row!;
  },

  /** Adds the next version; the set row follows it. */
  async addVersion(db: DbOrTx, set: ConceptSetRow, values: { name: string; description: string; items: ConceptSetItem[]; createdBy: string }): Promise<ConceptSetRow> {
    const version = set.version + 1;
    await db.insert(conceptSetVersions).values({ conceptSetId: set.id, version, ...values });
    const [row] = await db.update(conceptSets).set({ name: values.name, version, updatedAt: new Date() }).where(eq(conceptSets.id, set.id)).returning();
    return row!;
  },

  async delete(db: DbOrTx, id: string): Promise<void> {
    await db.delete(conceptSets).where(eq(conceptSets.id, id));
  },

  async countUses(db: DbOrTx, id: string): Promise<number> {
    const [row] = await db.select({ n: sql<number>`COUNT(DISTINCT ${queryConceptSets.queryId})` }).from(queryConceptSets).where(eq(queryConceptSets.conceptSetId, id));
    return Number(row?.n ?? 0);
  },

  async list(db: DbOrTx, filter: { ownerId?: string; search?: string; skip: number; limit: number; orderBy: string }) {
    const conditions = [];
    if (filter.ownerId) conditions.push(eq(conceptSets.ownerId, filter.ownerId));
    if (filter.search) conditions.push(sql`${conceptSets.name} ILIKE ${`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
    const where = conditions.length ? and(...conditions) : undefined;
    const descending = filter.orderBy.startsWith('-');
    const column = ORDER_COLUMNS[filter.orderBy.replace(/^-/, '') as keyof typeof ORDER_COLUMNS] ?? conceptSets.updatedAt;
    const [rows, total] = await Promise.all([
      db
        .select({ set: conceptSets, ownerEmail: users.email, current: conceptSetVersions })
        .from(conceptSets)
        .leftJoin(users, eq(users.id, conceptSets.ownerId))
        .innerJoin(conceptSetVersions, and(eq(conceptSetVersions.conceptSetId, conceptSets.id), eq(conceptSetVersions.version, conceptSets.version)))
        .where(where)
        .orderBy(descending ? desc(column) : asc(column), asc(conceptSets.id))
        .offset(filter.skip)
        .limit(filter.limit),
      cappedTotal(db, conceptSets, where),
    ]);
    const uses = await this.usesOf(db, rows.map((r) => r.set.id));
    return { rows: rows.map((r): ConceptSetWithVersion => ({ ...r, usedByQueries: uses.get(r.set.id) ?? 0 })), ...total };
  },

  async usesOf(db: DbOrTx, ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: queryConceptSets.conceptSetId, n: sql<number>`COUNT(DISTINCT ${queryConceptSets.queryId})` })
      .from(queryConceptSets)
      .where(inArray(queryConceptSets.conceptSetId, ids))
      .groupBy(queryConceptSets.conceptSetId);
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  },

  /** Records the set versions a query pins, replacing what it pinned before. */
  async setQueryPins(db: DbOrTx, queryId: string, pins: { conceptSetId: string; version: number }[]): Promise<void> {
    await db.delete(queryConceptSets).where(eq(queryConceptSets.queryId, queryId));
    const unique = [...new Map(pins.map((p) => [`${p.conceptSetId}:${p.version}`, p])).values()];
    if (unique.length > 0) await db.insert(queryConceptSets).values(unique.map((p) => ({ queryId, ...p })));
  },

  /** Per query: the pinned sets whose newest version is newer than the pin. */
  async newerVersionsFor(db: DbOrTx, queryIds: string[]): Promise<Map<string, { conceptSetId: string; name: string; pinned: number; latest: number }[]>> {
    const result = new Map<string, { conceptSetId: string; name: string; pinned: number; latest: number }[]>();
    if (queryIds.length === 0) return result;
    const rows = await db
      .select({ queryId: queryConceptSets.queryId, conceptSetId: conceptSets.id, name: conceptSets.name, pinned: queryConceptSets.version, latest: conceptSets.version })
      .from(queryConceptSets)
      .innerJoin(conceptSets, eq(conceptSets.id, queryConceptSets.conceptSetId))
      .where(and(inArray(queryConceptSets.queryId, queryIds), sql`${conceptSets.version} > ${queryConceptSets.version}`))
      .orderBy(asc(conceptSets.name));
    for (const row of rows) result.set(row.queryId, [...(result.get(row.queryId) ?? []), row]);
    return result;
  },
};
