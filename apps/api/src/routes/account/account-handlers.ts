import type { RouteHandlers } from '../../http/route-types';
import { currentUser } from '../../http/route-types';
import { auditContextOf } from '../../http/audit-context';
import { notFound } from '../../http/api-error';
import {
  confirmTotpEnrolment,
  mfaStatus,
  passkeyRegistrationOptions,
  regenerateRecoveryCodes,
  registerPasskey,
  removeFactor,
  renameFactor,
  resetFactors,
  startTotpEnrolment,
} from '../../identity/mfa/account-factors';
import { endAllSessions, endSession, listSessions } from '../../identity/sessions';
import { userRepository } from '../../users/user-repository';

/** The account page's calls (one's own second factors and sessions) and an administrator's resets. */
export const accountHandlers: RouteHandlers = {
  getMyMfa: async (request) => mfaStatus(request.server.services, currentUser(request)),
  startTotpEnrolment: async (request) => startTotpEnrolment(request.server.services, currentUser(request), request.body.name),
  confirmTotpEnrolment: async (request) =>
    confirmTotpEnrolment(request.server.services, currentUser(request), request.params.factorId, request.body.code, auditContextOf(request)),
  webauthnRegistrationOptions: async (request) => passkeyRegistrationOptions(request.server.services, currentUser(request)),
  registerWebauthn: async (request) => registerPasskey(request.server.services, currentUser(request), request.body, auditContextOf(request)),
  renameMfaFactor: async (request) =>
    renameFactor(request.server.services, currentUser(request), request.params.factorId, request.body.name, auditContextOf(request)),
  removeMfaFactor: async (request, reply) => {
    await removeFactor(request.server.services, currentUser(request), request.params.factorId, auditContextOf(request));
    return reply.code(204).send();
  },
  regenerateRecoveryCodes: async (request) => regenerateRecoveryCodes(request.server.services, currentUser(request), auditContextOf(request)),
  listMySessions: async (request) => listSessions(request.server.services, currentUser(request), request.sessionId),
  endMySession: async (request, reply) => {
    await endSession(request.server.services, currentUser(request), request.params.sessionId, auditContextOf(request));
    return reply.code(204).send();
  },
  endAllMySessions: async (request) => {
    const user = currentUser(request);
    return endAllSessions(request.server.services, user, user, auditContextOf(request));
  },
  resetUserMfa: async (request, reply) => {
    await resetFactors(request.server.services, currentUser(request), request.params.userId, auditContextOf(request));
    return reply.code(204).send();
  },
  endUserSessions: async (request) => {
    const user = await userRepository.findById(request.server.services.db, request.params.userId);
    if (!user) throw notFound('No such user.');
    const ended = await endAllSessions(request.server.services, currentUser(request), user, auditContextOf(request));
    request.server.services.principals.invalidate(user.id);
    return ended;
  },
};
