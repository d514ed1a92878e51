import type { RouteHandlers } from '../../http/route-types';
import { auditContextOf } from '../../http/audit-context';
import { acceptInvitation, inspectInvitation } from '../../users/invitation-acceptor';
import { presentUser } from '../../users/user-presenter';

export const invitationHandlers: RouteHandlers = {
  inspectInvitation: async (request) => inspectInvitation(request.server.services, request.body.token),
  acceptInvitation: async (request) =>
    presentUser(await acceptInvitation(request.server.services, request.body, auditContextOf(request))),
};
