import type { Session } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import { notFound } from '../http/api-error';
import type { UserRow } from '../users/user-repository';
import { refreshTokenRepository } from './refresh-tokens';

/**
 * A person's sessions: each sign-in starts a refresh-token family, and the family's live token
 * says when it was last used (its rotation) and from where. Ending a session revokes its family:
 * it cannot be renewed, and its id token is refused from the next request (by another API process,
 * within the few seconds it trusts what it knows, see `ended-sessions.ts`).
 */
export async function listSessions(services: AppServices, user: UserRow, currentSessionId: string | undefined): Promise<{ sessions: Session[] }> {
  const live = await refreshTokenRepository.listActive(services.db, user.id);
  const firstIssued = await refreshTokenRepository.familyStarts(services.db, live.map((row) => row.familyId));
  return {
    sessions: live.map((row) => ({
      id: row.familyId,
      device: row.userAgent,
      client_address: row.clientAddress,
      signed_in_at: (firstIssued.get(row.familyId) ?? row.createdAt).toISOString(),
      last_used_at: row.createdAt.toISOString(),
      amr: row.amr,
      current: row.familyId === currentSessionId,
    })),
  };
}

export async function endSession(services: AppServices, user: UserRow, sessionId: string, context: AuditContext): Promise<void> {
  await services.db.transaction(async (tx) => {
    const revoked = await refreshTokenRepository.revokeFamilyOfUser(tx, user.id, sessionId);
    if (revoked === 0) throw notFound('No such session of yours (it may have ended already).');
    await appendAuditEntry(tx, context, {
      eventType: 'SESSION_ENDED',
      outcome: 'SUCCESS',
      message: `${user.email} ended one of their sessions`,
      resourceType: 'user',
      resourceId: user.id,
      details: { session_id: sessionId },
    });
  });
  services.endedSessions.ended(sessionId);
}

/** Ends all of a user's sessions: by themselves, or by an administrator (`actor`). */
export async function endAllSessions(services: AppServices, actor: UserRow, user: UserRow, context: AuditContext): Promise<{ sessions_ended: number }> {
  const ended = await services.db.transaction(async (tx) => {
    const sessions = new Set((await refreshTokenRepository.listActive(tx, user.id)).map((row) => row.familyId)).size;
    await refreshTokenRepository.revokeAllForUser(tx, user.id);
    await appendAuditEntry(tx, context, {
      eventType: 'SESSION_ENDED',
      outcome: 'SUCCESS',
      message: actor.id === user.id ? `${user.email} ended all their sessions` : `${actor.email} ended all sessions of ${user.email}`,
      resourceType: 'user',
      resourceId: user.id,
      details: { sessions_ended: sessions },
    });
    return sessions;
  });
  services.endedSessions.forgetUser(user.id);
  return { sessions_ended: ended };
}
