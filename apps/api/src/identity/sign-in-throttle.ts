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
 * An attempt is counted *before* its password is checked, as if it will fail, in one atomic
 * upsert per key: parallel attempts each see the count the previous ones left, so a burst gets
 * exactly as many checks as sequential attempts would. A successful attempt gives its count back.
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
 * Reserves one attempt for this account from this address, or refuses it when either is in
 * back-off. The reservation counts as a failure until `releaseSignInAttempt` gives it back.
 */
export async function reserveSignInAttempt(db: DbOrTx, email: string, address: string): Promise<ThrottleVerdict> {
  const keys = [
    [accountKey(email), ACCOUNT_MAX_BACKOFF_SECONDS],
    [addressKey(address), LIMITS.signInMaxBackoffSeconds],
  ] as const;
  const forgetBefore = new Date(Date.now() - FORGET_AFTER_MS).toISOString();
  try {
    // Account keys are always taken before address keys, so two reservations cannot deadlock.
    await db.transaction(async (tx) => {
      for (const [key, maxBackoff] of keys) {
        const failures = sql`(case when ${signInThrottle.lastFailureAt} < ${forgetBefore}::timestamptz then 1 else ${signInThrottle.failures} + 1 end)`;
        const reserved = await tx
          .insert(signInThrottle)
          .values({ key, failures: 1, lastFailureAt: sql`now()`, blockedUntil: backoffSql(sql`1`, maxBackoff) })
          .onConflictDoUpdate({
            target: signInThrottle.key,
            set: { failures, lastFailureAt: sql`now()`, blockedUntil: backoffSql(failures, maxBackoff) },
            // The row stays locked until commit: a parallel attempt waits, then sees this count.
            setWhere: or(isNull(signInThrottle.blockedUntil), lte(signInThrottle.blockedUntil, sql`now()`)),
          })
          .returning({ failures: signInThrottle.failures });
        if (reserved.length === 0) throw new Throttled();
      }
    });
    return { allowed: true, retryAfterSeconds: 0 };
  } catch (error) {
    if (!(error instanceof Throttled)) throw error;
  }
  const [blocked] = await db
    .select({ seconds: sql<number>`ceil(extract(epoch from max(${signInThrottle.blockedUntil}) - now()))::int` })
    .from(signInThrottle)
    .where(and(inArray(signInThrottle.key, keys.map(([key]) => key)), gt(signInThrottle.blockedUntil, sql`now()`)));
  return { allowed: false, retryAfterSeconds: Math.max(1, blocked?.seconds ?? 1) };
}

/**
 * Gives back a successful attempt's reservation. The account's counter is cleared; the address's
 * loses only this attempt (one good account must not launder a spray of failures from that
 * address), and its back-off ends if what is left is under the threshold.
 */
export async function releaseSignInAttempt(db: DbOrTx, email: string, address: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, accountKey(email)));
  const failures = sql`greatest(${signInThrottle.failures} - 1, 0)`;
  await db
    .update(signInThrottle)
    .set({
      failures,
      blockedUntil: sql`case when ${failures} < ${LIMITS.signInFailuresBeforeBackoff} then null else ${signInThrottle.blockedUntil} end`,
    })
    .where(eq(signInThrottle.key, addressKey(address)));
}
