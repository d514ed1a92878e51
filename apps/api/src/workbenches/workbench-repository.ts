import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReleaseState, WorkbenchMemberRole } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { cappedTotal } from '../db/paging';
import { cohorts, cohortVersions, users, workbenchCohorts, workbenchDocuments, workbenchMembers, workbenchQueries, workbenches } from '../db/schema';

export type WorkbenchRow = typeof workbenches.$inferSelect;
export type WorkbenchReleaseRow = typeof workbenchCohorts.$inferSelect;
export type WorkbenchQueryRow = typeof workbenchQueries.$inferSelect;
export type WorkbenchDocumentRow = typeof workbenchDocuments.$inferSelect;

/** A workbench with the people it names and the state of its releases. */
export interface WorkbenchView extends WorkbenchRow {
  createdByEmail: string | null;
  updatedByEmail: string | null;
  /** READY, PROVISIONING while any release is pending or being written, FAILED when one failed. */
  state: ReleaseState;
}

export interface WorkbenchSummaryView extends WorkbenchView {
  myRole: WorkbenchMemberRole | null;
  memberCount: number;
  cohortCount: number;
  queryCount: number;
  documentCount: number;
}

export interface MemberView {
  userId: string;
  email: string;
  name: string | null;
  role: WorkbenchMemberRole;
}

/** A release with what the cohort says of itself now. */
export interface ReleaseView extends WorkbenchReleaseRow {
  cohortName: string;
  tags: string[];
  latestVersion: number;
  personCount: number;
  /** Whether the cohort is still published, and the persons and warehouse schema of its newest published version. */
  cohortPublished: boolean;
  latestPersonCount: number | null;
  latestDatasetSchema: string | null;
}

const latestPublished = alias(cohortVersions, 'latest_published');

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const stateOf = sql<ReleaseState>`coalesce((
  select case when bool_or(${workbenchCohorts.state} = 'FAILED') then 'FAILED'
              when bool_or(${workbenchCohorts.state} in ('PENDING', 'PROVISIONING')) then 'PROVISIONING'
              else 'READY' end
  from ${workbenchCohorts} where ${workbenchCohorts.workbenchId} = ${workbenches.id}), 'READY')`;

const countOf = (table: typeof workbenchMembers | typeof workbenchCohorts | typeof workbenchQueries | typeof workbenchDocuments) =>
  sql<number>`(select count(*)::int from ${table} where ${table.workbenchId} = ${workbenches.id})`;

function selectViews(db: DbOrTx) {
  return db
    .select({ workbench: workbenches, createdByEmail: creator.email, updatedByEmail: updater.email, state: stateOf })
    .from(workbenches)
    .leftJoin(creator, eq(creator.id, workbenches.createdBy))
    .leftJoin(updater, eq(updater.id, workbenches.updatedBy));
}

/** The only code that reads and writes the workbench tables. */
export const workbenchRepository = {
  async findById(db: DbOrTx, id: string): Promise<WorkbenchView | undefined> {
    const [row] = await selectViews(db).where(eq(workbenches.id, id)).limit(1);
    return row && { ...row.workbench, createdByEmail: row.createdByEmail, updatedByEmail: row.updatedByEmail, state: row.state };
  },

  /** Locks the row until the transaction ends: updates and deletion go one after the other. */
  async findByIdForUpdate(db: DbOrTx, id: string): Promise<WorkbenchRow | undefined> {
    const [row] = await db.select().from(workbenches).where(eq(workbenches.id, id)).for('update').limit(1);
    return row;
  },

  async insert(db: DbOrTx, values: { name: string; purpose: string; createdBy: string }): Promise<WorkbenchRow> {
    const [row] = await db.insert(workbenches).values({ ...values, updatedBy: values.createdBy }).returning();
    return row!;
  },

  /** Records an update: the new name and purpose, who, and one more version. */
  async update(db: DbOrTx, id: string, values: { name: string; purpose: string; updatedBy: string }): Promise<void> {
    await db
      .update(workbenches)
      .set({ ...values, version: sql`${workbenches.version} + 1`, updatedAt: new Date() })
      .where(eq(workbenches.id, id));
  },

  async delete(db: DbOrTx, id: string): Promise<void> {
    await db.delete(workbenches).where(eq(workbenches.id, id));
  },

  /** Whether one of `userId`'s workbenches (other than `exceptId`) already has this name, ignoring case. */
  /** The name, as written, of a workbench of the user's named like `name` ignoring case; null when there is none. */
  async nameTaken(db: DbOrTx, userId: string, name: string, exceptId?: string): Promise<string | null> {
    const [row] = await db
      .select({ name: workbenches.name })
      .from(workbenches)
      .innerJoin(workbenchMembers, and(eq(workbenchMembers.workbenchId, workbenches.id), eq(workbenchMembers.userId, userId)))
      .where(and(sql`lower(${workbenches.name}) = lower(${name})`, exceptId ? ne(workbenches.id, exceptId) : undefined))
      .limit(1);
    return row?.name ?? null;
  },

  async list(
    db: DbOrTx,
    filter: { memberId?: string; viewerId: string; search?: string; skip: number; limit: number },
  ): Promise<{ rows: WorkbenchSummaryView[]; total: number; total_capped: boolean }> {
    const conditions: (SQL | undefined)[] = [];
    if (filter.memberId) {
      conditions.push(
        sql`exists (select 1 from ${workbenchMembers} where ${workbenchMembers.workbenchId} = ${workbenches.id} and ${workbenchMembers.userId} = ${filter.memberId})`,
      );
    }
    if (filter.search) {
      const pattern = likePattern(filter.search);
      conditions.push(or(ilike(workbenches.name, pattern), ilike(workbenches.purpose, pattern)));
    }
    const where = and(...conditions);
    // The page's ids first: PostgreSQL would otherwise work out the counts of every row skipped by the offset.
    const page = db
      .select({ id: workbenches.id })
      .from(workbenches)
      .where(where)
      .orderBy(desc(workbenches.updatedAt), asc(workbenches.id))
      .offset(filter.skip)
      .limit(filter.limit)
      .as('page');
    const [rows, total] = await Promise.all([
      db
        .select({
          workbench: workbenches,
          createdByEmail: creator.email,
          updatedByEmail: updater.email,
          state: stateOf,
          myRole: sql<WorkbenchMemberRole | null>`(select ${workbenchMembers.role} from ${workbenchMembers} where ${workbenchMembers.workbenchId} = ${workbenches.id} and ${workbenchMembers.userId} = ${filter.viewerId})`,
          memberCount: countOf(workbenchMembers),
          cohortCount: countOf(workbenchCohorts),
          queryCount: countOf(workbenchQueries),
          documentCount: countOf(workbenchDocuments),
        })
        .from(workbenches)
        .innerJoin(page, eq(page.id, workbenches.id))
        .leftJoin(creator, eq(creator.id, workbenches.createdBy))
        .leftJoin(updater, eq(updater.id, workbenches.updatedBy))
        .orderBy(desc(workbenches.updatedAt), asc(workbenches.id)),
      cappedTotal(db, workbenches, where),
    ]);
    return {
      rows: rows.map(({ workbench, ...rest }) => ({ ...workbench, ...rest })),
      ...total,
    };
  },

  // Members

  async members(db: DbOrTx, workbenchId: string): Promise<MemberView[]> {
    return db
      .select({ userId: workbenchMembers.userId, email: users.email, name: users.name, role: workbenchMembers.role })
      .from(workbenchMembers)
      .innerJoin(users, eq(users.id, workbenchMembers.userId))
      .where(eq(workbenchMembers.workbenchId, workbenchId))
      .orderBy(asc(users.email));
  },

  async memberRole(db: DbOrTx, workbenchId: string, userId: string): Promise<WorkbenchMemberRole | undefined> {
    const [row] = await db
      .select({ role: workbenchMembers.role })
      .from(workbenchMembers)
      .where(and(eq(workbenchMembers.workbenchId, workbenchId), eq(workbenchMembers.userId, userId)))
      .limit(1);
    return row?.role;
  },

  async setMember(db: DbOrTx, workbenchId: string, userId: string, role: WorkbenchMemberRole): Promise<void> {
    await db
      .insert(workbenchMembers)
      .values({ workbenchId, userId, role })
      .onConflictDoUpdate({ target: [workbenchMembers.workbenchId, workbenchMembers.userId], set: { role } });
  },

  async removeMember(db: DbOrTx, workbenchId: string, userId: string): Promise<void> {
    await db.delete(workbenchMembers).where(and(eq(workbenchMembers.workbenchId, workbenchId), eq(workbenchMembers.userId, userId)));
  },

  // Released cohorts

  async releases(db: DbOrTx, workbenchId: string): Promise<ReleaseView[]> {
    const rows = await db
      .select({
        release: workbenchCohorts,
        cohortName: cohorts.name,
        tags: cohorts.tags,
        latestVersion: sql<number>`coalesce(${cohorts.publishedVersion}, ${cohorts.version})`,
        personCount: cohortVersions.personCount,
        cohortPublished: sql<boolean>`${cohorts.status} = 'PUBLISHED'`,
        latestPersonCount: latestPublished.personCount,
        latestDatasetSchema: latestPublished.datasetSchema,
      })
      .from(workbenchCohorts)
      .innerJoin(cohorts, eq(cohorts.id, workbenchCohorts.cohortId))
      .innerJoin(cohortVersions, eq(cohortVersions.id, workbenchCohorts.cohortVersionId))
      .leftJoin(latestPublished, and(eq(latestPublished.cohortId, cohorts.id), eq(latestPublished.version, sql`coalesce(${cohorts.publishedVersion}, ${cohorts.version})`)))
      .where(eq(workbenchCohorts.workbenchId, workbenchId))
      .orderBy(asc(workbenchCohorts.releasedAt), asc(workbenchCohorts.id));
    return rows.map(({ release, ...rest }) => ({ ...release, ...rest }));
  },

  async findRelease(db: DbOrTx, id: string): Promise<WorkbenchReleaseRow | undefined> {
    const [row] = await db.select().from(workbenchCohorts).where(eq(workbenchCohorts.id, id)).limit(1);
    return row;
  },

  async findReleaseForUpdate(db: DbOrTx, id: string): Promise<WorkbenchReleaseRow | undefined> {
    const [row] = await db.select().from(workbenchCohorts).where(eq(workbenchCohorts.id, id)).for('update').limit(1);
    return row;
  },

  async insertRelease(db: DbOrTx, values: typeof workbenchCohorts.$inferInsert): Promise<WorkbenchReleaseRow> {
    const [row] = await db.insert(workbenchCohorts).values(values).returning();
    return row!;
  },

  async updateRelease(
    db: DbOrTx,
    id: string,
    changes: Partial<Pick<WorkbenchReleaseRow, 'state' | 'progress' | 'error' | 'rowCounts'>>,
  ): Promise<void> {
    await db.update(workbenchCohorts).set(changes).where(eq(workbenchCohorts.id, id));
  },

  async deleteRelease(db: DbOrTx, id: string): Promise<void> {
    await db.delete(workbenchCohorts).where(eq(workbenchCohorts.id, id));
  },

  /** Folders under released/cohorts/ already used in a workbench. */
  async releaseDirectories(db: DbOrTx, workbenchId: string): Promise<string[]> {
    const rows = await db.select({ directory: workbenchCohorts.directory }).from(workbenchCohorts).where(eq(workbenchCohorts.workbenchId, workbenchId));
    return rows.map((r) => r.directory);
  },

  // Copied queries and documents

  async queries(db: DbOrTx, workbenchId: string): Promise<WorkbenchQueryRow[]> {
    return db.select().from(workbenchQueries).where(eq(workbenchQueries.workbenchId, workbenchId)).orderBy(asc(workbenchQueries.copiedAt), asc(workbenchQueries.id));
  },

  async insertQuery(db: DbOrTx, values: typeof workbenchQueries.$inferInsert): Promise<WorkbenchQueryRow> {
    const [row] = await db.insert(workbenchQueries).values(values).returning();
    return row!;
  },

  async deleteQueries(db: DbOrTx, ids: string[]): Promise<void> {
    if (ids.length) await db.delete(workbenchQueries).where(inArray(workbenchQueries.id, ids));
  },

  async documents(db: DbOrTx, workbenchId: string): Promise<WorkbenchDocumentRow[]> {
    return db
      .select()
      .from(workbenchDocuments)
      .where(eq(workbenchDocuments.workbenchId, workbenchId))
      .orderBy(asc(workbenchDocuments.copiedAt), asc(workbenchDocuments.id));
  },

  async insertDocument(db: DbOrTx, values: typeof workbenchDocuments.$inferInsert): Promise<WorkbenchDocumentRow> {
    const [row] = await db.insert(workbenchDocuments).values(values).returning();
    return row!;
  },

  async deleteDocuments(db: DbOrTx, ids: string[]): Promise<void> {
    if (ids.length) await db.delete(workbenchDocuments).where(inArray(workbenchDocuments.id, ids));
  },
};
