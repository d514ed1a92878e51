import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { MfaConfig } from '../../config';
import type { FactorRow } from './factor-repository';

/**
 * Passkeys and security keys (WebAuthn) through @simplewebauthn/server. The relying party is the
 * web app (its host and origin, from WEB_URL): a credential made for another site cannot sign in
 * here, which is what makes a passkey phishing-resistant.
 */
const TIMEOUT_MS = 120_000;

export async function registrationOptions(
  mfa: MfaConfig,
  user: { id: string; email: string; name: string | null },
  existing: FactorRow[],
): Promise<Awaited<ReturnType<typeof generateRegistrationOptions>>> {
  return generateRegistrationOptions({
    rpName: mfa.issuerName,
    rpID: mfa.rpId,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    userID: new TextEncoder().encode(user.id),
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.filter((f) => f.credentialId).map((f) => ({ id: f.credentialId!, transports: f.transports ?? undefined })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** The verified credential of a registration, or undefined when the browser's answer does not check. */
export async function verifyRegistration(mfa: MfaConfig, response: unknown, expectedChallenge: string) {
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: mfa.origin,
      expectedRPID: mfa.rpId,
      requireUserVerification: false,
    });
    return result.verified ? result.registrationInfo.credential : undefined;
  } catch {
    return undefined;
  }
}

export async function authenticationOptions(mfa: MfaConfig, passkeys: FactorRow[]) {
  return generateAuthenticationOptions({
    rpID: mfa.rpId,
    timeout: TIMEOUT_MS,
    userVerification: 'preferred',
    allowCredentials: passkeys.map((f) => ({ id: f.credentialId!, transports: f.transports ?? undefined })),
  });
}

/** The passkey that signed, with its new counter; undefined when the assertion does not check. */
export async function verifyAuthentication(
  mfa: MfaConfig,
  response: unknown,
  expectedChallenge: string,
  passkeys: FactorRow[],
): Promise<{ factor: FactorRow; newCounter: number } | undefined> {
  const id = (response as { id?: unknown }).id;
  const factor = passkeys.find((f) => f.credentialId === id);
  if (!factor) return undefined;
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: mfa.origin,
      expectedRPID: mfa.rpId,
      requireUserVerification: false,
      credential: {
        id: factor.credentialId!,
        publicKey: Buffer.from(factor.publicKey!, 'base64url'),
        counter: factor.signCount ?? 0,
        transports: factor.transports ?? undefined,
      },
    });
    return result.verified ? { factor, newCounter: result.authenticationInfo.newCounter } : undefined;
  } catch {
    return undefined;
  }
}
