import { z } from 'zod';
import { Timestamp } from './common';
import { TokenResponse } from './auth';

/**
 * Multi-factor authentication of local accounts and the sessions list. docs/security.md
 * (authentication levels) and docs/users.md (enrolment, recovery, reset) describe the flows.
 */

/** The `acr` of an embedded id token: a password alone, or a password and a second factor. */
export const ACR = { singleFactor: 'urn:hdp:acr:aal1', multiFactor: 'urn:hdp:acr:aal2' } as const;

/** The `amr` values (RFC 8176, and `recovery` for a recovery code) the embedded issuer writes. */
export const AMR = { password: 'pwd', multiFactor: 'mfa', totp: 'otp', passkey: 'hwk', recoveryCode: 'recovery' } as const;

/** The 401 detail for a token without a second factor where the platform requires one. */
export const SECOND_FACTOR_REQUIRED_DETAIL =
  'This platform requires a second factor: sign in again with your password and an authenticator code, passkey or recovery code.';

/** The 401 detail for an id token whose session was ended (signed out, ended from a sessions list, by an administrator). */
export const SESSION_ENDED_DETAIL = 'This session has ended (signed out, or ended from a sessions list); sign in again.';

/** The 401 detail of a second step whose challenge expired or was used: the person starts again with the password. */
export const SECOND_STEP_EXPIRED_DETAIL = 'This sign-in has expired or was already completed; sign in again with your password.';

/** The 401 detail of a wrong, replayed or unverifiable second factor. */
export const WRONG_SECOND_FACTOR_DETAIL = 'That code or passkey was not accepted (a code works once only); try again.';

/** How many recovery codes a person gets at a time. */
export const RECOVERY_CODE_COUNT = 10;

export const MfaMethod = z.enum(['webauthn', 'totp', 'recovery_code']);
export type MfaMethod = z.infer<typeof MfaMethod>;

export const MfaFactorKind = z.enum(['TOTP', 'WEBAUTHN']);
export type MfaFactorKind = z.infer<typeof MfaFactorKind>;

const Challenge = z.string().min(16).max(128);
const TotpCode = z.string().trim().regex(/^\d{6}$/, 'must be the 6 digits the authenticator app shows');
const RecoveryCode = z.string().trim().min(8).max(32);
const FactorName = z.string().trim().min(1).max(100);
/** A WebAuthn response as the browser's `navigator.credentials` gives it (checked by the WebAuthn library). */
const WebauthnResponse = z.looseObject({ id: z.string().max(1024), rawId: z.string().max(1024), type: z.literal('public-key'), response: z.looseObject({}) });

/** The password step's answer when a second factor is needed: a short-lived challenge. */
export const MfaChallengeResponse = z
  .object({
    mfa_required: z.literal(true),
    challenge: z.string(),
    expires_in: z.number().int(),
    /** What the person can answer with, the strongest first. */
    methods: z.array(MfaMethod),
    /** The person has no second factor yet and must enrol one (`POST /auth/mfa/enrol/`) before signing in. */
    enrolment_required: z.boolean(),
  })
  .meta({ id: 'MfaChallengeResponse' });
export type MfaChallengeResponse = z.infer<typeof MfaChallengeResponse>;

/** `POST /auth/token/` answers tokens, or a challenge for the second factor. */
export const SignInResponse = z.union([TokenResponse, MfaChallengeResponse]).meta({ id: 'SignInResponse' });
export type SignInResponse = z.infer<typeof SignInResponse>;

/** The second step: the challenge with one answer. */
export const MfaTokenRequest = z
  .object({
    challenge: Challenge,
    totp_code: TotpCode.optional(),
    recovery_code: RecoveryCode.optional(),
    /** A passkey's assertion (authentication). */
    webauthn: WebauthnResponse.optional(),
    /** A passkey's registration, when enrolling at sign-in. */
    webauthn_registration: WebauthnResponse.optional(),
    /** The name of a factor enrolled at sign-in. */
    name: FactorName.optional(),
  })
  .refine((body) => [body.totp_code, body.recovery_code, body.webauthn, body.webauthn_registration].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of totp_code, recovery_code, webauthn, webauthn_registration',
  })
  .meta({ id: 'MfaTokenRequest' });
export type MfaTokenRequest = z.infer<typeof MfaTokenRequest>;

/** Tokens after the second step; `recovery_codes` only when a first factor was enrolled (shown once). */
export const MfaTokenResponse = TokenResponse.extend({ recovery_codes: z.array(z.string()).optional() }).meta({ id: 'MfaTokenResponse' });
export type MfaTokenResponse = z.infer<typeof MfaTokenResponse>;

export const MfaChallengeRequest = z.object({ challenge: Challenge }).meta({ id: 'MfaChallengeRequest' });

/** Options for the browser's `navigator.credentials.get`, for a person with passkeys. */
export const MfaSignInOptions = z
  .object({ webauthn: z.looseObject({ challenge: z.string() }).nullable() })
  .meta({ id: 'MfaSignInOptions' });

export const MfaEnrolAtSignInRequest = z.object({ challenge: Challenge, kind: MfaFactorKind }).meta({ id: 'MfaEnrolAtSignInRequest' });

/** A new authenticator-app factor: scan the QR code (or type the secret), then confirm a code. */
export const TotpEnrolment = z
  .object({
    factor_id: z.uuid(),
    secret: z.string(),
    otpauth_uri: z.string(),
    /** The otpauth URI as a PNG QR code (a data: URL). */
    qr_code: z.string(),
  })
  .meta({ id: 'TotpEnrolment' });
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

/** Options for the browser's `navigator.credentials.create`. */
export const WebauthnRegistrationOptions = z.looseObject({ challenge: z.string() }).meta({ id: 'WebauthnRegistrationOptions' });

export const MfaEnrolAtSignInResponse = z
  .object({ totp: TotpEnrolment.optional(), webauthn: WebauthnRegistrationOptions.optional() })
  .meta({ id: 'MfaEnrolAtSignInResponse' });

export const MfaFactor = z
  .object({
    id: z.uuid(),
    kind: MfaFactorKind,
    name: z.string(),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
  })
  .meta({ id: 'MfaFactor' });
export type MfaFactor = z.infer<typeof MfaFactor>;

export const MfaStatus = z
  .object({
    /** The platform requires a second factor of every local account. */
    required: z.boolean(),
    factors: z.array(MfaFactor),
    recovery_codes_left: z.number().int(),
  })
  .meta({ id: 'MfaStatus' });
export type MfaStatus = z.infer<typeof MfaStatus>;

export const TotpEnrolRequest = z.object({ name: FactorName.optional() }).meta({ id: 'TotpEnrolRequest' });
export const TotpConfirmRequest = z.object({ code: TotpCode }).meta({ id: 'TotpConfirmRequest' });
export const WebauthnRegisterRequest = z.object({ name: FactorName.optional(), response: WebauthnResponse }).meta({ id: 'WebauthnRegisterRequest' });
export const FactorRename = z.object({ name: FactorName }).meta({ id: 'FactorRename' });

/** A factor just enrolled; `recovery_codes` when it was the person's first (shown once). */
export const EnrolledFactor = z
  .object({ factor: MfaFactor, recovery_codes: z.array(z.string()).optional() })
  .meta({ id: 'EnrolledFactor' });
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) }).meta({ id: 'RecoveryCodes' });

/** One signed-in session (a refresh-token family). */
export const Session = z
  .object({
    id: z.uuid(),
    /** The browser or client that signed in (its User-Agent). */
    device: z.string().nullable(),
    client_address: z.string().nullable(),
    signed_in_at: Timestamp,
    last_used_at: Timestamp,
    /** How it was authenticated (`amr`). */
    amr: z.array(z.string()),
    /** The session the request came from. */
    current: z.boolean(),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof Session>;
export const SessionList = z.object({ sessions: z.array(Session) }).meta({ id: 'SessionList' });
export const SessionsEnded = z.object({ sessions_ended: z.number().int() }).meta({ id: 'SessionsEnded' });
