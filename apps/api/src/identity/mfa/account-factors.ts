import { eq, sql } from 'drizzle-orm';
import type { MfaStatus } from '@hdp/contract';
import type { AppServices } from '../../app-services';
import type { DbOrTx } from '../../db/database';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../../audit/audit-trail';
import { webauthnRegistrations } from '../../db/schema';
import { badRequest, conflict, notFound, tooManyRequests } from '../../http/api-error';
import { userRepository, type UserRow } from '../../users/user-repository';
import { refreshTokenRepository } from '../refresh-tokens';
import { recordSignInFailure, releaseSignInAttempt, reserveSignInAttempt } from '../sign-in-throttle';
import { factorRepository, presentFactor, type FactorRow } from './factor-repository';
import { registrationOptions, verifyRegistration } from './passkeys';
import { recoveryCodes } from './recovery-codes';
import { newTotpSecret, sealedTotpStepOf, totpProvisioning } from './totp';

/**
 * A signed-in person's own second factors (the account page), and an administrator's reset of
 * another person's. Every change is audited in the transaction that makes it.
 */
const FACTOR_NOT_FOUND = 'No such second factor of yours.';
const REGISTRATION_TTL_MS = 5 * 60_000;

const audited = (context: AuditContext, user: UserRow) => ({ ...context, actorId: user.id, actorEmail: user.email });
const kindName = (factor: FactorRow) => (factor.kind === 'TOTP' ? 'an authenticator app' : 'a passkey');

export async function mfaStatus(services: AppServices, user: UserRow): Promise<MfaStatus> {
  const factors = await factorRepository.listConfirmed(services.db, user.id);
  return {
    required: services.config.mfa.required,
    factors: factors.map(presentFactor),
    recovery_codes_left: await recoveryCodes.countLeft(services.db, user.id),
  };
}

/** Second factors belong to local accounts: a single-sign-on account's provider does its own. */
function assertLocal(user: UserRow): void {
  if (user.userSource !== 'LOCAL') throw conflict('Your account signs in through your organisation\'s identity provider, which handles its second factor.');
}

export async function startTotpEnrolment(services: AppServices, user: UserRow, name: string | undefined) {
  assertLocal(user);
  const secret = newTotpSecret();
  const factor = await services.db.transaction(async (tx) => {
    await factorRepository.removePendingTotp(tx, user.id);
    return factorRepository.insert(tx, { userId: user.id, kind: 'TOTP', name: name ?? 'Authenticator app', totpSecret: services.totpSecrets.seal(secret, user.id) });
  });
  const { uri, qrCode } = await totpProvisioning(secret, services.config.mfa.issuerName, user.email);
  return { factor_id: factor.id, secret, otpauth_uri: uri, qr_code: qrCode };
}

/** Records a newly confirmed factor: audited, and the person's first factor comes with recovery codes. */
async function enrolled(tx: DbOrTx, user: UserRow, factor: FactorRow, context: AuditContext) {
  const first = (await factorRepository.listConfirmed(tx, user.id)).length === 1;
  const codes = first || (await recoveryCodes.countLeft(tx, user.id)) === 0 ? await recoveryCodes.regenerate(tx, user.id) : undefined;
  await appendAuditEntry(tx, audited(context, user), {
    eventType: 'MFA_ENROLLED',
    outcome: 'SUCCESS',
    message: `${user.email} enrolled ${kindName(factor)} (${factor.name})`,
    resourceType: 'user',
    resourceId: user.id,
    details: { factor_id: factor.id, kind: factor.kind, name: factor.name },
  });
  return { factor: presentFactor(factor), ...(codes && { recovery_codes: codes }) };
}

/** Confirms a pending authenticator app with a code; wrong codes count against the sign-in back-off. */
export async function confirmTotpEnrolment(services: AppServices, user: UserRow, factorId: string, code: string, context: AuditContext) {
  const { db } = services;
  const factor = await factorRepository.find(db, user.id, factorId);
  if (!factor || factor.kind !== 'TOTP') throw notFound(FACTOR_NOT_FOUND);
  if (factor.confirmedAt) throw conflict('This authenticator app is already confirmed.');
  const address = context.clientAddress ?? 'unknown';
  const throttle = await reserveSignInAttempt(db, user.email, address);
  if (!throttle.allowed) throw tooManyRequests(`Too many wrong codes. Try again in ${throttle.retryAfterSeconds} seconds.`, throttle.retryAfterSeconds);
  const step = await sealedTotpStepOf(services, factor, code);
  const confirmed =
    step !== undefined &&
    (await db.transaction(async (tx) => {
      if (!(await factorRepository.acceptTotpStep(tx, factor.id, step, true))) return undefined;
      await factorRepository.sealIfPlaintext(tx, services.totpSecrets, factor);
      await releaseSignInAttempt(tx, user.email);
      return enrolled(tx, user, { ...factor, confirmedAt: new Date(), lastUsedAt: new Date() }, context);
    }));
  if (confirmed) return confirmed;
  await recordSignInFailure(db, address);
  await recordAuditEvent(db, audited(context, user), {
    eventType: 'MFA_FAILED',
    outcome: 'FAILURE',
    message: `Wrong code confirming an authenticator app for ${user.email}`,
    resourceType: 'user',
    resourceId: user.id,
    details: { reason: 'wrong_code', method: 'totp', factor_id: factor.id },
  });
  throw badRequest('code: that is not the code the authenticator app shows now (a code works once only); try the next one.');
}

export async function passkeyRegistrationOptions(services: AppServices, user: UserRow) {
  assertLocal(user);
  const existing = (await factorRepository.listConfirmed(services.db, user.id)).filter((f) => f.kind === 'WEBAUTHN');
  const options = await registrationOptions(services.config.mfa, user, existing);
  const expiresAt = new Date(Date.now() + REGISTRATION_TTL_MS);
  await services.db
    .insert(webauthnRegistrations)
    .values({ userId: user.id, challenge: options.challenge, expiresAt })
    .onConflictDoUpdate({ target: webauthnRegistrations.userId, set: { challenge: options.challenge, expiresAt } });
  return options;
}

export async function registerPasskey(services: AppServices, user: UserRow, body: { name?: string; response: unknown }, context: AuditContext) {
  assertLocal(user);
  const { db, config } = services;
  // The registration challenge is taken (deleted) whatever the outcome: it works once.
  const [pending] = await db
    .delete(webauthnRegistrations)
    .where(eq(webauthnRegistrations.userId, user.id))
    .returning({ challenge: webauthnRegistrations.challenge, live: sql<boolean>`${webauthnRegistrations.expiresAt} > now()` });
  if (!pending?.live) throw badRequest('There is no passkey registration under way (or it expired); start again.');
  const credential = await verifyRegistration(config.mfa, body.response, pending.challenge);
  if (!credential) {
    await recordAuditEvent(db, audited(context, user), {
      eventType: 'MFA_FAILED',
      outcome: 'FAILURE',
      message: `A passkey registration for ${user.email} did not verify`,
      resourceType: 'user',
      resourceId: user.id,
      details: { reason: 'registration_not_verified', method: 'webauthn' },
    });
    throw badRequest('response: the passkey registration could not be verified; try again.');
  }
  return db.transaction(async (tx) => {
    const factor = await factorRepository.insert(tx, {
      userId: user.id,
      kind: 'WEBAUTHN',
      name: body.name ?? 'Passkey',
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports: credential.transports ?? null,
      confirmedAt: new Date(),
    });
    return enrolled(tx, user, factor, context);
  });
}

export async function renameFactor(services: AppServices, user: UserRow, factorId: string, name: string, context: AuditContext) {
  return services.db.transaction(async (tx) => {
    const factor = await factorRepository.find(tx, user.id, factorId);
    if (!factor?.confirmedAt) throw notFound(FACTOR_NOT_FOUND);
    const renamed = (await factorRepository.rename(tx, factor.id, name))!;
    await appendAuditEntry(tx, audited(context, user), {
      eventType: 'MFA_RENAMED',
      outcome: 'SUCCESS',
      message: `${user.email} renamed ${kindName(factor)} from ${factor.name} to ${name}`,
      resourceType: 'user',
      resourceId: user.id,
      details: { factor_id: factor.id, from: factor.name, to: name },
    });
    return { factor: presentFactor(renamed) };
  });
}

/** Removes a factor; never the last one while the platform requires a second factor. */
export async function removeFactor(services: AppServices, user: UserRow, factorId: string, context: AuditContext): Promise<void> {
  await services.db.transaction(async (tx) => {
    // Locks the person's row: two removals at once cannot both see "one left besides me".
    await tx.execute(sql`select id from users where id = ${user.id} for update`);
    const factor = await factorRepository.find(tx, user.id, factorId);
    if (!factor) throw notFound(FACTOR_NOT_FOUND);
    const confirmed = await factorRepository.listConfirmed(tx, user.id);
    if (factor.confirmedAt && confirmed.length === 1 && services.config.mfa.required) {
      throw conflict('This is your only second factor and the platform requires one: add another before removing it.');
    }
    await factorRepository.remove(tx, factor.id);
    if (factor.confirmedAt && confirmed.length === 1) await recoveryCodes.removeAll(tx, user.id);
    await appendAuditEntry(tx, audited(context, user), {
      eventType: 'MFA_REMOVED',
      outcome: 'SUCCESS',
      message: `${user.email} removed ${kindName(factor)} (${factor.name})`,
      resourceType: 'user',
      resourceId: user.id,
      details: { factor_id: factor.id, kind: factor.kind, name: factor.name },
    });
  });
}

export async function regenerateRecoveryCodes(services: AppServices, user: UserRow, context: AuditContext) {
  return services.db.transaction(async (tx) => {
    if ((await factorRepository.listConfirmed(tx, user.id)).length === 0) {
      throw conflict('Recovery codes stand in for a second factor: add an authenticator app or passkey first.');
    }
    const codes = await recoveryCodes.regenerate(tx, user.id);
    await appendAuditEntry(tx, audited(context, user), {
      eventType: 'RECOVERY_CODES_REGENERATED',
      outcome: 'SUCCESS',
      message: `${user.email} made new recovery codes; the old ones no longer work`,
      resourceType: 'user',
      resourceId: user.id,
    });
    return { recovery_codes: codes };
  });
}

/**
 * An administrator removes a person's second factors and recovery codes (a lost phone and lost
 * codes): the person enrols again at their next sign-in. Their sessions end too.
 */
export async function resetFactors(services: AppServices, actor: UserRow, userId: string, context: AuditContext): Promise<void> {
  await services.db.transaction(async (tx) => {
    const user = await userRepository.findById(tx, userId);
    if (!user) throw notFound('No such user.');
    const removed = await factorRepository.removeAll(tx, user.id);
    await recoveryCodes.removeAll(tx, user.id);
    const revoked = await refreshTokenRepository.revokeAllForUser(tx, user.id);
    await appendAuditEntry(tx, context, {
      eventType: 'MFA_RESET',
      outcome: 'SUCCESS',
      message: `${actor.email} reset the second factors of ${user.email}`,
      resourceType: 'user',
      resourceId: user.id,
      details: { factors_removed: removed, refresh_tokens_revoked: revoked },
    });
  });
  services.principals.invalidate(userId);
  services.endedSessions.forgetUser(userId);
}
