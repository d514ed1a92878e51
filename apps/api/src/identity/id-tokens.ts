import { randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { ACR, EXTERNAL_TOKEN_DETAILS, LIMITS } from '@hdp/contract';
import type { Config, ExternalIssuerConfig } from '../config';
import { unauthorized } from '../http/api-error';
import { textProblem } from '../http/input-guard';
import { SIGNING_ALGORITHM, type SigningKeyStore } from './signing-keys';

/** Who a verified token speaks for. Embedded tokens name the user id; external ones an email. */
export type VerifiedIdentity =
  | { issuer: 'embedded'; userId: string; multiFactor: boolean; sessionId?: string }
  | { issuer: 'external'; email: string };

/** How an embedded id token's sign-in was authenticated, and the session (refresh-token family) it belongs to. */
export interface Authentication {
  amr: string[];
  sessionId: string;
}

/** A password and a second factor: what `acr` says about a sign-in with these `amr` values. */
export const acrOf = (amr: readonly string[]) => (amr.includes('mfa') ? ACR.multiFactor : ACR.singleFactor);

/** Tokens are cached once verified, until they expire; a bounded map keeps memory flat. */
const VERIFIED_CACHE_MAX = 10_000;
const CLOCK_TOLERANCE_SECONDS = 5;
/**
 * After a fetch of a provider's key set, a token signed with a key not in it makes the API fetch
 * the set again only after this pause. jose's default (30 s) refused the first tokens signed after
 * a provider rotated its keys within 30 s of a sign-in; one fetch a second is still all that
 * tokens with made-up key ids can cost the provider.
 */
const JWKS_REFETCH_PAUSE_MS = 1_000;
/** The form of a platform user id, which an embedded token's `sub` must have. */
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Refuses a token that lives longer than its issuer issues them for. `exp` is required (jose
 * checks it only when present); the lifetime is counted from `iat`, or from now without one.
 */
function checkLifetime(payload: JWTPayload, maxSeconds: number): void {
  if (typeof payload.exp !== 'number') throw unauthorized('The token is not valid here: its "exp" claim is missing or invalid.');
  const issuedAt = typeof payload.iat === 'number' ? payload.iat : Date.now() / 1000;
  if (payload.exp - issuedAt > maxSeconds + CLOCK_TOLERANCE_SECONDS) {
    throw unauthorized(`The token is not valid here: it lives longer than the ${maxSeconds} seconds its issuer allows.`);
  }
}

/** Issues the embedded issuer's id tokens and verifies tokens from every trusted issuer. */
export class IdTokenService {
  private localKeys: JWTVerifyGetKey;
  private externalKeys: JWTVerifyGetKey | undefined;
  /**
   * Verified tokens by their signature: a short key, where the whole token (hundreds of characters)
   * would be hashed on every request. The whole token is kept and compared, so only that exact
   * token matches.
   */
  private readonly verified = new Map<string, { token: string; identity: VerifiedIdentity; expiresAtMs: number }>();

  constructor(
    private readonly config: Config,
    private readonly keys: SigningKeyStore,
  ) {
    this.localKeys = createLocalJWKSet(keys.jwks());
  }

  /** Signs an id token for a user of the embedded issuer. */
  async issue(user: { id: string; email: string; name: string | null }, authentication: Authentication): Promise<string> {
    const { kid, privateKey } = this.keys.signingKey();
    const { amr, sessionId } = authentication;
    return new SignJWT({ email: user.email, name: user.name ?? undefined, amr, acr: acrOf(amr), sid: sessionId })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: 'JWT' })
      .setIssuer(this.config.publicUrl)
      .setAudience(this.config.tokenAudience)
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime(`${LIMITS.idTokenTtlSeconds}s`)
      .sign(privateKey);
  }

  /** Who an already verified, unexpired token speaks for; undefined when it must be verified. */
  cachedIdentity(token: string): VerifiedIdentity | undefined {
    const key = signatureOf(token);
    const cached = this.verified.get(key);
    if (!cached || cached.token !== token) return undefined;
    if (cached.expiresAtMs > Date.now()) return cached.identity;
    this.verified.delete(key);
    return undefined;
  }

  /** Verifies signature, algorithm, iss, aud, exp and nbf; throws a 401 ApiError otherwise. */
  async verify(token: string): Promise<VerifiedIdentity> {
    const cached = this.cachedIdentity(token);
    if (cached) return cached;
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw unauthorized('The token is not a valid JWT.');
    }
    let payload: JWTPayload;
    let identity: VerifiedIdentity;
    if (issuer === this.config.publicUrl) {
      payload = await this.verifyEmbedded(token);
      checkLifetime(payload, LIMITS.idTokenTtlSeconds);
      if (typeof payload.sub !== 'string' || !USER_ID.test(payload.sub)) throw unauthorized('The token\'s subject is not a user of this platform.');
      identity = {
        issuer: 'embedded',
        userId: payload.sub.toLowerCase(),
        // A token from before second factors existed has no acr: it counts as a password alone.
        multiFactor: payload.acr === ACR.multiFactor,
        ...(typeof payload.sid === 'string' && { sessionId: payload.sid }),
      };
    } else if (this.config.externalIssuer && issuer === this.config.externalIssuer.issuer) {
      payload = await this.verifyExternal(token, this.config.externalIssuer);
      checkLifetime(payload, this.config.externalIssuer.maxTokenLifetimeSeconds);
      const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined;
      if (!email) throw unauthorized('The token carries no email claim.');
      if (email.length > 320 || textProblem(email)) throw unauthorized('The email in the token is not a valid address.');
      if (payload.email_verified === false) throw unauthorized('The email in the token is not verified.');
      checkAssurance(payload, this.config.externalIssuer);
      identity = { issuer: 'external', email };
    } else {
      throw unauthorized('The token was issued by an issuer this platform does not trust.');
    }
    this.remember(token, identity, payload.exp! * 1000);
    return identity;
  }

  /** Forgets every cached verification, e.g. after keys change. */
  clearCache(): void {
    this.verified.clear();
  }

  private remember(token: string, identity: VerifiedIdentity, expiresAtMs: number): void {
    if (this.verified.size >= VERIFIED_CACHE_MAX) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(signatureOf(token), { token, identity, expiresAtMs });
  }

  private async verifyEmbedded(token: string): Promise<JWTPayload> {
    const options = {
      issuer: this.config.publicUrl,
      audience: this.config.tokenAudience,
      algorithms: [SIGNING_ALGORITHM],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp'],
    };
    try {
      return (await jwtVerify(token, this.localKeys, options)).payload;
    } catch (error) {
      // A key we do not know may come from a rotation done by another process: reload once.
      if (error instanceof joseErrors.JWKSNoMatchingKey && (await this.keys.reloadIfStale())) {
        this.localKeys = createLocalJWKSet(this.keys.jwks());
        return this.verifyEmbedded(token);
      }
      throw toUnauthorized(error);
    }
  }

  private async verifyExternal(token: string, issuer: ExternalIssuerConfig): Promise<JWTPayload> {
    try {
      this.externalKeys ??= createRemoteJWKSet(new URL(issuer.jwksUri ?? (await discoverJwksUri(issuer.issuer))), {
        cooldownDuration: JWKS_REFETCH_PAUSE_MS,
      });
      const result = await jwtVerify(token, this.externalKeys, {
        issuer: issuer.issuer,
        audience: issuer.audience,
        algorithms: issuer.algorithms,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
      });
      return result.payload;
    } catch (error) {
      throw toUnauthorized(error);
    }
  }

  /** Called after key rotation in this process. */
  refreshLocalKeys(): void {
    this.localKeys = createLocalJWKSet(this.keys.jwks());
  }
}

/**
 * Refuses a provider's token that does not carry the authentication the platform requires
 * (OIDC_REQUIRED_ACR: any one of these `acr` values; OIDC_REQUIRED_AMR: all of these `amr` values).
 */
function checkAssurance(payload: JWTPayload, issuer: ExternalIssuerConfig): void {
  if (issuer.requiredAcr.length > 0 && !issuer.requiredAcr.includes(String(payload.acr ?? ''))) {
    throw unauthorized(
      `${EXTERNAL_TOKEN_DETAILS.weakAuthentication} (acr ${JSON.stringify(payload.acr ?? null)}, required one of ${issuer.requiredAcr.join(', ')}).`,
    );
  }
  const amr = Array.isArray(payload.amr) ? payload.amr.map(String) : [];
  const missing = issuer.requiredAmr.filter((value) => !amr.includes(value));
  if (missing.length > 0) {
    throw unauthorized(
      `${EXTERNAL_TOKEN_DETAILS.weakAuthentication} (amr lacks ${missing.join(', ')}).`,
    );
  }
}

/** The signature part of a compact JWS: what follows its last dot. */
const signatureOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);

async function discoverJwksUri(issuer: string): Promise<string> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`OIDC discovery failed for ${issuer}: HTTP ${response.status}`);
  const document = (await response.json()) as { jwks_uri?: string };
  if (!document.jwks_uri) throw new Error(`OIDC discovery for ${issuer} names no jwks_uri`);
  return document.jwks_uri;
}

function toUnauthorized(error: unknown) {
  if (error instanceof joseErrors.JWTExpired) return unauthorized('The token has expired.');
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return unauthorized(`The token is not valid here: its "${error.claim}" claim ${error.reason === 'check_failed' ? 'does not match' : 'is missing or invalid'}.`);
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return unauthorized('The token is signed with an algorithm that is not allowed.');
  return unauthorized('The token is invalid.');
}
