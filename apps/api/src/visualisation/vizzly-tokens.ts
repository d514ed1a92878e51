import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

/** How the platform signs tokens for the data visualisation service (Vizzly). */
export interface VizzlySettings {
  /** The ECDSA P-256 key whose public half is registered with Vizzly. */
  privateKey: KeyObject;
  /** Vizzly's project id (`prj_…`). */
  projectId: string;
  /** The data sets a dashboard may read; each gets the workbench filter. */
  dataSetIds: string[];
  /** The field of every data set that holds the workbench id. */
  workbenchField: string;
  /** Lifetime of both tokens. */
  ttlMinutes: number;
}

/** What the tokens are issued for. */
export interface VisualisationTokenRequest {
  /** The platform user id: Vizzly's user reference. */
  userId: string;
  workbenchId: string;
  /** A READER may look at dashboards; OWNER and WRITER may also change them. */
  canEdit: boolean;
  now?: Date;
}

export interface SignedVisualisationTokens {
  dashboardAccessToken: string;
  dataAccessToken: string;
  expiresAt: Date;
}

/** Claims of the dashboard access token, as Vizzly reads them. */
export interface DashboardAccessClaims extends JWTPayload {
  accessType: 'standard';
  projectId: string;
  userReference: string;
  scope: 'read' | 'read_write';
  expires: string;
}

/** One secure filter: Vizzly adds `field op value` to every query of the data set. */
export interface SecureFilter {
  field: string;
  op: '=';
  value: string;
}

/** Claims of the data access token, as Vizzly reads them. */
export interface DataAccessClaims extends JWTPayload {
  dataSetIds: string[];
  secureFilters: Record<string, SecureFilter[]>;
  parameters: Record<string, never>;
  expires: string;
}

/**
 * Reads the PEM key of VIZZLY_PRIVATE_KEY: PKCS#8 (`BEGIN PRIVATE KEY`) or SEC1 (`BEGIN EC PRIVATE
 * KEY`, what Vizzly's key generator gives). Environment files often hold the PEM on one line with
 * `\n` escapes, so those are read as line breaks.
 */
export function parseVizzlyPrivateKey(pem: string): KeyObject {
  const text = pem.includes('\\n') ? pem.replaceAll('\\n', '\n') : pem;
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text.trim(), format: 'pem' });
  } catch {
    throw new Error('not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('must be an ECDSA P-256 key (ES256)');
  }
  return key;
}

/**
 * Signs the dashboard access token and the data access token for one member of one workbench.
 * Both carry Vizzly's `expires` and the standard `iat`/`exp`, so any JWT library can check them.
 */
export async function signVisualisationTokens(
  settings: VizzlySettings,
  request: VisualisationTokenRequest,
): Promise<SignedVisualisationTokens> {
  const now = request.now ?? new Date();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = new Date((issuedAt + settings.ttlMinutes * 60) * 1000);
  const sign = (claims: JWTPayload) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setIssuedAt(issuedAt)
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(settings.privateKey);

  const dashboard: DashboardAccessClaims = {
    accessType: 'standard',
    projectId: settings.projectId,
    userReference: request.userId,
    scope: request.canEdit ? 'read_write' : 'read',
    expires: expiresAt.toISOString(),
  };
  const filter: SecureFilter = { field: settings.workbenchField, op: '=', value: request.workbenchId };
  const data: DataAccessClaims = {
    dataSetIds: settings.dataSetIds,
    secureFilters: Object.fromEntries(settings.dataSetIds.map((id) => [id, [filter]])),
    parameters: {},
    expires: expiresAt.toISOString(),
  };
  const [dashboardAccessToken, dataAccessToken] = await Promise.all([sign(dashboard), sign(data)]);
  return { dashboardAccessToken, dataAccessToken, expiresAt };
}

/** Why a token was not accepted. */
export type TokenRejection = 'expired' | 'tampered' | 'malformed';

export type TokenVerdict<C> = { valid: true; claims: C } | { valid: false; reason: TokenRejection };

/**
 * Checks a visualisation token against the public key, as Vizzly does: the ES256 signature, then
 * the expiry (`exp`, and Vizzly's own `expires`). A changed header, payload or signature reads
 * `tampered`; a token past its expiry `expired`; anything that is not a compact JWS `malformed`.
 */
export async function verifyVisualisationToken<C extends JWTPayload = DashboardAccessClaims | DataAccessClaims>(
  token: string,
  publicKey: KeyObject | string,
  now: Date = new Date(),
): Promise<TokenVerdict<C>> {
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], currentDate: now });
    const expires = typeof payload.expires === 'string' ? Date.parse(payload.expires) : Number.NaN;
    if (Number.isNaN(expires)) return { valid: false, reason: 'malformed' };
    if (expires <= now.getTime()) return { valid: false, reason: 'expired' };
    return { valid: true, claims: payload as C };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { valid: false, reason: 'expired' };
    if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JOSEAlgNotAllowed) {
      return { valid: false, reason: 'tampered' };
    }
    // A payload or header altered into something that no longer parses was tampered with too;
    // only a string that never had the shape of a JWS is merely malformed.
    return { valid: false, reason: token.split('.').length === 3 ? 'tampered' : 'malformed' };
  }
}

/** The public half of the signing key, in the PEM form Vizzly asks for. */
export function vizzlyPublicKeyPem(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
}
