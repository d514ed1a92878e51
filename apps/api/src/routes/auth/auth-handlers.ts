import type { RouteHandlers } from '../../http/route-types';
import { auditContextOf } from '../../http/audit-context';
import { refreshSession, signIn } from '../../identity/session-commands';
import { completeSignIn, enrolAtSignIn, mfaSignInOptions } from '../../identity/mfa/sign-in-second-step';

export const authHandlers: RouteHandlers = {
  issueToken: async (request) => signIn(request.server.services, request.body, auditContextOf(request)),
  refreshToken: async (request) =>
    refreshSession(request.server.services, request.body.refresh_token, auditContextOf(request)),
  issueMfaToken: async (request) => completeSignIn(request.server.services, request.body, auditContextOf(request)),
  mfaSignInOptions: async (request) => mfaSignInOptions(request.server.services, request.body.challenge),
  enrolMfaAtSignIn: async (request) => enrolAtSignIn(request.server.services, request.body.challenge, request.body.kind),
};
