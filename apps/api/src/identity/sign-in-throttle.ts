import { eq, inArray, sql } from 'drizzle-orm';
import { LIMITS } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { signInThrottle } from '../db/schema';

/**
 * Failed sign-ins are throttled per account and per client address. After
 * `signInFailuresBeforeBackoff` failures, each further attempt must wait an exponentially growing
 * time. The account's wait is capped low (a minute) and the address's higher (15 minutes): an
 * attacker can slow guessing against an admin, but never lock the admin out for good, and there is
 * no permanent lock-out at all. Counters forget failures after a day without one.
 */
const ACCOUNT_MAX_BACKOFF_SECONDS = 60;
const FORGET_AFTER_MS = 24 * 3600 * 1000;

const accountKey = (email: string) => `account:${email.toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;

export interface ThrottleVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

export function backoffSeconds(failures: number, maxSeconds: number): number {
  const over = failures - LIMITS.signInFailuresBeforeBackoff;
  if (over < 0) return 0;
  return Math.min(2 ** over, maxSeconds);
}

/** Whether an attempt for this account from this address may go ahead now. */
export async function checkSignInThrottle(db: DbOrTx, email: string, address: string): Promise<ThrottleVerdict> {
  const rows = await db
    .select()
    .from(signInThrottle)
    .where(inArray(signInThrottle.key, [accountKey(email), addressKey(address)]));
  const now = Date.now();
  const waits = rows
    .filter((row) => row.blockedUntil && row.blockedUntil.getTime() > now)
    .map((row) => Math.ceil((row.blockedUntil!.getTime() - now) / 1000));
  return waits.length ? { allowed: false, retryAfterSeconds: Math.max(...waits) } : { allowed: true, retryAfterSeconds: 0 };
}

/** Counts a failed attempt against both the account and the address. */
export async function recordSignInFailure(db: DbOrTx, email: string, address: string): Promise<void> {
  const now = new Date();
  const forgetBefore = new Date(now.getTime() - FORGET_AFTER_MS);
  for (const [key, maxBackoff] of [
    [accountKey(email), ACCOUNT_MAX_BACKOFF_SECONDS],
    [addressKey(address), LIMITS.signInMaxBackoffSeconds],
  ] as const) {
    const failures = sql`case when ${signInThrottle.lastFailureAt} < ${forgetBefore.toISOString()}::timestamptz then 1 else ${signInThrottle.failures} + 1 end`;
    const [row] = await db
      .insert(signInThrottle)
      .values({ key, failures: 1, lastFailureAt: now })
      .onConflictDoUpdate({ target: signInThrottle.key, set: { failures, lastFailureAt: now } })
      .returning({ failures: signInThrottle.failures });
    const wait = backoffSeconds(row?.failures ?? 1, maxBackoff);
    if (wait > 0) {
      await db
        .update(signInThrottle)
        .set({ blockedUntil: new Date(now.getTime() + wait * 1000) })
        .where(eq(signInThrottle.key, key));
    }
  }
}

/** A successful sign-in clears the account's counter (not the address's: one good account must not launder a spray). */
export async function clearAccountThrottle(db: DbOrTx, email: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, accountKey(email)));
}
