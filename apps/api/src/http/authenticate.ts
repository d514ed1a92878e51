import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { accountStatusDetail, can, EXTERNAL_TOKEN_DETAILS, rolesFor, SECOND_FACTOR_REQUIRED_DETAIL, SESSION_ENDED_DETAIL, type Permission } from '@hdp/contract';
import type { VerifiedIdentity } from '../identity/id-tokens';
import { recordAuditEvent } from '../audit/audit-trail';
import type { UserRow } from '../users/user-repository';
import { forbidden, unauthorized } from './api-error';
import { auditContextOf } from './audit-context';

/**
 * The token of an `Authorization: Bearer <token>` header (the scheme in any case, RFC 9110).
 * Anything else in the token than a JWT's characters fails its verification later.
 */
function bearerToken(header: string | undefined): string | undefined {
  if (!header || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return header.slice(7).trim() || undefined;
}

/**
 * Every route that names a permission gets this check before anything else: a valid id token of
 * an ACTIVE user, whose roles the permission matrix allows. Denials are audited. It runs before
 * the body is parsed, so unauthenticated uploads are never read. It is attached to each route as
 * the route is registered, from the route's own `access`, so a request does not look it up.
 *
 * An embedded token whose session (`sid`) has been ended is refused, though it has not expired:
 * ending a session takes effect at the next request, not when the token runs out.
 *
 * Most requests carry a token this process has verified already, of a user it has loaded and a
 * session it has checked within the last seconds: those are decided without waiting on anything.
 * The rest verify the token, load the user and check the session first.
 */
export function registerAuthentication(app: FastifyInstance): void {
  app.decorateRequest('user', undefined);
  app.decorateRequest('sessionId', undefined);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access || 'public' in access) return;
    const hooks = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [authenticate(app, access.permission), ...hooks];
  });
}

function authenticate(app: FastifyInstance, permission: Permission): onRequestHookHandler {
  const { idTokens, principals, endedSessions } = app.services;
  return (request, _reply, done) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) return done(unauthorized());
    const identity = idTokens.cachedIdentity(token);
    if (identity && !enoughFactors(identity)) return done(unauthorized(SECOND_FACTOR_REQUIRED_DETAIL));
    const sessionId = identity && sessionOf(identity);
    // false: known to be live; undefined: not checked lately (or no token verified yet).
    const sessionEnded = sessionId === undefined ? false : endedSessions.cached(sessionId);
    if (sessionEnded) {
      // A disabled account's sessions end with it: the account's state is the reason to give.
      const user = identity && principals.cached(identity);
      return done(unauthorized(user && user.status !== 'ACTIVE' ? accountStatusDetail(user.status) : SESSION_ENDED_DETAIL));
    }
    const known = identity && sessionEnded === false && principals.cached(identity);
    if (known) return admit(app, request, known, permission, done, identity);
    let verifiedIdentity: VerifiedIdentity;
    idTokens
      .verify(token)
      .then(async (verified) => {
        if (!enoughFactors(verified)) throw unauthorized(SECOND_FACTOR_REQUIRED_DETAIL);
        verifiedIdentity = verified;
        const sessionId = sessionOf(verified);
        // The two lookups at once: a request that needs both waits for one round trip, not two.
        const [ended, user] = await Promise.all([
          verified.issuer === 'embedded' && sessionId !== undefined ? endedSessions.isEnded(sessionId, verified.userId) : false,
          principals.resolve(verified),
        ]);
        // A disabled account's sessions end with it: admit() then gives the account's state as the reason.
        if (ended && (!user || user.status === 'ACTIVE')) throw unauthorized(SESSION_ENDED_DETAIL);
        return user;
      })
      .then((user) => {
        if (!user) return done(unauthorized(EXTERNAL_TOKEN_DETAILS.noAccount));
        admit(app, request, user, permission, done, verifiedIdentity);
      }, done);
  };

  /**
   * Where the platform requires a second factor, an embedded token must say it had one (`acr`); a
   * token from before this was required, or minted from a password alone, is refused. Tokens of an
   * outside provider answer to OIDC_REQUIRED_ACR / OIDC_REQUIRED_AMR instead, checked on verification.
   */
  function enoughFactors(identity: VerifiedIdentity): boolean {
    return !app.services.config.mfa.required || identity.issuer !== 'embedded' || identity.multiFactor;
  }
}

/** The session an embedded token belongs to; tokens of an outside provider have none here. */
const sessionOf = (identity: VerifiedIdentity): string | undefined => (identity.issuer === 'embedded' ? identity.sessionId : undefined);

/** Lets an ACTIVE user through when the matrix allows; a denial is audited, then answered 403. */
function admit(
  app: FastifyInstance,
  request: FastifyRequest,
  user: UserRow,
  permission: Permission,
  done: HookHandlerDoneFunction,
  identity: VerifiedIdentity,
): void {
  if (user.status !== 'ACTIVE') return done(unauthorized(accountStatusDetail(user.status)));
  request.user = user;
  if (identity.issuer === 'embedded') request.sessionId = identity.sessionId;
  if (can(user, permission)) return done();
  const allowed = rolesFor(permission);
  recordAuditEvent(app.services.db, auditContextOf(request), {
    eventType: 'ACCESS_DENIED',
    outcome: 'DENIED',
    message: `${user.email} was denied ${request.method} ${request.routeOptions.url}`,
    details: { permission, roles: user.roles, allowed_roles: allowed },
  }).then(
    () => done(forbidden(`Your roles do not allow this (${permission} needs one of: ${allowed.join(', ')}).`)),
    done,
  );
}
