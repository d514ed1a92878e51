import { and, asc, eq, isNotNull, isNull, lt, not, or, sql } from 'drizzle-orm';
import type { MfaFactor } from '@hdp/contract';
import type { DbOrTx } from '../../db/database';
import { mfaFactors } from '../../db/schema';
import { TotpSecretBox } from './totp-secret-box';

export type FactorRow = typeof mfaFactors.$inferSelect;

/** The only code that reads and writes second factors. */
export const factorRepository = {
  /** A person's confirmed factors, oldest first. */
  async listConfirmed(db: DbOrTx, userId: string): Promise<FactorRow[]> {
    return db
      .select()
      .from(mfaFactors)
      .where(and(eq(mfaFactors.userId, userId), isNotNull(mfaFactors.confirmedAt)))
      .orderBy(asc(mfaFactors.createdAt));
  },

  async find(db: DbOrTx, userId: string, factorId: string): Promise<FactorRow | undefined> {
    const [row] = await db.select().from(mfaFactors).where(and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, userId)));
    return row;
  },

  async findPendingTotp(db: DbOrTx, userId: string): Promise<FactorRow | undefined> {
    const [row] = await db
      .select()
      .from(mfaFactors)
      .where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.kind, 'TOTP'), isNull(mfaFactors.confirmedAt)))
      .orderBy(sql`${mfaFactors.createdAt} desc`)
      .limit(1);
    return row;
  },

  async insert(db: DbOrTx, values: typeof mfaFactors.$inferInsert): Promise<FactorRow> {
    const [row] = await db.insert(mfaFactors).values(values).returning();
    return row!;
  },

  /** A person may have one pending authenticator app at a time: a new start replaces the old. */
  async removePendingTotp(db: DbOrTx, userId: string): Promise<void> {
    await db.delete(mfaFactors).where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.kind, 'TOTP'), isNull(mfaFactors.confirmedAt)));
  },

  /**
   * Records that a TOTP code of `step` was accepted, atomically: false when this or a later step
   * was accepted already (a replay, possibly a parallel one).
   */
  async acceptTotpStep(db: DbOrTx, factorId: string, step: number, confirm: boolean): Promise<boolean> {
    const rows = await db
      .update(mfaFactors)
      .set({ totpLastStep: step, lastUsedAt: sql`now()`, ...(confirm && { confirmedAt: sql`now()` }) })
      .where(and(eq(mfaFactors.id, factorId), or(isNull(mfaFactors.totpLastStep), lt(mfaFactors.totpLastStep, step))))
      .returning({ id: mfaFactors.id });
    return rows.length === 1;
  },

  /** Seals an authenticator app's secret stored in plaintext (from before encryption); no-op otherwise. */
  async sealIfPlaintext(db: DbOrTx, box: TotpSecretBox, factor: Pick<FactorRow, 'id' | 'userId' | 'totpSecret'>): Promise<void> {
    if (!factor.totpSecret || TotpSecretBox.isSealed(factor.totpSecret)) return;
    await db
      .update(mfaFactors)
      .set({ totpSecret: box.seal(factor.totpSecret, factor.userId) })
      .where(and(eq(mfaFactors.id, factor.id), eq(mfaFactors.totpSecret, factor.totpSecret)));
  },

  /** Seals every secret still stored in plaintext; the number sealed. Run at start-up. */
  async sealAllPlaintext(db: DbOrTx, box: TotpSecretBox): Promise<number> {
    const rows = await db
      .select({ id: mfaFactors.id, userId: mfaFactors.userId, totpSecret: mfaFactors.totpSecret })
      .from(mfaFactors)
      .where(and(isNotNull(mfaFactors.totpSecret), not(sql`${mfaFactors.totpSecret} like 'v1:%'`)));
    for (const row of rows) await this.sealIfPlaintext(db, box, row);
    return rows.length;
  },

  async markPasskeyUsed(db: DbOrTx, factorId: string, signCount: number): Promise<void> {
    await db.update(mfaFactors).set({ signCount, lastUsedAt: sql`now()` }).where(eq(mfaFactors.id, factorId));
  },

  async rename(db: DbOrTx, factorId: string, name: string): Promise<FactorRow | undefined> {
    const [row] = await db.update(mfaFactors).set({ name }).where(eq(mfaFactors.id, factorId)).returning();
    return row;
  },

  async remove(db: DbOrTx, factorId: string): Promise<void> {
    await db.delete(mfaFactors).where(eq(mfaFactors.id, factorId));
  },

  async removeAll(db: DbOrTx, userId: string): Promise<number> {
    const rows = await db.delete(mfaFactors).where(eq(mfaFactors.userId, userId)).returning({ id: mfaFactors.id });
    return rows.length;
  },
};

export function presentFactor(row: FactorRow): MfaFactor {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
