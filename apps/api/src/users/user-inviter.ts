import { canTransition, type InviteUsersRequest, type InviteUsersResponse } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import { ApiError, conflict, notFound } from '../http/api-error';
import { invitationRepository } from './invitation-repository';
import { invitationLink, invitationMessage } from './invitation-mail';
import { presentUser } from './user-presenter';
import { userRepository, type UserRow } from './user-repository';
import { USER_NOT_FOUND } from './user-status-changer';

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string })?.code === '23505' || (error as { cause?: { code?: string } })?.cause?.code === '23505';

const expiryFrom = (services: AppServices) => new Date(Date.now() + services.config.invitationTtlDays * 24 * 3600 * 1000);

/** Sends the e-mail after the change has committed; a failed delivery is reported, not rolled back. */
async function sendInvitation(services: AppServices, user: UserRow, inviter: string, token: string, expiresAt: Date) {
  try {
    await services.mailer.send(invitationMessage(services.config, user, inviter, token, expiresAt));
    if (!services.config.smtpUrl) {
      // With no mail server the outbox is the delivery: the operator needs the link to pass on.
      services.logger.info({ to: user.email }, `invitation link for ${user.email}: ${invitationLink(services.config, token)}`);
    }
    return true;
  } catch (error) {
    services.logger.error({ err: error, to: user.email }, 'invitation e-mail could not be sent');
    return false;
  }
}

/**
 * Invites each address in the request. Each address is its own change: some may be invited while
 * others already exist, and the answer says what happened to each. When none could be invited the
 * answer is 409.
 */
export async function inviteUsers(
  services: AppServices,
  actor: UserRow,
  request: InviteUsersRequest,
  context: AuditContext,
): Promise<InviteUsersResponse> {
  const results: InviteUsersResponse['results'] = [];
  const seen = new Set<string>();
  for (const invitation of request.invitations) {
    const email = invitation.email.toLowerCase();
    if (seen.has(email)) {
      results.push({ email, outcome: 'DUPLICATE_IN_REQUEST', detail: 'This address appears more than once in the request.', user: null, email_sent: false });
      continue;
    }
    seen.add(email);
    const expiresAt = expiryFrom(services);
    try {
      const { user, token } = await services.db.transaction(async (tx) => {
        const existing = await userRepository.findByEmail(tx, email);
        if (existing) throw conflict(`A user with this email already exists (${existing.status}).`);
        const row = await userRepository.insert(tx, {
          email,
          name: invitation.name ?? null,
          roles: invitation.roles,
          status: 'INVITED',
          userSource: invitation.user_source,
          invitationExpiresAt: expiresAt,
        });
        const issued = await invitationRepository.issue(tx, row.id, actor.id, expiresAt);
        await appendAuditEntry(tx, context, {
          eventType: 'USER_INVITED',
          outcome: 'SUCCESS',
          message: `${actor.email} invited ${email} as ${invitation.roles.join(', ')}`,
          resourceType: 'user',
          resourceId: row.id,
          details: { roles: invitation.roles, user_source: invitation.user_source, expires_at: expiresAt.toISOString() },
        });
        return { user: row, token: issued };
      });
      const sent = await sendInvitation(services, user, actor.name ?? actor.email, token, expiresAt);
      results.push({ email, outcome: 'INVITED', detail: sent ? null : 'Invited, but the e-mail could not be sent; re-send it.', user: presentUser(user), email_sent: sent });
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 409) {
        results.push({ email, outcome: 'ALREADY_EXISTS', detail: error.detail, user: null, email_sent: false });
      } else if (isUniqueViolation(error)) {
        results.push({ email, outcome: 'ALREADY_EXISTS', detail: 'A user with this email already exists.', user: null, email_sent: false });
      } else {
        throw error;
      }
    }
  }
  if (!results.some((r) => r.outcome === 'INVITED')) {
    throw conflict(results.map((r) => `${r.email}: ${r.detail}`).join(' '));
  }
  return { results };
}

/** Re-sends an invitation: a new link is issued and the old one stops working. */
export async function resendInvitation(
  services: AppServices,
  actor: UserRow,
  userId: string,
  email: string,
  context: AuditContext,
): Promise<UserRow> {
  const expiresAt = expiryFrom(services);
  const { user, token } = await services.db.transaction(async (tx) => {
    const found = await userRepository.findById(tx, userId);
    if (!found || found.email !== email.toLowerCase()) throw notFound(USER_NOT_FOUND);
    if (!canTransition(found.status, 'resendInvitation')) {
      throw conflict(`Only a pending invitation can be re-sent; this user is ${found.status}.`);
    }
    await invitationRepository.invalidateOpen(tx, found.id);
    const issued = await invitationRepository.issue(tx, found.id, actor.id, expiresAt);
    const row = (await userRepository.update(tx, found.id, { invitationExpiresAt: expiresAt }))!;
    await appendAuditEntry(tx, context, {
      eventType: 'USER_INVITATION_RESENT',
      outcome: 'SUCCESS',
      message: `${actor.email} re-sent the invitation of ${found.email}`,
      resourceType: 'user',
      resourceId: found.id,
      details: { expires_at: expiresAt.toISOString() },
    });
    return { user: row, token: issued };
  });
  if (!(await sendInvitation(services, user, actor.name ?? actor.email, token, expiresAt))) {
    throw new ApiError(502, 'A new invitation link was made, but the e-mail could not be sent. Check the mail settings and re-send.');
  }
  return user;
}
