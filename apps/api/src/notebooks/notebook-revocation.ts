import { and, eq } from 'drizzle-orm';
import type { AppServices } from '../app-services';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import type { DbOrTx } from '../db/database';
import { notebooks } from '../db/schema';
import { jobRepository } from '../jobs/job-repository';
import { NOTEBOOK_JOB } from './notebook-commands';
import { notebookRepository } from './notebook-repository';

/** Why a user's access to notebooks ended. */
export type Revocation = 'user-disabled' | 'member-removed' | 'signed-out';

const REASONS: Record<Exclude<Revocation, 'signed-out'>, string> = {
  'user-disabled': 'Stopped: its creator was disabled; its files are kept.',
  'member-removed': 'Stopped: its creator is no longer a member of the workbench; its files are kept.',
};

/**
 * In the caller's transaction (the disable or the member removal): the user's RUNNING notebooks
 * (in one workbench, or all of them) move to STOPPING with their stop jobs and a NOTEBOOK_STOPPED
 * entry each, so that none keeps running with the released data mounted for someone who may no
 * longer use it. Answers their ids.
 */
export async function stopNotebooksOfUser(
  tx: DbOrTx,
  context: AuditContext,
  userId: string,
  why: Exclude<Revocation, 'signed-out'>,
  workbenchId?: string,
): Promise<string[]> {
  const owned = await tx
    .select({ id: notebooks.id })
    .from(notebooks)
    .where(and(eq(notebooks.ownerId, userId), eq(notebooks.status, 'RUNNING'), ...(workbenchId ? [eq(notebooks.workbenchId, workbenchId)] : [])));
  const stopped: string[] = [];
  for (const { id } of owned) {
    const notebook = await notebookRepository.findByIdForUpdate(tx, id);
    if (notebook?.status !== 'RUNNING') continue;
    await notebookRepository.setStatus(tx, id, 'STOPPING', REASONS[why]);
    await jobRepository.enqueue(tx, { kind: NOTEBOOK_JOB, payload: { notebookId: id, step: 'stop', reason: REASONS[why] }, subject: notebook.workbenchId });
    await appendAuditEntry(tx, context, {
      eventType: 'NOTEBOOK_STOPPED',
      outcome: 'SUCCESS',
      message: `notebook "${notebook.name}" was stopped: ${why === 'user-disabled' ? 'its creator was disabled' : 'its creator was removed from the workbench'}`,
      resourceType: 'notebook',
      resourceId: id,
      details: { workbench_id: notebook.workbenchId, reason: why, owner_id: userId },
    });
    stopped.push(id);
  }
  return stopped;
}

/**
 * After the change has committed: the user's notebook sessions end (their cookies are refused)
 * and their open WebSockets close, on the given notebooks or on all, audited as
 * NOTEBOOK_ACCESS_REVOKED when anything was open.
 */
export async function endNotebookAccess(
  services: AppServices,
  context: AuditContext,
  user: { id: string; email: string },
  why: Revocation,
  scope: { workbenchId?: string; stopped?: string[] } = {},
): Promise<void> {
  const { sessions, connections } = services.notebooks;
  let closed = 0;
  let ended = 0;
  if (scope.workbenchId) {
    // The notebooks of that workbench only: sessions of the user's other notebooks stay.
    const inWorkbench = await services.db
      .select({ id: notebooks.id })
      .from(notebooks)
      .where(and(eq(notebooks.ownerId, user.id), eq(notebooks.workbenchId, scope.workbenchId)));
    for (const { id } of inWorkbench) {
      sessions.revokeUser(id, user.id);
      closed += connections.closeUser(user.id, 'You are no longer a member of this workbench.', id);
    }
  } else {
    ended = sessions.revokeUserEverywhere(user.id);
    closed = connections.closeUser(user.id, why === 'signed-out' ? 'You signed out.' : 'Your account was disabled.');
  }
  for (const id of scope.stopped ?? []) connections.closeNotebook(id, 'The notebook is stopping.');
  if (scope.stopped?.length) services.jobs.wake();
  // Nothing was open: the sign-out's, disable's or removal's own entry says it all.
  if (ended === 0 && closed === 0 && !scope.stopped?.length) return;
  await recordAuditEvent(services.db, context, {
    eventType: 'NOTEBOOK_ACCESS_REVOKED',
    outcome: 'SUCCESS',
    message: `${user.email}'s notebook sessions were ended (${why})`,
    resourceType: 'user',
    resourceId: user.id,
    details: { reason: why, workbench_id: scope.workbenchId ?? null, sessions_ended: ended, connections_closed: closed, notebooks_stopped: scope.stopped ?? [] },
  });
}
