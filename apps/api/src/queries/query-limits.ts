import { eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services';
import { recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import type { Database, DbOrTx } from '../db/database';
import { queryRunCounters } from '../db/schema';
import type { UserRow } from '../users/user-repository';
import { tooManyRequests } from '../http/api-error';

const MINUTE_SECONDS = 60;
const DAY_SECONDS = 24 * 60 * MINUTE_SECONDS;

interface Window {
  seconds: number;
  limit: number;
  name: string;
  noun: string;
}

/**
 * The check-and-take statement for one user. One statement:
 * the upsert locks the user's row (a parallel request waits for it, then sees this run), checks every
 * window against the row as last committed (one pass over its runs), and only then adds the run,
 * forgetting runs older than a day. So N requests at the same instant, in one API process or several,
 * get exactly what is left. The windows are fixed for the life of a process, so the statement is
 * built once per database and prepared (on PostgreSQL, parsed once per connection): it runs before
 * every query run, and building it each time took about a fifth of the time the check took.
 */
function takeRunStatement(db: Database, windows: readonly Window[]) {
  const runs = sql`unnest(${queryRunCounters.runTimes}) as r(t)`;
  const within = windows.map((w) => sql`count(*) filter (where r.t > now() - make_interval(secs => ${w.seconds})) < ${w.limit}`);
  return db
    .insert(queryRunCounters)
    .values({ userId: sql.placeholder('userId'), runTimes: sql`array[now()]` })
    .onConflictDoUpdate({
      target: queryRunCounters.userId,
      set: { runTimes: sql`array(select r.t from ${runs} where r.t > now() - make_interval(secs => ${DAY_SECONDS})) || now()` },
      setWhere: sql`(select ${sql.join(within, sql` and `)} from ${runs})`,
    })
    .returning({ userId: queryRunCounters.userId })
    .prepare('take_query_run');
}

const takeRunStatements = new WeakMap<Database, { windows: string; statement: ReturnType<typeof takeRunStatement> }>();

/** Takes one run from the user's allowance, or answers false when a limit is reached (see `takeRunStatement`). */
async function takeRun(db: Database, userId: string, windows: readonly Window[]): Promise<boolean> {
  const key = JSON.stringify(windows.map((w) => [w.seconds, w.limit]));
  let cached = takeRunStatements.get(db);
  if (cached?.windows !== key) {
    cached = { windows: key, statement: takeRunStatement(db, windows) };
    takeRunStatements.set(db, cached);
  }
  const taken = await cached.statement.execute({ userId });
  return taken.length > 0;
}

/** The window that refuses a run now, and when a run will next be allowed by it; undefined when none does. */
async function refusingWindow(db: DbOrTx, userId: string, windows: readonly Window[]): Promise<{ window: Window; retryAfterSeconds: number } | undefined> {
  const [row] = await db
    .select({
      times: sql<number[]>`array_to_json(array(select extract(epoch from r.t)::float8 from unnest(${queryRunCounters.runTimes}) as r(t) order by r.t))`,
      now: sql<number>`extract(epoch from now())::float8`,
    })
    .from(queryRunCounters)
    .where(eq(queryRunCounters.userId, userId));
  if (!row) return undefined;
  for (const window of windows) {
    const recent = row.times.filter((t) => t > row.now - window.seconds);
    if (recent.length < window.limit) continue;
    // The run whose going out of the window brings the count below the limit.
    const freeing = recent[recent.length - window.limit]!;
    return { window, retryAfterSeconds: Math.max(1, Math.ceil(freeing + window.seconds - row.now)) };
  }
  return undefined;
}

/**
 * Limits against averaging and differencing by volume: a user may start at most
 * `queryLimits.perMinute` runs in any minute and `queryLimits.perDay` in any 24 hours: saved and
 * unsaved runs and cohort refreshes (which run the query again) together. Each run allowed is
 * counted at once, in the user's counter row (`query_run_counters`), by one atomic check-and-take,
 * so parallel requests cannot all pass and every API process sharing the database sees the same
 * counts. A refusal is a 429 with Retry-After and is audited as a denied `QUERY_EXECUTED`.
 */
export async function enforceQueryLimits(services: AppServices, actor: UserRow, context: AuditContext, what: string): Promise<void> {
  const { db, config } = services;
  const { perMinute, perDay } = config.queryLimits;
  const windows: Window[] = [
    { seconds: MINUTE_SECONDS, limit: perMinute, name: 'minute', noun: `${perMinute} query runs a minute` },
    { seconds: DAY_SECONDS, limit: perDay, name: 'day', noun: `${perDay} query runs a day` },
  ];
  let refusal: Awaited<ReturnType<typeof refusingWindow>>;
  // A run refused at the edge of a window may find it passed by the time the refusal is explained: try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await takeRun(db, actor.id, windows)) return;
    refusal = await refusingWindow(db, actor.id, windows);
    if (refusal) break;
  }
  const { window, retryAfterSeconds } = refusal ?? { window: windows[0]!, retryAfterSeconds: 1 };
  await recordAuditEvent(db, context, {
    eventType: 'QUERY_EXECUTED',
    outcome: 'DENIED',
    message: `${actor.email} was refused a query run (${what}): the limit of ${window.noun} is reached`,
    resourceType: 'query',
    details: { reason: `limit per ${window.name}`, limit: window.limit, retry_after_seconds: retryAfterSeconds },
  });
  throw tooManyRequests(`You have reached the limit of ${window.noun}; try again in ${retryAfterSeconds} seconds.`, retryAfterSeconds);
}
