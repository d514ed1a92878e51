import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { LIMITS } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { refreshTokens } from '../db/schema';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The only code that reads and writes refresh tokens. Tokens are random; only their hashes are stored. */
export const refreshTokenRepository = {
  /** Issues a token, in a new family unless one is given (rotation keeps the family). */
  async issue(db: DbOrTx, userId: string, familyId: string = randomUUID()): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await db.insert(refreshTokens).values({
      tokenHash: hashToken(token),
      familyId,
      userId,
      expiresAt: new Date(Date.now() + LIMITS.refreshTokenTtlSeconds * 1000),
    });
    return token;
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
