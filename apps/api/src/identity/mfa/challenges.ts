import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database';
import { mfaChallenges } from '../../db/schema';

export type ChallengeRow = typeof mfaChallenges.$inferSelect;

/** How long the second step may take after the password was checked. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The challenge between a checked password and the second factor: random, stored hashed, used once. */
export const challengeRepository = {
  async issue(db: DbOrTx, userId: string, userAgent: string | null): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await db.insert(mfaChallenges).values({
      tokenHash: hashToken(token),
      userId,
      userAgent,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000),
    });
    return token;
  },

  /** The unexpired, unused challenge with this token. */
  async findLive(db: DbOrTx, token: string): Promise<ChallengeRow | undefined> {
    const [row] = await db
      .select()
      .from(mfaChallenges)
      .where(and(eq(mfaChallenges.tokenHash, hashToken(token)), isNull(mfaChallenges.usedAt), gt(mfaChallenges.expiresAt, sql`now()`)));
    return row;
  },

  async setWebauthnChallenge(db: DbOrTx, id: string, challenge: string): Promise<void> {
    await db.update(mfaChallenges).set({ webauthnChallenge: challenge }).where(eq(mfaChallenges.id, id));
  },

  /** Uses the challenge; false when another request used it first. */
  async consume(db: DbOrTx, id: string): Promise<boolean> {
    const rows = await db
      .update(mfaChallenges)
      .set({ usedAt: sql`now()` })
      .where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.usedAt)))
      .returning({ id: mfaChallenges.id });
    return rows.length === 1;
  },

  /** Drops challenges that can no longer be used (called now and then by sign-in). */
  async prune(db: DbOrTx): Promise<void> {
    await db.delete(mfaChallenges).where(sql`${mfaChallenges.expiresAt} < now() - interval '1 day'`);
  },
};
