import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, rolesFor } from '@hdp/contract';
import { recordAuditEvent } from '../audit/audit-trail';
import { forbidden, unauthorized } from './api-error';
import { auditContextOf } from './audit-context';

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Runs before anything else on every route: a protected route needs a valid id token of an ACTIVE
 * user, and the permission matrix must allow the route's permission for the user's roles. Denials
 * are audited. Runs before the body is parsed, so unauthenticated uploads are never read.
 */
export function registerAuthentication(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const access = request.routeOptions.config.access;
    if (!access || 'public' in access) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw unauthorized();
    const { idTokens, principals, db } = app.services;
    const user = await principals.resolve(await idTokens.verify(match[1]!));
    if (!user) throw unauthorized('No platform account matches this token; ask an administrator for an invitation.');
    if (user.status !== 'ACTIVE') throw unauthorized(`This account is ${user.status.toLowerCase()}.`);
    request.user = user;
    if (!can(user, access.permission)) {
      await recordAuditEvent(db, auditContextOf(request), {
        eventType: 'ACCESS_DENIED',
        outcome: 'DENIED',
        message: `${user.email} was denied ${request.method} ${request.routeOptions.url}`,
        details: { permission: access.permission, roles: user.roles, allowed_roles: rolesFor(access.permission) },
      });
      throw forbidden(`Your roles do not allow this (${access.permission} needs one of: ${rolesFor(access.permission).join(', ')}).`);
    }
  });
}
