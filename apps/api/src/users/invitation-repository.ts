import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/database';
import { invitations } from '../db/schema';

export type InvitationRow = typeof invitations.$inferSelect;

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The only code that reads and writes invitations. */
export const invitationRepository = {
  /** Issues a new link for a user; returns the token, which is never stored. */
  async issue(db: DbOrTx, userId: string, createdBy: string | null, expiresAt: Date): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await db.insert(invitations).values({ userId, tokenHash: hashInvitationToken(token), createdBy, expiresAt });
    return token;
  },

  /** Finds an invitation by token, locking it so that two accepts cannot both succeed. */
  async findByTokenForUpdate(db: DbOrTx, token: string): Promise<InvitationRow | undefined> {
    const [row] = await db
      .select()
      .from(invitations)
      .where(eq(invitations.tokenHash, hashInvitationToken(token)))
      .limit(1)
      .for('update');
    return row;
  },

  async findByToken(db: DbOrTx, token: string): Promise<InvitationRow | undefined> {
    const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, hashInvitationToken(token))).limit(1);
    return row;
  },

  /** Makes every open link of a user stop working (re-send, revoke). */
  async invalidateOpen(db: DbOrTx, userId: string): Promise<void> {
    await db
      .update(invitations)
      .set({ invalidatedAt: new Date() })
      .where(and(eq(invitations.userId, userId), isNull(invitations.acceptedAt), isNull(invitations.invalidatedAt)));
  },

  async markAccepted(db: DbOrTx, id: string): Promise<void> {
    await db.update(invitations).set({ acceptedAt: new Date() }).where(eq(invitations.id, id));
  },
};
