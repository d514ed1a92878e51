import { and, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../../app-services';
import { recordAuditEvent } from '../../audit/audit-trail';
import { users, workbenchMembers } from '../../db/schema';
import type { NotebookSession } from '../notebook-sessions';
import type { RefusedRequest } from '../notebook-proxy';
import { EgressMeter, type EgressSubject, type EgressTotals } from './egress-meter';
import { placeHold, snake } from './egress-holds';

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

async function emailOf(services: AppServices, userId: string): Promise<string | undefined> {
  const [row] = await services.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email;
}

/** EGRESS_REFUSED: who asked for which file by which route (the path, never its content). */
export function auditEgressRefused(services: AppServices): (refused: RefusedRequest) => void {
  return (refused) => {
    void (async () => {
      const { session } = refused;
      const email = await emailOf(services, session.userId);
      await recordAuditEvent(
        services.db,
        { actorId: session.userId, actorEmail: email ?? null, clientAddress: refused.clientAddress ?? null, userAgent: refused.userAgent ?? null },
        {
          eventType: 'EGRESS_REFUSED',
          outcome: 'DENIED',
          message: `${email ?? session.userId} was refused ${refused.path} of notebook ${session.notebookId} (${refused.route})`,
          resourceType: 'notebook',
          resourceId: session.notebookId,
          details: { route: refused.route, method: refused.method, path: refused.path, workbench_id: session.workbenchId ?? null },
        },
      );
    })().catch((error: unknown) => services.logger.error({ err: error }, 'recording a refused notebook download failed'));
  };
}

/** The workbench's OWNERs and the platform's active administrators: who hears of a soft-limit alert. */
async function alertRecipients(services: AppServices, workbenchId: string): Promise<string[]> {
  const owners = await services.db
    .select({ email: users.email })
    .from(workbenchMembers)
    .innerJoin(users, eq(users.id, workbenchMembers.userId))
    .where(and(eq(workbenchMembers.workbenchId, workbenchId), eq(workbenchMembers.role, 'OWNER'), eq(users.status, 'ACTIVE')));
  const admins = await services.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.status, 'ACTIVE'), sql`'ADMIN' = any(${users.roles})`));
  return [...new Set([...owners, ...admins].map((row) => row.email))];
}

async function alert(services: AppServices, subject: EgressSubject, totals: EgressTotals): Promise<void> {
  const { softBytesPerHour } = services.config.notebooks.egress;
  const email = (await emailOf(services, subject.userId)) ?? subject.userId;
  const recipients = await alertRecipients(services, subject.workbenchId);
  await recordAuditEvent(services.db, { actorEmail: 'system (egress meter)' }, {
    eventType: 'EGRESS_ALERT',
    outcome: 'SUCCESS',
    message: `${mb(totals.userHour)} reached ${email}'s browser from notebooks in an hour (soft limit ${mb(softBytesPerHour)})`,
    resourceType: 'user',
    resourceId: subject.userId,
    details: { notebook_id: subject.notebookId, workbench_id: subject.workbenchId, ...snake(totals), soft_limit_bytes: softBytesPerHour, notified: recipients },
  });
  const text =
    `${mb(totals.userHour)} of notebook output reached the browser of ${email} in the last hour, more than the ${mb(softBytesPerHour)} ` +
    `this platform expects (workbench ${subject.workbenchId}, notebook ${subject.notebookId}; ${mb(totals.userDay)} in the last 24 hours).\n\n` +
    'Nothing was stopped. Files cannot be downloaded from notebooks, but what a notebook shows can be copied from the screen: ' +
    'you may want to ask what the work needs. Past the daily hard limit the notebook is stopped and held until an administrator lifts the hold.\n';
  for (const to of recipients) {
    await services.mailer
      .send({ to, subject: `Notebook data alert: ${email}`, text, html: `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n\n/g, '</p><p>')}</p>` })
      .catch((error: unknown) => services.logger.error({ err: error, to }, 'sending an egress alert failed'));
  }
}

/**
 * The egress meter of this deployment: over the soft limit in an hour, the workbench's OWNERs and
 * the administrators are told (EGRESS_ALERT); over the hard limit in a day, the notebook stops and
 * the user's notebooks are held (EGRESS_HOLD_PLACED) until an administrator lifts the hold.
 */
export function createEgressMeter(services: AppServices): EgressMeter {
  const limits = services.config.notebooks.egress;
  const report = (what: string) => (error: unknown) => services.logger.error({ err: error }, what);
  return new EgressMeter(limits, {
    soft: (subject, totals) => void alert(services, subject, totals).catch(report('an egress alert failed')),
    hard: (subject, totals) => void placeHold(services, subject, totals, limits.hardBytesPerDay).catch(report('placing an egress hold failed')),
  });
}

/** The proxy's onEgress: counts against the session's user, notebook and workbench. */
export function countEgress(meter: EgressMeter): (session: NotebookSession, bytes: number) => void {
  return (session, bytes) =>
    meter.count({ userId: session.userId, notebookId: session.notebookId, workbenchId: session.workbenchId ?? 'unknown' }, bytes);
}
