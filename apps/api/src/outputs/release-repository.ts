import { and, asc, count, desc, eq, inArray, notExists, sql, type SQL } from 'drizzle-orm';
import { RELEASE_REVIEW_STATES, type ReleaseRequestState } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { releaseComments, releaseFiles, releaseGroups, releaseRequests, releaseReviews, releaseVotes, users, workbenchMembers, workbenches } from '../db/schema';

export type ReleaseRequestRow = typeof releaseRequests.$inferSelect;
export type ReleaseGroupRow = typeof releaseGroups.$inferSelect;
export type ReleaseFileRow = typeof releaseFiles.$inferSelect;

export interface PersonView {
  id: string;
  email: string;
  name: string | null;
}

/** A request with its workbench's name and its author. */
export interface ReleaseRequestView extends ReleaseRequestRow {
  workbenchName: string;
  author: PersonView;
  fileCount: number;
  reviewsIn: number;
}

export interface VoteView {
  fileId: string;
  reviewer: PersonView;
  vote: 'APPROVE' | 'CHANGES';
  comment: string | null;
  votedAt: Date;
}

export interface CommentView {
  id: string;
  fileId: string | null;
  author: PersonView;
  visibility: 'PRIVATE' | 'PUBLIC';
  body: string;
  createdAt: Date;
}

const person = { id: users.id, email: users.email, name: users.name };

/** Complete reviews of the request's current round (submitted by distinct checkers). */
const reviewsInRound = sql<number>`(select count(*) from ${releaseReviews} where ${releaseReviews.requestId} = ${releaseRequests.id} and ${releaseReviews.round} = ${releaseRequests.round})`.mapWith(Number);
const filesOfRequest = sql<number>`(select count(*) from ${releaseFiles} where ${releaseFiles.requestId} = ${releaseRequests.id})`.mapWith(Number);

const viewColumns = { request: releaseRequests, workbenchName: workbenches.name, author: person, fileCount: filesOfRequest, reviewsIn: reviewsInRound };

type ViewRow = { request: ReleaseRequestRow; workbenchName: string; author: PersonView; fileCount: number; reviewsIn: number };
const toView = (row: ViewRow): ReleaseRequestView => ({ ...row.request, workbenchName: row.workbenchName, author: row.author, fileCount: row.fileCount, reviewsIn: row.reviewsIn });

/** The only code that reads and writes the airlock's tables. */
/** One page of requests matching `where`, in `order`, with their workbench and author, and the total. */
async function pageOfRequests(db: DbOrTx, where: SQL | undefined, order: SQL, page: { skip: number; limit: number }): Promise<{ rows: ReleaseRequestView[]; total: number }> {
    const [rows, [total]] = await Promise.all([
      db
        .select(viewColumns)
        .from(releaseRequests)
        .innerJoin(workbenches, eq(workbenches.id, releaseRequests.workbenchId))
        .innerJoin(users, eq(users.id, releaseRequests.authorId))
        .where(where)
        .orderBy(order)
        .offset(page.skip)
        .limit(page.limit),
      db.select({ n: count() }).from(releaseRequests).where(where),
    ]);
    return { rows: rows.map(toView), total: total?.n ?? 0 };
}

export const releaseRepository = {
  async insertRequest(db: DbOrTx, values: typeof releaseRequests.$inferInsert): Promise<ReleaseRequestRow> {
    const [row] = await db.insert(releaseRequests).values(values).returning();
    return row!;
  },

  async find(db: DbOrTx, id: string): Promise<ReleaseRequestView | undefined> {
    const [row] = await db
      .select(viewColumns)
      .from(releaseRequests)
      .innerJoin(workbenches, eq(workbenches.id, releaseRequests.workbenchId))
      .innerJoin(users, eq(users.id, releaseRequests.authorId))
      .where(eq(releaseRequests.id, id))
      .limit(1);
    return row && toView(row);
  },

  /** Locks the request for a change of state or contents. */
  async lock(db: DbOrTx, id: string): Promise<ReleaseRequestRow | undefined> {
    const [row] = await db.select().from(releaseRequests).where(eq(releaseRequests.id, id)).for('update').limit(1);
    return row;
  },

  async update(db: DbOrTx, id: string, values: Partial<typeof releaseRequests.$inferInsert>): Promise<void> {
    await db.update(releaseRequests).set({ ...values, updatedAt: new Date() }).where(eq(releaseRequests.id, id));
  },

  async listForWorkbench(db: DbOrTx, workbenchId: string, page: { skip: number; limit: number }): Promise<{ rows: ReleaseRequestView[]; total: number }> {
    const where = eq(releaseRequests.workbenchId, workbenchId);
    return pageOfRequests(db, where, desc(releaseRequests.createdAt), page);
  },

  /** Requests a checker may review: waiting for review or a decision, of workbenches they are not in, by someone else. */
  async listForReviewer(db: DbOrTx, reviewerId: string, page: { skip: number; limit: number }): Promise<{ rows: ReleaseRequestView[]; total: number }> {
    const where = and(
      inArray(releaseRequests.state, [...RELEASE_REVIEW_STATES]),
      sql`${releaseRequests.authorId} <> ${reviewerId}`,
      notExists(
        db
          .select({ one: sql`1` })
          .from(workbenchMembers)
          .where(and(eq(workbenchMembers.workbenchId, releaseRequests.workbenchId), eq(workbenchMembers.userId, reviewerId))),
      ),
    );
    return pageOfRequests(db, where, asc(releaseRequests.submittedAt), page);
  },

  async groups(db: DbOrTx, requestId: string): Promise<ReleaseGroupRow[]> {
    return db.select().from(releaseGroups).where(eq(releaseGroups.requestId, requestId)).orderBy(asc(releaseGroups.createdAt), asc(releaseGroups.id));
  },

  async insertGroup(db: DbOrTx, values: typeof releaseGroups.$inferInsert): Promise<ReleaseGroupRow> {
    const [row] = await db.insert(releaseGroups).values(values).returning();
    return row!;
  },

  async updateGroup(db: DbOrTx, id: string, values: { name: string; context: string; controls: string }): Promise<void> {
    await db.update(releaseGroups).set(values).where(eq(releaseGroups.id, id));
  },

  async files(db: DbOrTx, requestId: string): Promise<ReleaseFileRow[]> {
    return db.select().from(releaseFiles).where(eq(releaseFiles.requestId, requestId)).orderBy(asc(releaseFiles.addedAt), asc(releaseFiles.id));
  },

  async findFile(db: DbOrTx, requestId: string, fileId: string): Promise<ReleaseFileRow | undefined> {
    const [row] = await db.select().from(releaseFiles).where(and(eq(releaseFiles.id, fileId), eq(releaseFiles.requestId, requestId))).limit(1);
    return row;
  },

  async findFileById(db: DbOrTx, fileId: string): Promise<ReleaseFileRow | undefined> {
    const [row] = await db.select().from(releaseFiles).where(eq(releaseFiles.id, fileId)).limit(1);
    return row;
  },

  async insertFile(db: DbOrTx, values: typeof releaseFiles.$inferInsert): Promise<ReleaseFileRow> {
    const [row] = await db.insert(releaseFiles).values(values).returning();
    return row!;
  },

  async updateFile(db: DbOrTx, id: string, values: Partial<typeof releaseFiles.$inferInsert>): Promise<void> {
    await db.update(releaseFiles).set(values).where(eq(releaseFiles.id, id));
  },

  async deleteFile(db: DbOrTx, id: string): Promise<void> {
    await db.delete(releaseFiles).where(eq(releaseFiles.id, id));
  },

  /** Records a file's checks, unless a newer version has replaced the one checked: whether it was recorded. */
  async recordChecks(db: DbOrTx, fileId: string, version: number, values: Partial<typeof releaseFiles.$inferInsert>): Promise<boolean> {
    const rows = await db
      .update(releaseFiles)
      .set(values)
      .where(and(eq(releaseFiles.id, fileId), eq(releaseFiles.version, version)))
      .returning({ id: releaseFiles.id });
    return rows.length === 1;
  },

  /** The output tables of the workbench's released requests. */
  async releasedOutputFiles(db: DbOrTx, workbenchId: string): Promise<(ReleaseFileRow & { requestTitle: string })[]> {
    const rows = await db
      .select({ file: releaseFiles, requestTitle: releaseRequests.title })
      .from(releaseFiles)
      .innerJoin(releaseRequests, eq(releaseRequests.id, releaseFiles.requestId))
      .where(and(eq(releaseRequests.workbenchId, workbenchId), eq(releaseRequests.state, 'RELEASED' satisfies ReleaseRequestState), eq(releaseFiles.kind, 'OUTPUT')))
      .orderBy(asc(releaseRequests.releasedAt));
    return rows.map((r) => ({ ...r.file, requestTitle: r.requestTitle }));
  },

  async votes(db: DbOrTx, requestId: string): Promise<VoteView[]> {
    return db
      .select({ fileId: releaseVotes.fileId, reviewer: person, vote: releaseVotes.vote, comment: releaseVotes.comment, votedAt: releaseVotes.votedAt })
      .from(releaseVotes)
      .innerJoin(releaseFiles, eq(releaseFiles.id, releaseVotes.fileId))
      .innerJoin(users, eq(users.id, releaseVotes.reviewerId))
      .where(eq(releaseFiles.requestId, requestId))
      .orderBy(asc(releaseVotes.votedAt));
  },

  async upsertVote(db: DbOrTx, values: { fileId: string; reviewerId: string; vote: 'APPROVE' | 'CHANGES'; comment: string | null }): Promise<void> {
    await db
      .insert(releaseVotes)
      .values(values)
      .onConflictDoUpdate({ target: [releaseVotes.fileId, releaseVotes.reviewerId], set: { vote: values.vote, comment: values.comment, votedAt: new Date() } });
  },

  async deleteVotesOfFile(db: DbOrTx, fileId: string): Promise<void> {
    await db.delete(releaseVotes).where(eq(releaseVotes.fileId, fileId));
  },

  /** Who has submitted a review in `round`. */
  async reviewers(db: DbOrTx, requestId: string, round: number): Promise<string[]> {
    const rows = await db
      .select({ reviewerId: releaseReviews.reviewerId })
      .from(releaseReviews)
      .where(and(eq(releaseReviews.requestId, requestId), eq(releaseReviews.round, round)));
    return rows.map((r) => r.reviewerId);
  },

  async insertReview(db: DbOrTx, values: { requestId: string; reviewerId: string; round: number }): Promise<void> {
    await db.insert(releaseReviews).values(values);
  },

  /** ACTIVE users holding one of `roles` who are not members of the workbench (the checkers to tell of a submission). */
  async outsiders(db: DbOrTx, workbenchId: string, roles: readonly string[]): Promise<PersonView[]> {
    return db
      .select(person)
      .from(users)
      .where(
        and(
          eq(users.status, 'ACTIVE'),
          sql`${users.roles} && ${sql.param([...roles])}::text[]`,
          notExists(db.select({ one: sql`1` }).from(workbenchMembers).where(and(eq(workbenchMembers.workbenchId, workbenchId), eq(workbenchMembers.userId, users.id)))),
        ),
      )
      .orderBy(asc(users.email));
  },

  async comments(db: DbOrTx, requestId: string): Promise<CommentView[]> {
    return db
      .select({ id: releaseComments.id, fileId: releaseComments.fileId, author: person, visibility: releaseComments.visibility, body: releaseComments.body, createdAt: releaseComments.createdAt })
      .from(releaseComments)
      .innerJoin(users, eq(users.id, releaseComments.authorId))
      .where(eq(releaseComments.requestId, requestId))
      .orderBy(asc(releaseComments.createdAt));
  },

  async insertComment(db: DbOrTx, values: typeof releaseComments.$inferInsert): Promise<void> {
    await db.insert(releaseComments).values(values);
  },
};
