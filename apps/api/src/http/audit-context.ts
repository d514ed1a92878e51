import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../audit/audit-trail';

/** The who-and-where of an audit entry, from the request. */
export function auditContextOf(request: FastifyRequest): AuditContext {
  const userAgent = request.headers['user-agent'];
  return {
    actorId: request.user?.id ?? null,
    actorEmail: request.user?.email ?? null,
    clientAddress: request.clientAddress,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
    requestId: request.id,
  };
}
