import type { RouteHandlers } from '../../http/route-types';
import { auditContextOf } from '../../http/audit-context';
import { refreshSession, signIn } from '../../identity/session-commands';

export const authHandlers: RouteHandlers = {
  issueToken: async (request) => signIn(request.server.services, request.body, auditContextOf(request)),
  refreshToken: async (request) =>
    refreshSession(request.server.services, request.body.refresh_token, auditContextOf(request)),
};
