import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { NotebookHold } from '@hdp/contract';
import type { AppServices } from '../../app-services';
import { appendAuditEntry, type AuditContext } from '../../audit/audit-trail';
import type { DbOrTx } from '../../db/database';
import { notebookEgressHolds, users } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../http/api-error';
import { jobRepository } from '../../jobs/job-repository';
import type { UserRow } from '../../users/user-repository';
import { NOTEBOOK_JOB } from '../notebook-commands';
import { notebookRepository } from '../notebook-repository';
import type { EgressSubject, EgressTotals } from './egress-meter';

type HoldRow = typeof notebookEgressHolds.$inferSelect;
type HoldView = HoldRow & { email: string; name: string | null };

export const HELD_DETAIL =
  'Your notebooks are on hold: more data reached your browser from notebooks today than this platform allows. ' +
  'An administrator has been told and must lift the hold before you can start or open a notebook again.';

export const holdRepository = {
  async active(db: DbOrTx, userId: string): Promise<HoldRow | undefined> {
    const [row] = await db
      .select()
      .from(notebookEgressHolds)
      .where(and(eq(notebookEgressHolds.userId, userId), isNull(notebookEgressHolds.liftedAt)))
      .limit(1);
    return row;
  },

  async listActive(db: DbOrTx): Promise<HoldView[]> {
    return db
      .select({ hold: notebookEgressHolds, email: users.email, name: users.name })
      .from(notebookEgressHolds)
      .innerJoin(users, eq(users.id, notebookEgressHolds.userId))
      .where(isNull(notebookEgressHolds.liftedAt))
      .orderBy(desc(notebookEgressHolds.createdAt))
      .then((rows) => rows.map(({ hold, ...user }) => ({ ...hold, ...user })));
  },

  async findForUpdate(db: DbOrTx, id: string): Promise<HoldRow | undefined> {
    const [row] = await db.select().from(notebookEgressHolds).where(eq(notebookEgressHolds.id, id)).for('update');
    return row;
  },
};

/** Refuses starting or opening a notebook while the user's notebooks are held. */
export async function refuseWhileHeld(services: Pick<AppServices, 'db'>, userId: string): Promise<void> {
  if (await holdRepository.active(services.db, userId)) throw forbidden(HELD_DETAIL);
}

function present(hold: HoldView): NotebookHold {
  return {
    id: hold.id,
    user: { id: hold.userId, email: hold.email, name: hold.name ?? hold.email },
    notebook_id: hold.notebookId,
    workbench_id: hold.workbenchId,
    bytes: hold.bytes,
    limit_bytes: hold.limitBytes,
    created_at: hold.createdAt.toISOString(),
    lifted_at: hold.liftedAt?.toISOString() ?? null,
    lifted_by: hold.liftedBy,
  };
}

export async function listHolds(services: AppServices) {
  const holds = (await holdRepository.listActive(services.db)).map(present);
  return { holds, total: holds.length, total_capped: false };
}

/**
 * The hard limit's consequence, in one transaction: the hold, its audit entry, and the stop of
 * the notebook whose traffic crossed the limit (with its own NOTEBOOK_STOPPED entry and job). Then
 * the user's sessions end and their open WebSockets close, on every notebook.
 */
export async function placeHold(services: AppServices, subject: EgressSubject, totals: EgressTotals, limitBytes: number): Promise<void> {
  const user = await services.db.select({ email: users.email }).from(users).where(eq(users.id, subject.userId)).then((rows) => rows[0]);
  const actor = { actorEmail: 'system (egress limit)' };
  const reason = 'Stopped: more data reached the browser from notebooks today than the platform allows; an administrator must lift the hold.';
  await services.db.transaction(async (tx) => {
    if (await holdRepository.active(tx, subject.userId)) return;
    const [hold] = await tx
      .insert(notebookEgressHolds)
      .values({ userId: subject.userId, notebookId: subject.notebookId, workbenchId: subject.workbenchId, bytes: totals.userDay, limitBytes })
      .returning();
    await appendAuditEntry(tx, actor, {
      eventType: 'EGRESS_HOLD_PLACED',
      outcome: 'SUCCESS',
      message: `${user?.email ?? subject.userId}'s notebooks were held: ${totals.userDay} bytes reached the browser in a day (limit ${limitBytes})`,
      resourceType: 'user',
      resourceId: subject.userId,
      details: { hold_id: hold!.id, notebook_id: subject.notebookId, workbench_id: subject.workbenchId, ...snake(totals), limit_bytes: limitBytes },
    });
    const notebook = await notebookRepository.findByIdForUpdate(tx, subject.notebookId);
    if (notebook?.status === 'RUNNING') {
      await notebookRepository.setStatus(tx, notebook.id, 'STOPPING', reason);
      await jobRepository.enqueue(tx, { kind: NOTEBOOK_JOB, payload: { notebookId: notebook.id, step: 'stop', reason }, subject: notebook.workbenchId });
      await appendAuditEntry(tx, actor, {
        eventType: 'NOTEBOOK_STOPPED',
        outcome: 'SUCCESS',
        message: `notebook "${notebook.name}" was stopped by the egress hard limit`,
        resourceType: 'notebook',
        resourceId: notebook.id,
        details: { workbench_id: notebook.workbenchId, reason: 'egress-limit', owner_id: notebook.ownerId },
      });
    }
  });
  services.notebooks.sessions.revokeUserEverywhere(subject.userId);
  services.notebooks.connections.closeUser(subject.userId, 'Your notebooks are on hold: the daily data limit was passed.');
  services.jobs.wake();
}

export async function liftHold(services: AppServices, actor: UserRow, holdId: string, context: AuditContext): Promise<NotebookHold> {
  const lifted = await services.db.transaction(async (tx) => {
    const hold = await holdRepository.findForUpdate(tx, holdId);
    if (!hold) throw notFound('There is no such hold.');
    if (hold.liftedAt) throw conflict('This hold was lifted already.');
    const [row] = await tx
      .update(notebookEgressHolds)
      .set({ liftedAt: sql`now()`, liftedBy: actor.id })
      .where(eq(notebookEgressHolds.id, holdId))
      .returning();
    const [user] = await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, hold.userId));
    await appendAuditEntry(tx, context, {
      eventType: 'EGRESS_HOLD_LIFTED',
      outcome: 'SUCCESS',
      message: `${actor.email} lifted the hold on ${user?.email ?? hold.userId}'s notebooks`,
      resourceType: 'user',
      resourceId: hold.userId,
      details: { hold_id: holdId, notebook_id: hold.notebookId, workbench_id: hold.workbenchId },
    });
    return { ...row!, email: user?.email ?? '', name: user?.name ?? null };
  });
  services.notebooks.egress?.reset(lifted.userId);
  return present(lifted);
}

export function snake(totals: EgressTotals) {
  return {
    user_hour_bytes: totals.userHour,
    user_day_bytes: totals.userDay,
    notebook_day_bytes: totals.notebookDay,
    workbench_day_bytes: totals.workbenchDay,
  };
}
