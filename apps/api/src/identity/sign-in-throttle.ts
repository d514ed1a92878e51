import { and, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { LIMITS } from '@hdp/contract';
import type { DbOrTx } from '../db/database';
import { signInThrottle } from '../db/schema';

/**
 * Sign-in attempts are throttled per account and per client address. After
 * `signInFailuresBeforeBackoff` failures, each further attempt must wait an exponentially growing
 * time. The account's wait is capped low (a minute) and the address's higher (15 minutes): an
 * attacker can slow guessing against an admin, but never lock the admin out for good, and there is
 * no permanent lock-out at all. Counters forget failures after a day without one.
 *
 * The account's attempt is counted *before* its secret (password or second-factor code) is
 * checked, as if it will fail, in one atomic upsert: parallel guesses for one account each see the
 * count the previous ones left, so a burst gets exactly as many checks as sequential attempts
 * would. A successful attempt clears the account's count.
 *
 * The address counts failures only, after they happen: an office behind one address signing in at
 * once must not be refused because its correct sign-ins are still being checked. An address in
 * back-off is refused before anything is checked.
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

/** The back-off after `failures`, as SQL: the same schedule as `backoffSeconds`. */
const backoffSql = (failures: ReturnType<typeof sql>, maxSeconds: number) =>
  sql`case when ${failures} < ${LIMITS.signInFailuresBeforeBackoff} then null
      else now() + make_interval(secs => least(power(2, least(${failures} - ${LIMITS.signInFailuresBeforeBackoff}, 30)), ${maxSeconds})) end`;

/** Refuses a reservation: the transaction rolls back so that no key keeps a partial count. */
class Throttled extends Error {}

/**
 * Counts one failure against `key`, atomically; with `onlyWhenUnblocked`, refuses (returns false,
 * counting nothing) when the key is in back-off.
 */
async function countFailure(db: DbOrTx, key: string, maxBackoff: number, onlyWhenUnblocked: boolean): Promise<boolean> {
  const forgetBefore = new Date(Date.now() - FORGET_AFTER_MS).toISOString();
  const failures = sql`(case when ${signInThrottle.lastFailureAt} < ${forgetBefore}::timestamptz then 1 else ${signInThrottle.failures} + 1 end)`;
  const counted = await db
    .insert(signInThrottle)
    .values({ key, failures: 1, lastFailureAt: sql`now()`, blockedUntil: backoffSql(sql`1`, maxBackoff) })
    .onConflictDoUpdate({
      target: signInThrottle.key,
      set: { failures, lastFailureAt: sql`now()`, blockedUntil: backoffSql(failures, maxBackoff) },
      // The row stays locked until commit: a parallel attempt waits, then sees this count.
      ...(onlyWhenUnblocked && { setWhere: or(isNull(signInThrottle.blockedUntil), lte(signInThrottle.blockedUntil, sql`now()`)) }),
    })
    .returning({ failures: signInThrottle.failures });
  return counted.length > 0;
}

/**
 * Reserves one attempt for this account from this address, or refuses it when either is in
 * back-off. The account's reservation counts as a failure until `releaseSignInAttempt` clears it;
 * the address is only read here, and charged by `recordSignInFailure`.
 */
export async function reserveSignInAttempt(db: DbOrTx, email: string, address: string): Promise<ThrottleVerdict> {
  const keys = [accountKey(email), addressKey(address)];
  try {
    await db.transaction(async (tx) => {
      const [addressBlocked] = await tx
        .select({ key: signInThrottle.key })
        .from(signInThrottle)
        .where(and(eq(signInThrottle.key, addressKey(address)), gt(signInThrottle.blockedUntil, sql`now()`)));
      if (addressBlocked) throw new Throttled();
      if (!(await countFailure(tx, accountKey(email), ACCOUNT_MAX_BACKOFF_SECONDS, true))) throw new Throttled();
    });
    return { allowed: true, retryAfterSeconds: 0 };
  } catch (error) {
    if (!(error instanceof Throttled)) throw error;
  }
  const [blocked] = await db
    .select({ seconds: sql<number>`ceil(extract(epoch from max(${signInThrottle.blockedUntil}) - now()))::int` })
    .from(signInThrottle)
    .where(and(inArray(signInThrottle.key, keys), gt(signInThrottle.blockedUntil, sql`now()`)));
  return { allowed: false, retryAfterSeconds: Math.max(1, blocked?.seconds ?? 1) };
}

/**
 * Charges a failed attempt (wrong password, unknown account, wrong second-factor code) to its
 * address. The account's reservation already counts it.
 */
export async function recordSignInFailure(db: DbOrTx, address: string): Promise<void> {
  await countFailure(db, addressKey(address), LIMITS.signInMaxBackoffSeconds, false);
}

/**
 * Clears the account's count after a successful attempt. The address keeps its failures: one good
 * account must not launder a spray of failures from that address, and its successes never cost it
 * anything.
 */
export async function releaseSignInAttempt(db: DbOrTx, email: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, accountKey(email)));
}
