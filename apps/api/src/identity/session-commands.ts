import { endNotebookAccess } from '../notebooks/notebook-revocation';
import { AMR, LIMITS, REFRESH_REFUSALS, type SignInResponse, type TokenResponse } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { ApiError, tooManyRequests, unauthorized } from '../http/api-error';
import { userRepository, type UserRow } from '../users/user-repository';
import { verifyPassword } from './passwords';
import { refreshTokenRepository } from './refresh-tokens';
import { factorRepository } from './mfa/factor-repository';
import { secondStepFor } from './mfa/sign-in-second-step';
import type { DbOrTx } from '../db/database';
import { recordSignInFailure, releaseSignInAttempt, reserveSignInAttempt } from './sign-in-throttle';

const INVALID_CREDENTIALS = 'Invalid email or password.';

async function tokensFor(services: AppServices, user: UserRow, issued: { token: string; familyId: string }, amr: string[]): Promise<TokenResponse> {
  return {
    id_token: await services.idTokens.issue(user, { amr, sessionId: issued.familyId }),
    refresh_token: issued.token,
    expires_in: LIMITS.idTokenTtlSeconds,
    token_type: 'Bearer',
  };
}

/** Starts a session (a new refresh-token family) for a user whose sign-in is complete, audited in `tx`. */
export async function startSession(
  services: AppServices,
  tx: DbOrTx,
  user: UserRow,
  amr: string[],
  context: AuditContext,
): Promise<TokenResponse> {
  const issued = await refreshTokenRepository.issue(tx, user.id, { amr, userAgent: context.userAgent, clientAddress: context.clientAddress });
  await appendAuditEntry(tx, { ...context, actorId: user.id, actorEmail: user.email }, {
    eventType: 'AUTH_SIGN_IN',
    outcome: 'SUCCESS',
    message: `${user.email} signed in`,
    resourceType: 'user',
    resourceId: user.id,
    details: { amr },
  });
  return tokensFor(services, user, issued, amr);
}

/**
 * Signs a local account in with email and password (the embedded issuer). A person with a second
 * factor, or anyone where the platform requires one, gets a short-lived challenge instead of
 * tokens: the second step (`completeSignIn`) answers it.
 */
export async function signIn(
  services: AppServices,
  input: { email: string; password: string },
  context: AuditContext,
): Promise<SignInResponse> {
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

  const factors = await factorRepository.listConfirmed(db, local.id);
  if (factors.length === 0 && !services.config.mfa.required) {
    return db.transaction(async (tx) => {
      await releaseSignInAttempt(tx, email);
      return startSession(services, tx, local, [AMR.password], context);
    });
  }
  // The password was right: the account's count is cleared, and each wrong code counts afresh.
  await releaseSignInAttempt(db, email);
  return secondStepFor(services, local, factors, context);
}

/**
 * Rotates a refresh token. A token that was already used is evidence of theft: the whole family
 * is revoked, so both the thief and the victim must sign in again.
 */
export async function refreshSession(services: AppServices, token: string, context: AuditContext): Promise<TokenResponse> {
  const { db } = services;
  const fail = async (message: string, detail: string, extra: { userId?: string; revokeFamily?: string; reuse?: boolean } = {}) => {
    await db.transaction(async (tx) => {
      if (extra.revokeFamily) await refreshTokenRepository.revokeFamily(tx, extra.revokeFamily);
      await appendAuditEntry(tx, { ...context, actorId: extra.userId ?? null }, {
        eventType: extra.reuse ? 'AUTH_REFRESH_TOKEN_REUSED' : 'AUTH_TOKEN_REFRESH_FAILED',
        outcome: 'FAILURE',
        message,
        resourceType: extra.userId ? 'user' : null,
        resourceId: extra.userId ?? null,
      });
    });
    if (extra.revokeFamily) services.endedSessions.ended(extra.revokeFamily);
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
      { userId: row.userId, revokeFamily: row.familyId, reuse: true },
    );
  }
  if (row.revokedAt) throw await fail('Token refresh with a revoked refresh token', REFRESH_REFUSALS.revoked, { userId: row.userId });
  if (row.expiresAt.getTime() <= Date.now()) throw await fail('Token refresh with an expired refresh token', REFRESH_REFUSALS.expired, { userId: row.userId });
  // A session signed in with a password alone (one from before second factors were required included) ends.
  if (services.config.mfa.required && !row.amr.includes(AMR.multiFactor)) {
    throw await fail('Token refresh refused: the session has no second factor', REFRESH_REFUSALS.secondFactorRequired, {
      userId: row.userId,
      revokeFamily: row.familyId,
    });
  }

  const rotated = await db.transaction(async (tx) => {
    if (!(await refreshTokenRepository.markUsed(tx, row.id))) return undefined;
    const next = await refreshTokenRepository.issue(
      tx,
      user.id,
      { amr: row.amr, userAgent: row.userAgent, clientAddress: context.clientAddress ?? row.clientAddress },
      row.familyId,
    );
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
      reuse: true,
    });
  }
  return tokensFor(services, user, rotated, row.amr);
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
  services.endedSessions.forgetUser(user.id);
  // Signing out ends the notebook sessions of every browser too (the notebooks keep running).
  await endNotebookAccess(services, context, user, 'signed-out');
}
