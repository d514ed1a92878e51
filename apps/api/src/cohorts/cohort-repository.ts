import { and, arrayContains, asc, desc, eq, getTableColumns, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CohortStatus } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { cappedTotal } from '../db/paging';
import { cohorts, cohortVersions, queries, users } from '../db/schema';

export type CohortRow = typeof cohorts.$inferSelect;
export type CohortVersionRow = typeof cohortVersions.$inferSelect;

/** A cohort with the people and the query it names. */
export interface CohortView extends CohortRow {
  authorEmail: string | null;
  publishedByEmail: string | null;
  sourceQuery: { id: string; name: string; version: number; ownerId: string } | null;
  /** The persons of the published version (null while none is published). */
  publishedPersonCount: number | null;
  /** The warehouse schema the published version was taken from (null while none is published): it can be released only while that schema is served. */
  publishedDatasetSchema: string | null;
}

export type CohortVersionView = Omit<CohortVersionRow, 'result'> & { createdByEmail: string | null };

/** Who is looking: stewards see every cohort; anyone else published ones and their own. */
export type CohortVisibility = { all: true } | { all: false; userId: string };

export interface CohortListFilter {
  visibility: CohortVisibility;
  search?: string;
  status?: CohortStatus;
  /** Only published cohorts whose newest version awaits review. */
  awaitingReview?: boolean;
  tags?: string[];
  skip: number;
  limit: number;
  orderBy: string;
  /** Counts below it are shown as "< threshold"; sorting by size treats them as equal, so it reveals nothing more. */
  threshold: number;
}

const publisher = alias(users, 'publisher');
const publishedVersion = alias(cohortVersions, 'published_version');
const ORDER_COLUMNS = { name: cohorts.name, created_at: cohorts.createdAt, updated_at: cohorts.updatedAt } as const;
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function visibleTo(visibility: CohortVisibility): SQL | undefined {
  return visibility.all ? undefined : or(eq(cohorts.status, 'PUBLISHED'), eq(cohorts.authorId, visibility.userId));
}

function selectViews(db: DbOrTx) {
  return db
    .select({
      cohort: cohorts,
      authorEmail: users.email,
      publishedByEmail: publisher.email,
      queryName: queries.name,
      queryVersion: queries.version,
      queryOwnerId: queries.ownerId,
      publishedPersonCount: publishedVersion.personCount,
      publishedDatasetSchema: publishedVersion.datasetSchema,
    })
    .from(cohorts)
    .leftJoin(users, eq(users.id, cohorts.authorId))
    .leftJoin(publisher, eq(publisher.id, cohorts.publishedBy))
    .leftJoin(publishedVersion, and(eq(publishedVersion.cohortId, cohorts.id), eq(publishedVersion.version, cohorts.publishedVersion)))
    .leftJoin(queries, eq(queries.id, cohorts.queryId));
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof selectViews>['execute']>>[number];

function toView(row: ViewRow): CohortView {
  const { cohort } = row;
  return {
    ...cohort,
    authorEmail: row.authorEmail,
    publishedByEmail: row.publishedByEmail,
    publishedPersonCount: row.publishedPersonCount,
    publishedDatasetSchema: row.publishedDatasetSchema,
    sourceQuery:
      cohort.queryId && row.queryName !== null
        ? { id: cohort.queryId, name: row.queryName, version: row.queryVersion!, ownerId: row.queryOwnerId! }
        : null,
  };
}

/** The only code that reads and writes the cohorts and cohort_versions tables. */
export const cohortRepository = {
  async findById(db: DbOrTx, id: string): Promise<CohortView | undefined> {
    const [row] = await selectViews(db).where(eq(cohorts.id, id)).limit(1);
    return row && toView(row);
  },

  /** Locks the row until the transaction ends: versions and status changes go one after the other. */
  async findByIdForUpdate(db: DbOrTx, id: string): Promise<CohortRow | undefined> {
    const [row] = await db.select().from(cohorts).where(eq(cohorts.id, id)).for('update').limit(1);
    return row;
  },

  async insert(
    db: DbOrTx,
    values: { name: string; description: string; tags: string[]; queryId: string; personCount: number; authorId: string },
  ): Promise<CohortRow> {
    const [row] = await db.insert(cohorts).values(values).returning();
    return row!;
  },

  async update(db: DbOrTx, id: string, changes: Partial<Pick<CohortRow, 'name' | 'description' | 'tags' | 'status' | 'version' | 'personCount' | 'publishedAt' | 'publishedBy' | 'publishedVersion'>>): Promise<void> {
    await db.update(cohorts).set({ ...changes, updatedAt: new Date() }).where(eq(cohorts.id, id));
  },

  async insertVersion(db: DbOrTx, values: typeof cohortVersions.$inferInsert): Promise<void> {
    await db.insert(cohortVersions).values(values);
  },

  /** Every version of a cohort, newest first, without the stored results. */
  async versions(db: DbOrTx, cohortId: string): Promise<CohortVersionView[]> {
    const { result: _result, ...columns } = getTableColumns(cohortVersions);
    const rows = await db
      .select({ version: columns, createdByEmail: users.email })
      .from(cohortVersions)
      .leftJoin(users, eq(users.id, cohortVersions.createdBy))
      .where(eq(cohortVersions.cohortId, cohortId))
      .orderBy(desc(cohortVersions.version));
    return rows.map((r) => ({ ...r.version, createdByEmail: r.createdByEmail }));
  },

  async findVersion(db: DbOrTx, cohortId: string, version: number): Promise<CohortVersionRow | undefined> {
    const [row] = await db
      .select()
      .from(cohortVersions)
      .where(and(eq(cohortVersions.cohortId, cohortId), eq(cohortVersions.version, version)))
      .limit(1);
    return row;
  },

  async findVersionById(db: DbOrTx, id: string): Promise<CohortVersionRow | undefined> {
    const [row] = await db.select().from(cohortVersions).where(eq(cohortVersions.id, id)).limit(1);
    return row;
  },

  async list(db: DbOrTx, filter: CohortListFilter): Promise<{ rows: CohortView[]; total: number; total_capped: boolean }> {
    const conditions: (SQL | undefined)[] = [visibleTo(filter.visibility)];
    if (filter.status) conditions.push(eq(cohorts.status, filter.status));
    if (filter.awaitingReview) {
      conditions.push(and(eq(cohorts.status, 'PUBLISHED'), sql`${cohorts.version} > ${cohorts.publishedVersion}`));
      // A version awaiting review is shown to its author and stewards only: nobody else learns it exists.
      if (!filter.visibility.all) conditions.push(eq(cohorts.authorId, filter.visibility.userId));
    }
    if (filter.tags?.length) conditions.push(arrayContains(cohorts.tags, filter.tags));
    if (filter.search) {
      const pattern = likePattern(filter.search);
      conditions.push(or(ilike(cohorts.name, pattern), ilike(cohorts.description, pattern)));
    }
    const where = and(...conditions);
    const descending = filter.orderBy.startsWith('-');
    const key = filter.orderBy.replace(/^-/, '');
    // Researchers see (and sort by) the published version of other people's cohorts, never a newer one awaiting review.
    const shownCount = filter.visibility.all
      ? sql`${cohorts.personCount}`
      : sql`CASE WHEN ${cohorts.authorId} = ${filter.visibility.userId} OR ${publishedVersion.personCount} IS NULL THEN ${cohorts.personCount} ELSE ${publishedVersion.personCount} END`;
    const column =
      key === 'person_count'
        ? sql`CASE WHEN ${shownCount} < ${filter.threshold} THEN 0 ELSE ${shownCount} END`
        : (ORDER_COLUMNS[key as keyof typeof ORDER_COLUMNS] ?? cohorts.updatedAt);
    const [rows, total] = await Promise.all([
      selectViews(db)
        .where(where)
        .orderBy(descending ? desc(column) : asc(column), asc(cohorts.id))
        .offset(filter.skip)
        .limit(filter.limit),
      cappedTotal(db, cohorts, where),
    ]);
    return { rows: rows.map(toView), ...total };
  },

  /** Every tag on the cohorts `visibility` may see, sorted: the choices of the tag filter. */
  async tagsInUse(db: DbOrTx, visibility: CohortVisibility): Promise<string[]> {
    const where = visibleTo(visibility);
    const rows = await db
      .selectDistinct({ tag: sql<string>`unnest(${cohorts.tags})`.as('tag') })
      .from(cohorts)
      .where(where)
      .orderBy(sql`1`);
    return rows.map((r) => r.tag);
  },
};
