import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../db/database';
import { refreshTokens } from '../db/schema';

/**
 * How long this process trusts what it learnt about a session without asking the database again.
 * Sessions ended through this process are refused at once; with several API processes, a session
 * ended through another one is refused here within this time (the same delay as a user disabled
 * elsewhere, see `principals.ts`). An id token lives 10 minutes, so this shortens the exposure of
 * an ended session from those 10 minutes to these few seconds, at one indexed lookup per active
 * session per interval rather than one per request.
 */
const SESSION_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

/**
 * Whether an id token's session (`sid`, its refresh-token family) has been ended: signed out,
 * ended from the sessions list or by an administrator, the account disabled, a refresh token
 * reused. A session is ended once any token of its family is revoked; nothing un-revokes one.
 *
 * A check cached per session was chosen over a set of ended sessions refreshed on a timer: it
 * costs nothing while nobody is signed in, asks only about sessions in use, needs no index on
 * `revoked_at`, and the first request after a start is as sure as any other.
 */
export class EndedSessions {
  private readonly bySession = new Map<string, { userId: string; ended: boolean; checkedAtMs: number }>();

  constructor(private readonly db: Database) {}

  /** True or false when known within the last SESSION_TTL_MS; undefined when the database must be asked. */
  cached(sessionId: string): boolean | undefined {
    const known = this.bySession.get(sessionId);
    if (!known) return undefined;
    // Ended is final: no need to ask again.
    if (known.ended || Date.now() - known.checkedAtMs < SESSION_TTL_MS) return known.ended;
    return undefined;
  }

  /** Whether the session has been ended, from the cache or the database. */
  async isEnded(sessionId: string, userId: string): Promise<boolean> {
    const cached = this.cached(sessionId);
    if (cached !== undefined) return cached;
    const revoked = await this.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, sessionId), isNotNull(refreshTokens.revokedAt)))
      .limit(1);
    const ended = revoked.length > 0;
    if (this.bySession.size >= MAX_CACHED) this.bySession.clear();
    this.bySession.set(sessionId, { userId, ended, checkedAtMs: Date.now() });
    return ended;
  }

  /** Records a session ended through this process: its tokens are refused from the next request. */
  ended(sessionId: string): void {
    const known = this.bySession.get(sessionId);
    this.bySession.set(sessionId, { userId: known?.userId ?? '', ended: true, checkedAtMs: Date.now() });
  }

  /** After all of a user's sessions were ended through this process: each is asked about again. */
  forgetUser(userId: string): void {
    for (const [sessionId, known] of this.bySession) if (known.userId === userId) this.bySession.delete(sessionId);
  }
}
