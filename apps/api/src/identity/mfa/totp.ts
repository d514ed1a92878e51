import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { AppServices } from '../../app-services';

/**
 * Authenticator-app codes (TOTP, RFC 6238: HMAC-SHA1, 6 digits, 30-second steps) through otplib.
 * A code is accepted from one step before or after now (clock drift), and only for a step later
 * than the last one accepted for that factor: a code seen once is refused ever after.
 */
const DRIFT_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI an app imports, and the same as a PNG QR code (a data: URL). */
export async function totpProvisioning(secret: string, issuer: string, account: string): Promise<{ uri: string; qrCode: string }> {
  const uri = generateURI({ issuer, label: account, secret });
  return { uri, qrCode: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
}

/**
 * The time step of `code` for a factor whose secret is sealed at rest; undefined for a wrong,
 * stale or replayed code, or a secret that does not open (logged: MFA_SECRET_KEY changed, or the
 * row was tampered with), which counts as a wrong code.
 */
export async function sealedTotpStepOf(
  services: Pick<AppServices, 'totpSecrets' | 'logger'>,
  factor: { id: string; userId: string; totpSecret: string | null; totpLastStep: number | null },
  code: string,
): Promise<number | undefined> {
  const secret = factor.totpSecret ? services.totpSecrets.tryOpen(factor.totpSecret, factor.userId) : undefined;
  if (secret === undefined) {
    services.logger.error({ factor_id: factor.id }, 'an authenticator-app secret does not open with this MFA_SECRET_KEY');
    return undefined;
  }
  return totpStepOf(secret, code, factor.totpLastStep);
}

/** The time step of a valid code later than `afterStep`; undefined for a wrong, stale or replayed code. */
export async function totpStepOf(secret: string, code: string, afterStep: number | null): Promise<number | undefined> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: DRIFT_SECONDS,
    ...(afterStep !== null && { afterTimeStep: afterStep }),
  });
  return result.valid && "timeStep" in result ? result.timeStep : undefined;
}
