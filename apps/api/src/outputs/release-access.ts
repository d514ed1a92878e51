import { can, type WorkbenchMemberRole } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { forbidden, notFound } from '../http/api-error';
import type { UserRow } from '../users/user-repository';
import { workbenchRepository } from '../workbenches/workbench-repository';
import { releaseRepository, type ReleaseRequestView } from './release-repository';

export const RELEASE_REQUEST_NOT_FOUND = 'Release request does not exist.';

/** Who the caller is to a request: its author, a member of its workbench, one of its checkers. */
export interface RequestAccess {
  request: ReleaseRequestView;
  myRole: WorkbenchMemberRole | null;
  isAuthor: boolean;
  /**
   * A checker of this request: holds `outputs:review`, is not its author and not a member of its
   * workbench (checkers come from outside the project), and the request has been submitted.
   */
  isChecker: boolean;
}

/** Whether `actor` may check requests of `workbenchId` at all (before the request's own state). */
export function mayCheck(actor: UserRow, authorId: string, myRole: WorkbenchMemberRole | null): boolean {
  return can(actor, 'outputs:review') && actor.id !== authorId && myRole === null;
}

/**
 * A request the caller may see: members of its workbench see its requests; a checker sees those
 * submitted at least once. Anyone else is told it does not exist (audited as a denial).
 */
export async function loadRequest(services: AppServices, actor: UserRow, requestId: string, context: AuditContext): Promise<RequestAccess> {
  const request = await releaseRepository.find(services.db, requestId);
  if (request) {
    const myRole = (await workbenchRepository.memberRole(services.db, request.workbenchId, actor.id)) ?? null;
    const isChecker = mayCheck(actor, request.authorId, myRole) && request.round > 0;
    if (myRole !== null || isChecker) return { request, myRole, isAuthor: request.authorId === actor.id && myRole !== null, isChecker };
    await recordAuditEvent(services.db, context, {
      eventType: 'ACCESS_DENIED',
      outcome: 'DENIED',
      message: `${actor.email} was denied release request ${requestId}`,
      resourceType: 'release_request',
      resourceId: requestId,
      details: { workbench_id: request.workbenchId, author: request.authorId === actor.id },
    });
  }
  throw notFound(RELEASE_REQUEST_NOT_FOUND);
}

/** Refuses (403, audited) a caller who is not the request's author (still a member of the workbench). */
export async function requireAuthor(services: AppServices, actor: UserRow, access: RequestAccess, action: string, context: AuditContext): Promise<void> {
  if (access.isAuthor && access.myRole !== 'READER') return;
  await deny(services, actor, access, action, context);
  throw forbidden(`Only the author of this release request may ${action} it.`);
}

/** Refuses (403, audited) a caller who is not a checker of this request. */
export async function requireChecker(services: AppServices, actor: UserRow, access: RequestAccess, action: string, context: AuditContext): Promise<void> {
  if (access.isChecker) return;
  await deny(services, actor, access, action, context);
  const why =
    access.request.authorId === actor.id
      ? 'the author of a request may never review it'
      : access.myRole !== null
        ? 'members of the workbench may not review its outputs; checkers come from outside it'
        : 'you may not review this request';
  throw forbidden(`You cannot ${action} this release request: ${why}.`);
}

async function deny(services: AppServices, actor: UserRow, access: RequestAccess, action: string, context: AuditContext): Promise<void> {
  await recordAuditEvent(services.db, context, {
    eventType: 'ACCESS_DENIED',
    outcome: 'DENIED',
    message: `${actor.email} was denied ${action} on release request ${access.request.id}`,
    resourceType: 'release_request',
    resourceId: access.request.id,
    details: { action, workbench_id: access.request.workbenchId, role: access.myRole },
  });
}
