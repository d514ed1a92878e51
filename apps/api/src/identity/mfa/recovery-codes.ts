import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT } from '@hdp/contract';
import type { DbOrTx } from '../../db/database';
import { mfaRecoveryCodes } from '../../db/schema';

/** Letters and digits that cannot be mistaken for one another when copied from paper. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** What a code is compared by: case, spaces and dashes do not matter. */
const normalise = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const hashCode = (code: string) => createHash('sha256').update(normalise(code)).digest('hex');

/** A code like `k7mq-x2pd-9fha` (about 59 bits; only its SHA-256 is stored). */
function newCode(): string {
  const chars = Array.from({ length: GROUPS * GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return Array.from({ length: GROUPS }, (_, g) => chars.slice(g * GROUP_LENGTH, (g + 1) * GROUP_LENGTH).join('')).join('-');
}

export const recoveryCodes = {
  /** Replaces a person's codes with ten new ones and returns them: the only time they are seen. */
  async regenerate(db: DbOrTx, userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
    await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    await db.insert(mfaRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashCode(code) })));
    return codes;
  },

  /** Uses a code once; false when it is not one of the person's unused codes. */
  async consume(db: DbOrTx, userId: string, code: string): Promise<boolean> {
    const used = await db
      .update(mfaRecoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, hashCode(code)), isNull(mfaRecoveryCodes.usedAt)))
      .returning({ id: mfaRecoveryCodes.id });
    return used.length === 1;
  },

  async countLeft(db: DbOrTx, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
    return Number(row?.n ?? 0);
  },

  async removeAll(db: DbOrTx, userId: string): Promise<void> {
    await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  },
};
