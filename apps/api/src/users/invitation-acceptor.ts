import { canTransition, type AcceptInvitationRequest, type InvitationInfo } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import type { DbOrTx } from '../db/database';
import { badRequest, notFound, unauthorized } from '../http/api-error';
import { assertPasswordAcceptable } from '../identity/password-policy';
import { hashPassword } from '../identity/passwords';
import { invitationRepository, type InvitationRow } from './invitation-repository';
import { userRepository, type UserRow } from './user-repository';

export const INVITATION_INVALID = 'This invitation is no longer valid. Ask an administrator to send a new one.';
export const INVITATION_EXPIRED = 'This invitation has expired. Ask an administrator to send a new one.';

/** The invitation behind a token, with its user, when it can still be accepted; 404 otherwise. */
async function openInvitation(
  db: DbOrTx,
  token: string,
  lock: boolean,
): Promise<{ invitation: InvitationRow; user: UserRow }> {
  const invitation = lock
    ? await invitationRepository.findByTokenForUpdate(db, token)
    : await invitationRepository.findByToken(db, token);
  if (!invitation || invitation.acceptedAt || invitation.invalidatedAt) throw notFound(INVITATION_INVALID);
  const user = await userRepository.findById(db, invitation.userId);
  if (!user || !canTransition(user.status, 'accept')) throw notFound(INVITATION_INVALID);
  if (invitation.expiresAt.getTime() <= Date.now()) throw notFound(INVITATION_EXPIRED);
  return { invitation, user };
}

/** What the accept page shows: whose invitation it is and how to accept it. */
export async function inspectInvitation(services: AppServices, token: string): Promise<InvitationInfo> {
  const { invitation, user } = await openInvitation(services.db, token, false);
  return { email: user.email, name: user.name, user_source: user.userSource, expires_at: invitation.expiresAt.toISOString() };
}

/**
 * Accepts an invitation: INVITED → ACTIVE. A local account sets its password (judged by the
 * contract's password rule, with the invitee's name and email as context); an external identity proves itself with an id token from the
 * configured provider carrying the invited email. The link works once.
 */
export async function acceptInvitation(
  services: AppServices,
  request: AcceptInvitationRequest,
  context: AuditContext,
): Promise<UserRow> {
  // Checked before the transaction: hashing is slow and needs no lock.
  const preview = await openInvitation(services.db, request.token, false);
  let passwordHash: string | undefined;
  if (preview.user.userSource === 'LOCAL') {
    if (!request.password) throw badRequest('password: a password is required to accept this invitation');
    assertPasswordAcceptable(request.password, { email: preview.user.email, name: preview.user.name });
    passwordHash = await hashPassword(request.password);
  } else {
    if (!request.id_token) throw badRequest('id_token: sign in with your organisation to accept this invitation');
    const identity = await services.idTokens.verify(request.id_token);
    if (identity.issuer !== 'external' || identity.email !== preview.user.email) {
      throw unauthorized(`Sign in as ${preview.user.email} with your organisation to accept this invitation.`);
    }
  }
  const accepted = await services.db.transaction(async (tx) => {
    const { invitation, user } = await openInvitation(tx, request.token, true);
    await invitationRepository.markAccepted(tx, invitation.id);
    const row = (await userRepository.update(tx, user.id, {
      status: 'ACTIVE',
      invitationExpiresAt: null,
      ...(passwordHash && { passwordHash }),
    }))!;
    await appendAuditEntry(tx, { ...context, actorId: user.id, actorEmail: user.email }, {
      eventType: 'USER_INVITATION_ACCEPTED',
      outcome: 'SUCCESS',
      message: `${user.email} accepted their invitation`,
      resourceType: 'user',
      resourceId: user.id,
    });
    return row;
  });
  services.principals.invalidate(accepted.id);
  return accepted;
}
