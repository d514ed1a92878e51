import { LIMITS, REFRESH_REFUSALS, type TokenResponse } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { ApiError, tooManyRequests, unauthorized } from '../http/api-error';
import { userRepository, type UserRow } from '../users/user-repository';
import { verifyPassword } from './passwords';
import { refreshTokenRepository } from './refresh-tokens';
import { recordSignInFailure, releaseSignInAttempt, reserveSignInAttempt } from './sign-in-throttle';

const INVALID_CREDENTIALS = 'Invalid email or password.';

async function tokensFor(services: AppServices, user: UserRow, refreshToken: string): Promise<TokenResponse> {
  return {
    id_token: await services.idTokens.issue(user),
    refresh_token: refreshToken,
    expires_in: LIMITS.idTokenTtlSeconds,
    token_type: 'Bearer',
  };
}

/** Signs a local account in with email and password (the embedded issuer). */
export async function signIn(
  services: AppServices,
  input: { email: string; password: string },
  context: AuditContext,
): Promise<TokenResponse> {
  const { db } = services;
  const email = input.email.toLowerCase();
  const address = context.clientAddress ?? 'unknown';
  const failureContext = { ...context, actorEmail: email };

  // Reserved before the (slow) password check, so that parallel guesses count against each other.
  const throttle = await reserveSignInAttempt(db, email, address);
  if (!throttle.allowed) {
    await recordAuditEvent(db, failureContext, {
      eventType: 'AUTH_SIGN_IN_FAILED',
      outcome: 'FAILURE',
      message: `Sign-in for ${email} refused: too many failed attempts`,
      details: { reason: 'throttled', retry_after_seconds: throttle.retryAfterSeconds },
    });
    throw tooManyRequests(
      `Too many failed sign-in attempts. Try again in ${throttle.retryAfterSeconds} seconds.`,
      throttle.retryAfterSeconds,
    );
  }

  const user = await userRepository.findByEmail(db, email);
  const local = user?.userSource === 'LOCAL' ? user : undefined;
  const passwordOk = await verifyPassword(input.password, local?.passwordHash);
  if (!local || !passwordOk) {
    // The account's reservation stays: it is this failure's count; the address is charged now.
    await recordSignInFailure(db, address);
    await recordAuditEvent(db, { ...failureContext, actorId: local?.id ?? null }, {
      eventType: 'AUTH_SIGN_IN_FAILED',
      outcome: 'FAILURE',
      message: `Failed sign-in for ${email}`,
      details: { reason: 'invalid_credentials' },
    });
    throw unauthorized(INVALID_CREDENTIALS);
  }
  if (local.status !== 'ACTIVE' || local.roles.length === 0) {
    await recordSignInFailure(db, address);
    await recordAuditEvent(db, { ...failureContext, actorId: local.id }, {
      eventType: 'AUTH_SIGN_IN_FAILED',
      outcome: 'DENIED',
      message: `Sign-in refused for ${email}: the account is ${local.status.toLowerCase()}`,
      resourceType: 'user',
      resourceId: local.id,
      details: { reason: 'inactive', status: local.status },
    });
    throw new ApiError(403, `This account is ${local.status.toLowerCase()}; ask an administrator.`);
  }

  return db.transaction(async (tx) => {
    await releaseSignInAttempt(tx, email);
    const refreshToken = await refreshTokenRepository.issue(tx, local.id);
    await appendAuditEntry(tx, { ...context, actorId: local.id, actorEmail: local.email }, {
      eventType: 'AUTH_SIGN_IN',
      outcome: 'SUCCESS',
      message: `${local.email} signed in`,
      resourceType: 'user',
      resourceId: local.id,
    });
    return tokensFor(services, local, refreshToken);
  });
}

/**
 * Rotates a refresh token. A token that was already used is evidence of theft: the whole family
 * is revoked, so both the thief and the victim must sign in again.
 */
export async function refreshSession(services: AppServices, token: string, context: AuditContext): Promise<TokenResponse> {
  const { db } = services;
  const fail = async (message: string, detail: string, extra: { userId?: string; revokeFamily?: string } = {}) => {
    await db.transaction(async (tx) => {
      if (extra.revokeFamily) await refreshTokenRepository.revokeFamily(tx, extra.revokeFamily);
      await appendAuditEntry(tx, { ...context, actorId: extra.userId ?? null }, {
        eventType: extra.revokeFamily ? 'AUTH_REFRESH_TOKEN_REUSED' : 'AUTH_TOKEN_REFRESH_FAILED',
        outcome: 'FAILURE',
        message,
        resourceType: extra.userId ? 'user' : null,
        resourceId: extra.userId ?? null,
      });
    });
    return unauthorized(detail);
  };

  const row = await refreshTokenRepository.find(db, token);
  if (!row) throw await fail('Token refresh with an unknown refresh token', REFRESH_REFUSALS.invalid);
  // The account first: disabling it also revokes its tokens, and the user should hear the real reason.
  const user = await userRepository.findById(db, row.userId);
  if (!user || user.status !== 'ACTIVE' || user.roles.length === 0) {
    throw await fail('Token refresh refused: the account is not active', REFRESH_REFUSALS.accountNotActive, {
      userId: row.userId,
    });
  }
  if (row.usedAt) {
    throw await fail(
      'A refresh token was used twice: its family was revoked',
      REFRESH_REFUSALS.reused,
      { userId: row.userId, revokeFamily: row.familyId },
    );
  }
  if (row.revokedAt) throw await fail('Token refresh with a revoked refresh token', REFRESH_REFUSALS.revoked, { userId: row.userId });
  if (row.expiresAt.getTime() <= Date.now()) throw await fail('Token refresh with an expired refresh token', REFRESH_REFUSALS.expired, { userId: row.userId });

  const rotated = await db.transaction(async (tx) => {
    if (!(await refreshTokenRepository.markUsed(tx, row.id))) return undefined;
    const next = await refreshTokenRepository.issue(tx, user.id, row.familyId);
    await appendAuditEntry(tx, { ...context, actorId: user.id, actorEmail: user.email }, {
      eventType: 'AUTH_TOKEN_REFRESHED',
      outcome: 'SUCCESS',
      message: `${user.email} refreshed their session`,
      resourceType: 'user',
      resourceId: user.id,
    });
    return next;
  });
  if (!rotated) {
    // Another request rotated this token between our read and our update: the same reuse.
    throw await fail('A refresh token was used twice: its family was revoked', REFRESH_REFUSALS.reused, {
      userId: user.id,
      revokeFamily: row.familyId,
    });
  }
  return tokensFor(services, user, rotated);
}

/** Signs a user out everywhere: every refresh token they hold is revoked. */
export async function signOut(services: AppServices, user: UserRow, context: AuditContext): Promise<void> {
  await services.db.transaction(async (tx) => {
    const revoked = await refreshTokenRepository.revokeAllForUser(tx, user.id);
    await appendAuditEntry(tx, context, {
      eventType: 'AUTH_SIGN_OUT',
      outcome: 'SUCCESS',
      message: `${user.email} signed out`,
      resourceType: 'user',
      resourceId: user.id,
      details: { refresh_tokens_revoked: revoked },
    });
  });
}
