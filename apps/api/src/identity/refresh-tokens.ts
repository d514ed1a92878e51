import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, min, sql } from 'drizzle-orm';
import { LIMITS } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { refreshTokens } from '../db/schema';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

/** What a session remembers of its sign-in. */
export interface SessionFacts {
  amr: string[];
  userAgent?: string | null;
  clientAddress?: string | null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The only code that reads and writes refresh tokens. Tokens are random; only their hashes are stored. */
export const refreshTokenRepository = {
  /**
   * Issues a token, in a new family (a new session) unless one is given: rotation keeps the family
   * and carries its sign-in's `amr`, device and address.
   */
  async issue(db: DbOrTx, userId: string, session: SessionFacts, familyId: string = randomUUID()): Promise<{ token: string; familyId: string }> {
    const token = randomBytes(32).toString('base64url');
    await db.insert(refreshTokens).values({
      tokenHash: hashToken(token),
      familyId,
      userId,
      amr: session.amr,
      userAgent: session.userAgent?.slice(0, 512) ?? null,
      clientAddress: session.clientAddress ?? null,
      expiresAt: new Date(Date.now() + LIMITS.refreshTokenTtlSeconds * 1000),
    });
    return { token, familyId };
  },

  /** A user's live sessions: the current token of each family, most recently used first. */
  async listActive(db: DbOrTx, userId: string): Promise<RefreshTokenRow[]> {
    return db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, sql`now()`)))
      .orderBy(desc(refreshTokens.createdAt));
  },

  /** When each of these sessions (families) began: its first token's creation. */
  async familyStarts(db: DbOrTx, familyIds: string[]): Promise<Map<string, Date>> {
    if (familyIds.length === 0) return new Map();
    const rows = await db
      .select({ familyId: refreshTokens.familyId, started: min(refreshTokens.createdAt) })
      .from(refreshTokens)
      .where(inArray(refreshTokens.familyId, familyIds))
      .groupBy(refreshTokens.familyId);
    return new Map(rows.map((row) => [row.familyId, new Date(row.started!)]));
  },

  /** Ends one session of a user; the number of tokens revoked (0: no such live session of theirs). */
  async revokeFamilyOfUser(db: DbOrTx, userId: string, familyId: string): Promise<number> {
    const rows = await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    return rows.length;
  },

  async find(db: DbOrTx, token: string): Promise<RefreshTokenRow | undefined> {
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(token))).limit(1);
    return row;
  },

  /** Marks a token used; false when another request used it first. */
  async markUsed(db: DbOrTx, id: string): Promise<boolean> {
    const rows = await db
      .update(refreshTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    return rows.length === 1;
  },

  async revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  },

  async revokeAllForUser(db: DbOrTx, userId: string): Promise<number> {
    const rows = await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    return rows.length;
  },
};
