import { endNotebookAccess, stopNotebooksOfUser } from '../notebooks/notebook-revocation';
import { canTransition, USER_TRANSITIONS, type AuditEventType, type UserTransition } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import type { DbOrTx } from '../db/database';
import { conflict, notFound } from '../http/api-error';
import { refreshTokenRepository } from '../identity/refresh-tokens';
import { invitationRepository } from './invitation-repository';
import { userRepository, type UserRow } from './user-repository';

export const USER_NOT_FOUND = 'User does not exist.';

interface StatusChange {
  transition: Exclude<UserTransition, 'accept' | 'resendInvitation'>;
  eventType: AuditEventType;
  verb: string;
  /** The start of the 409 detail when the state does not allow the change. */
  refusal: string;
  /** Extra refusals beyond the state machine (409 with the reason). */
  guard?: (tx: DbOrTx, user: UserRow) => Promise<void>;
  /** What else changes with the status, in the same transaction; returns audit details. */
  effects?: (tx: DbOrTx, user: UserRow) => Promise<Record<string, unknown>>;
}

const CHANGES = {
  disable: {
    transition: 'disable',
    eventType: 'USER_DISABLED',
    verb: 'disabled',
    refusal: 'Only an active user can be disabled',
    effects: async (tx, user) => ({ refresh_tokens_revoked: await refreshTokenRepository.revokeAllForUser(tx, user.id) }),
  },
  enable: { transition: 'enable', eventType: 'USER_ENABLED', verb: 'enabled', refusal: 'Only a disabled user can be enabled' },
  revoke: {
    transition: 'revoke',
    eventType: 'USER_INVITATION_REVOKED',
    verb: 'revoked the invitation of',
    refusal: 'Only a pending invitation can be revoked',
    effects: async (tx, user) => {
      await invitationRepository.invalidateOpen(tx, user.id);
      return {};
    },
  },
} satisfies Record<string, StatusChange>;

/**
 * Moves a user along the state machine (USER_TRANSITIONS in the contract). A change the current
 * state does not allow answers 409 saying why. An admin cannot act on their own account, nor
 * remove the last active admin. The cached principal is dropped, so the change holds from the
 * user's next request.
 */
export async function changeUserStatus(
  services: AppServices,
  actor: UserRow,
  userId: string,
  change: keyof typeof CHANGES,
  context: AuditContext,
): Promise<UserRow> {
  const { transition, eventType, verb, refusal, ...rest } = CHANGES[change] as StatusChange;
  let stopped: string[] = [];
  const updated = await services.db.transaction(async (tx) => {
    const user = await userRepository.findById(tx, userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    if (!canTransition(user.status, transition)) throw conflict(`${refusal}; this user is ${user.status}.`);
    if (user.id === actor.id) throw conflict(`You cannot ${change} your own account.`);
    const losesAccess = USER_TRANSITIONS[transition].to !== 'ACTIVE';
    if (losesAccess && user.roles.includes('ADMIN') && user.status === 'ACTIVE' && (await userRepository.countActiveAdminsForUpdate(tx)) <= 1) {
      throw conflict('This is the last active administrator; enable or invite another admin first.');
    }
    await rest.guard?.(tx, user);
    const row = (await userRepository.update(tx, user.id, {
      status: USER_TRANSITIONS[transition].to,
      ...(transition === 'revoke' && { invitationExpiresAt: null }),
    }))!;
    const details = (await rest.effects?.(tx, user)) ?? {};
    // A disabled user's running notebooks stop with the change (notebook-revocation.ts).
    if (change === 'disable') stopped = await stopNotebooksOfUser(tx, context, user.id, 'user-disabled');
    await appendAuditEntry(tx, context, {
      eventType,
      outcome: 'SUCCESS',
      message: `${actor.email} ${verb} ${user.email}`,
      resourceType: 'user',
      resourceId: user.id,
      details: { from: user.status, to: row.status, ...details },
    });
    return row;
  });
  services.principals.invalidate(updated.id);
  services.endedSessions.forgetUser(updated.id);
  if (change === 'disable') await endNotebookAccess(services, context, updated, 'user-disabled', { stopped });
  return updated;
}
