import { AMR, SECOND_STEP_EXPIRED_DETAIL, WRONG_SECOND_FACTOR_DETAIL, type MfaChallengeResponse, type MfaMethod, type MfaTokenRequest, type MfaTokenResponse } from '@hdp/contract';
import type { AppServices } from '../../app-services';
import type { DbOrTx } from '../../db/database';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../../audit/audit-trail';
import { ApiError, conflict, tooManyRequests, unauthorized } from '../../http/api-error';
import { userRepository, type UserRow } from '../../users/user-repository';
import { startSession } from '../session-commands';
import { recordSignInFailure, releaseSignInAttempt, reserveSignInAttempt } from '../sign-in-throttle';
import { CHALLENGE_TTL_SECONDS, challengeRepository, type ChallengeRow } from './challenges';
import { factorRepository, type FactorRow } from './factor-repository';
import { authenticationOptions, registrationOptions, verifyAuthentication, verifyRegistration } from './passkeys';
import { recoveryCodes } from './recovery-codes';
import { newTotpSecret, sealedTotpStepOf, totpProvisioning } from './totp';

const CHALLENGE_GONE = SECOND_STEP_EXPIRED_DETAIL;
const WRONG_ANSWER = WRONG_SECOND_FACTOR_DETAIL;

/** Refused inside the success transaction (a replay lost a race): rolled back, then answered as a wrong code. */
class AnswerRefused extends Error {}

/** The challenge the password step answers with, naming what the person can answer it with. */
export async function secondStepFor(
  services: AppServices,
  user: UserRow,
  factors: FactorRow[],
  context: AuditContext,
): Promise<MfaChallengeResponse> {
  const { db } = services;
  // Now and then, forget challenges nobody can use any more.
  if (Math.random() < 0.01) await challengeRepository.prune(db);
  const challenge = await challengeRepository.issue(db, user.id, context.userAgent ?? null);
  const methods: MfaMethod[] = [];
  if (factors.length === 0) methods.push('webauthn', 'totp');
  else {
    if (factors.some((f) => f.kind === 'WEBAUTHN')) methods.push('webauthn');
    if (factors.some((f) => f.kind === 'TOTP')) methods.push('totp');
    if ((await recoveryCodes.countLeft(db, user.id)) > 0) methods.push('recovery_code');
  }
  return { mfa_required: true, challenge, expires_in: CHALLENGE_TTL_SECONDS, methods, enrolment_required: factors.length === 0 };
}

/** The live challenge and the ACTIVE local account it is for; 401 otherwise. */
async function challengeAndUser(services: AppServices, token: string): Promise<{ challenge: ChallengeRow; user: UserRow }> {
  const challenge = await challengeRepository.findLive(services.db, token);
  const user = challenge && (await userRepository.findById(services.db, challenge.userId));
  if (!challenge || !user || user.userSource !== 'LOCAL') throw unauthorized(CHALLENGE_GONE);
  if (user.status !== 'ACTIVE' || user.roles.length === 0) throw new ApiError(403, `This account is ${user.status.toLowerCase()}; ask an administrator.`);
  return { challenge, user };
}

/** WebAuthn options for signing in with one of the person's passkeys; null when they have none. */
export async function mfaSignInOptions(services: AppServices, token: string): Promise<{ webauthn: { challenge: string } | null }> {
  const { challenge, user } = await challengeAndUser(services, token);
  const passkeys = (await factorRepository.listConfirmed(services.db, user.id)).filter((f) => f.kind === 'WEBAUTHN');
  if (passkeys.length === 0) return { webauthn: null };
  const options = await authenticationOptions(services.config.mfa, passkeys);
  await challengeRepository.setWebauthnChallenge(services.db, challenge.id, options.challenge);
  return { webauthn: options };
}

/**
 * Starts enrolling a first factor during sign-in: only for a person who has none (the platform
 * requires one). An authenticator app is pending until its first code answers the challenge.
 */
export async function enrolAtSignIn(services: AppServices, token: string, kind: 'TOTP' | 'WEBAUTHN') {
  const { db, config } = services;
  const { challenge, user } = await challengeAndUser(services, token);
  if ((await factorRepository.listConfirmed(db, user.id)).length > 0) {
    throw conflict('You already have a second factor: sign in with it, or with a recovery code.');
  }
  if (kind === 'WEBAUTHN') {
    const options = await registrationOptions(config.mfa, user, []);
    await challengeRepository.setWebauthnChallenge(db, challenge.id, options.challenge);
    return { webauthn: options };
  }
  const secret = newTotpSecret();
  const factor = await db.transaction(async (tx) => {
    await factorRepository.removePendingTotp(tx, user.id);
    return factorRepository.insert(tx, { userId: user.id, kind: 'TOTP', name: 'Authenticator app', totpSecret: services.totpSecrets.seal(secret, user.id) });
  });
  const { uri, qrCode } = await totpProvisioning(secret, config.mfa.issuerName, user.email);
  return { totp: { factor_id: factor.id, secret, otpauth_uri: uri, qr_code: qrCode } };
}

/** What an answer proved: the method (`amr`), and what to record once the sign-in commits. */
interface CheckedAnswer {
  amr: string;
  /** A factor enrolled by this answer (the person's first). */
  enrolled?: { kind: 'TOTP' | 'WEBAUTHN'; name: string };
  commit(tx: DbOrTx): Promise<boolean>;
}

/** Checks the answer against the person's factors; undefined when it is wrong. */
async function checkAnswer(services: AppServices, challenge: ChallengeRow, user: UserRow, body: MfaTokenRequest): Promise<CheckedAnswer | undefined> {
  const { db, config } = services;
  const factors = await factorRepository.listConfirmed(db, user.id);
  const enrolling = factors.length === 0;

  if (body.totp_code !== undefined) {
    const candidates = enrolling ? [await factorRepository.findPendingTotp(db, user.id)].filter((f) => f !== undefined) : factors.filter((f) => f.kind === 'TOTP');
    for (const factor of candidates) {
      const step = await sealedTotpStepOf(services, factor, body.totp_code);
      if (step === undefined) continue;
      return {
        amr: AMR.totp,
        ...(enrolling && { enrolled: { kind: 'TOTP' as const, name: body.name ?? factor.name } }),
        commit: async (tx) => {
          if (!(await factorRepository.acceptTotpStep(tx, factor.id, step, enrolling))) return false;
          // A secret stored before encryption is sealed on its first use.
          await factorRepository.sealIfPlaintext(tx, services.totpSecrets, factor);
          if (enrolling && body.name) await factorRepository.rename(tx, factor.id, body.name);
          return true;
        },
      };
    }
    return undefined;
  }

  if (body.recovery_code !== undefined) {
    if (enrolling) return undefined;
    return { amr: AMR.recoveryCode, commit: (tx) => recoveryCodes.consume(tx, user.id, body.recovery_code!) };
  }

  if (!challenge.webauthnChallenge) return undefined;
  if (body.webauthn !== undefined) {
    const passkeys = factors.filter((f) => f.kind === 'WEBAUTHN');
    const verified = await verifyAuthentication(config.mfa, body.webauthn, challenge.webauthnChallenge, passkeys);
    if (!verified) return undefined;
    return {
      amr: AMR.passkey,
      commit: async (tx) => {
        await factorRepository.markPasskeyUsed(tx, verified.factor.id, verified.newCounter);
        return true;
      },
    };
  }

  if (body.webauthn_registration !== undefined && enrolling) {
    const credential = await verifyRegistration(config.mfa, body.webauthn_registration, challenge.webauthnChallenge);
    if (!credential) return undefined;
    const name = body.name ?? 'Passkey';
    return {
      amr: AMR.passkey,
      enrolled: { kind: 'WEBAUTHN', name },
      commit: async (tx) => {
        await factorRepository.insert(tx, {
          userId: user.id,
          kind: 'WEBAUTHN',
          name,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          signCount: credential.counter,
          transports: credential.transports ?? null,
          confirmedAt: new Date(),
          lastUsedAt: new Date(),
        });
        return true;
      },
    };
  }
  return undefined;
}

/**
 * The second step of signing in: the challenge with an authenticator code, a recovery code or a
 * passkey (or, for a person enrolling, the first code of the new app or the new passkey). A wrong
 * answer counts against the same per-account and per-address back-off as a wrong password.
 */
export async function completeSignIn(services: AppServices, body: MfaTokenRequest, context: AuditContext): Promise<MfaTokenResponse> {
  const { db } = services;
  const { challenge, user } = await challengeAndUser(services, body.challenge);
  const address = context.clientAddress ?? 'unknown';
  const userContext = { ...context, actorId: user.id, actorEmail: user.email };
  const kind = body.totp_code !== undefined ? 'totp' : body.recovery_code !== undefined ? 'recovery_code' : 'webauthn';

  const throttle = await reserveSignInAttempt(db, user.email, address);
  if (!throttle.allowed) {
    await recordAuditEvent(db, userContext, {
      eventType: 'MFA_FAILED',
      outcome: 'FAILURE',
      message: `Second factor for ${user.email} refused: too many failed attempts`,
      resourceType: 'user',
      resourceId: user.id,
      details: { reason: 'throttled', method: kind, retry_after_seconds: throttle.retryAfterSeconds },
    });
    throw tooManyRequests(`Too many failed sign-in attempts. Try again in ${throttle.retryAfterSeconds} seconds.`, throttle.retryAfterSeconds);
  }

  const refuse = async (reason: string) => {
    await recordSignInFailure(db, address);
    await recordAuditEvent(db, userContext, {
      eventType: 'MFA_FAILED',
      outcome: 'FAILURE',
      message: `Wrong second factor for ${user.email}`,
      resourceType: 'user',
      resourceId: user.id,
      details: { reason, method: kind },
    });
    return unauthorized(WRONG_ANSWER);
  };

  const answer = await checkAnswer(services, challenge, user, body);
  if (!answer) throw await refuse('wrong_answer');
  try {
    return await db.transaction(async (tx) => {
      if (!(await challengeRepository.consume(tx, challenge.id))) throw unauthorized(CHALLENGE_GONE);
      if (!(await answer.commit(tx))) throw new AnswerRefused();
      await releaseSignInAttempt(tx, user.email);
      let codes: string[] | undefined;
      if (answer.enrolled) {
        codes = await recoveryCodes.regenerate(tx, user.id);
        await appendAuditEntry(tx, userContext, {
          eventType: 'MFA_ENROLLED',
          outcome: 'SUCCESS',
          message: `${user.email} enrolled ${answer.enrolled.kind === 'TOTP' ? 'an authenticator app' : 'a passkey'} at sign-in`,
          resourceType: 'user',
          resourceId: user.id,
          details: { kind: answer.enrolled.kind, name: answer.enrolled.name },
        });
      }
      if (answer.amr === AMR.recoveryCode) {
        await appendAuditEntry(tx, userContext, {
          eventType: 'RECOVERY_CODE_USED',
          outcome: 'SUCCESS',
          message: `${user.email} signed in with a recovery code`,
          resourceType: 'user',
          resourceId: user.id,
          details: { recovery_codes_left: await recoveryCodes.countLeft(tx, user.id) },
        });
      }
      const tokens = await startSession(services, tx, user, [AMR.password, AMR.multiFactor, answer.amr], context);
      return { ...tokens, ...(codes && { recovery_codes: codes }) };
    });
  } catch (error) {
    if (error instanceof AnswerRefused) throw await refuse('replayed');
    throw error;
  }
}
