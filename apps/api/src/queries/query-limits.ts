import type { AppServices } from '../app-services';
import { recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { auditLogRepository } from '../audit/audit-log-repository';
import { cohortRepository } from '../cohorts/cohort-repository';
import type { UserRow } from '../users/user-repository';
import { tooManyRequests } from '../http/api-error';
import { queryExecutionRepository } from './query-repository';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Limits against averaging and differencing by volume: a user may start at most
 * `queryLimits.perMinute` runs in any minute and `queryLimits.perDay` in any 24 hours: saved and
 * unsaved runs and cohort refreshes (which run the query again) together. Runs are counted from what
 * is already recorded (the saved runs' executions, the unsaved runs' audit entries, the refreshed
 * cohort versions), so every API process sees the same counts. A refusal is a 429
 * with Retry-After and is audited as a denied `QUERY_EXECUTED`.
 */
export async function enforceQueryLimits(services: AppServices, actor: UserRow, context: AuditContext, what: string): Promise<void> {
  const { db, config } = services;
  const now = Date.now();
  for (const window of [
    { ms: MINUTE_MS, limit: config.queryLimits.perMinute, name: 'minute', noun: `${config.queryLimits.perMinute} query runs a minute` },
    { ms: DAY_MS, limit: config.queryLimits.perDay, name: 'day', noun: `${config.queryLimits.perDay} query runs a day` },
  ]) {
    const since = new Date(now - window.ms);
    const runs = await Promise.all([
      queryExecutionRepository.requestsSince(db, actor.id, since),
      auditLogRepository.anonymousRunsSince(db, actor.id, since),
      cohortRepository.refreshesSince(db, actor.id, since),
    ]);
    if (runs.reduce((sum, r) => sum + r.count, 0) < window.limit) continue;
    const first = Math.min(...runs.map((r) => r.first?.getTime() ?? now));
    const retryAfterSeconds = Math.max(1, Math.ceil((first + window.ms - now) / 1000));
    await recordAuditEvent(db, context, {
      eventType: 'QUERY_EXECUTED',
      outcome: 'DENIED',
      message: `${actor.email} was refused a query run (${what}): the limit of ${window.noun} is reached`,
      resourceType: 'query',
      details: { reason: `limit per ${window.name}`, limit: window.limit, retry_after_seconds: retryAfterSeconds },
    });
    throw tooManyRequests(`You have reached the limit of ${window.noun}; try again in ${retryAfterSeconds} seconds.`, retryAfterSeconds);
  }
}
