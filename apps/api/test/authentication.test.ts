import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, SPEC_ROUTE_IDS, type RouteContract } from '@hdp/contract';
import { exportJWK, generateKeyPair, SignJWT, base64url } from 'jose';
import { samplePath, startTestApp, ADMIN_EMAIL, PUBLIC_URL, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const protectedRoutes = Object.entries(ROUTES as Record<string, RouteContract>).filter(([, r]) => !('public' in r.access));

describe('every protected route requires a bearer token', () => {
  it.each(protectedRoutes)('%s answers 401 with a detail without a token', async (_id, route) => {
    const response = await t.request({ method: route.method, url: samplePath(route.path) });
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/Bearer/);
  });

  it('covers every call of the spec, and the calls added beyond it', () => {
    const protectedIds = protectedRoutes.map(([id]) => id);
    expect(SPEC_ROUTE_IDS).toHaveLength(39);
    for (const id of SPEC_ROUTE_IDS) expect(protectedIds).toContain(id);
    expect(protectedRoutes.filter(([, r]) => r.beyondSpec).map(([id]) => id).sort()).toEqual(
      ['createCohort', 'getCohort', 'getDataset', 'listDocuments', 'openNotebook', 'refreshCohort', 'searchConcepts', 'searchUserDirectory', 'verifyAuditLog']
        .concat(SIGN_IN_SECURITY_ROUTES, SAFE_OUTPUT_ROUTES, COHORT_DEFINITION_ROUTES, ['listWithheldAnswers'])
        .sort(),
    );
  });
});

/** The account page's second factors and sessions, and an administrator's reset of them. */
const SIGN_IN_SECURITY_ROUTES = [
  'getMyMfa', 'startTotpEnrolment', 'confirmTotpEnrolment', 'webauthnRegistrationOptions', 'registerWebauthn', 'renameMfaFactor',
  'removeMfaFactor', 'regenerateRecoveryCodes', 'listMySessions', 'endMySession', 'endAllMySessions', 'resetUserMfa', 'endUserSessions',
];

/** ATLAS import, export and lint of a saved query, and the saved concept sets. */
const COHORT_DEFINITION_ROUTES = ['importAtlasQuery', 'exportAtlasQuery', 'lintQuery'].concat(
  Object.entries(ROUTES as Record<string, RouteContract>).filter(([, r]) => r.tag === 'concept-sets').map(([id]) => id),
);

/** The airlock's release requests and the notebook egress holds. */
const SAFE_OUTPUT_ROUTES = (Object.entries(ROUTES as Record<string, RouteContract>) as [string, RouteContract][])
  .filter(([, r]) => r.tag === 'outputs' || r.path.startsWith('/api/v1/notebook-holds/'))
  .map(([id]) => id);

describe('id token verification', () => {
  const me = (token: string) => t.request({ method: 'GET', url: '/api/v1/users/me/', token });

  async function signWithPlatformKey(claims: Record<string, unknown>, setup: (jwt: SignJWT) => SignJWT) {
    const { kid, privateKey } = t.services.signingKeys.signingKey();
    return setup(new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid })).sign(privateKey);
  }

  it('accepts a token from the embedded issuer', async () => {
    const { id_token } = await t.signIn(ADMIN_EMAIL);
    const response = await me(id_token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: ADMIN_EMAIL, roles: ['ADMIN'], status: 'ACTIVE', user_source: 'LOCAL' });
    expect(response.json().permissions).toContain('users:invite');
  });

  it('rejects a token whose payload was tampered with', async () => {
    const { id_token } = await t.signIn(ADMIN_EMAIL);
    const [header, payload, signature] = id_token.split('.');
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload!)));
    claims.sub = '00000000-0000-4000-8000-000000000000';
    const forged = [header, base64url.encode(JSON.stringify(claims)), signature].join('.');
    const response = await me(forged);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('The token is invalid.');
  });

  it('rejects an unsigned token (alg: none)', async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const now = Math.floor(Date.now() / 1000);
    const payload = base64url.encode(
      JSON.stringify({ iss: PUBLIC_URL, aud: 'hdp-api', sub: t.admin.id, iat: now, exp: now + 600 }),
    );
    const response = await me(`${header}.${payload}.`);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/algorithm that is not allowed|invalid/);
  });

  it('rejects a token for another audience', async () => {
    const token = await signWithPlatformKey({}, (jwt) =>
      jwt.setIssuer(PUBLIC_URL).setAudience('some-other-api').setSubject(t.admin.id).setIssuedAt().setExpirationTime('5m'),
    );
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/"aud"/);
  });

  it('rejects an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await signWithPlatformKey({}, (jwt) =>
      jwt.setIssuer(PUBLIC_URL).setAudience('hdp-api').setSubject(t.admin.id).setIssuedAt(now - 1200).setExpirationTime(now - 600),
    );
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('The token has expired.');
  });

  it('rejects a token that is not valid yet (nbf)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await signWithPlatformKey({}, (jwt) =>
      jwt.setIssuer(PUBLIC_URL).setAudience('hdp-api').setSubject(t.admin.id).setNotBefore(now + 600).setExpirationTime(now + 1200),
    );
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/"nbf"/);
  });

  it('rejects a token signed by a key the platform does not hold, even with a known kid', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const { kid } = t.services.signingKeys.signingKey();
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer(PUBLIC_URL).setAudience('hdp-api').setSubject(t.admin.id).setIssuedAt().setExpirationTime('5m')
      .sign(privateKey);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('rejects a token from an issuer it does not trust', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    await exportJWK(publicKey);
    const token = await new SignJWT({ email: ADMIN_EMAIL })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('https://evil.example').setAudience('hdp-api').setSubject(t.admin.id).setExpirationTime('5m')
      .sign(privateKey);
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/does not trust/);
  });

  it('rejects garbage', async () => {
    const response = await me('not-a-jwt');
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('The token is not a valid JWT.');
  });

  it('publishes discovery and the public keys', async () => {
    const discovery = (await t.request({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
    expect(discovery).toMatchObject({ issuer: PUBLIC_URL, jwks_uri: `${PUBLIC_URL}/.well-known/jwks.json` });
    const jwks = (await t.request({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined();
  });
});
