import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { loadConfig } from '../src/config';
import {
  parseVizzlyPrivateKey,
  signVisualisationTokens,
  verifyVisualisationToken,
  vizzlyPublicKeyPem,
  type DashboardAccessClaims,
  type DataAccessClaims,
  type VizzlySettings,
} from '../src/visualisation/vizzly-tokens';
import { startTestApp, type TestApp } from './support/test-app';

const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const sec1Pem = (key = p256().privateKey) => key.export({ type: 'sec1', format: 'pem' }).toString();

const WORKBENCH = '3f1d3c1e-8d2a-4c55-9a39-6a3c0d1b2e7f';
const USER = '0b7c6f0e-52a1-4f0c-a2c3-54f1f0a9d9d1';

function settings(overrides: Partial<VizzlySettings> = {}): VizzlySettings {
  return {
    privateKey: parseVizzlyPrivateKey(sec1Pem()),
    projectId: 'prj_test',
    dataSetIds: ['das_cohort', 'das_measurements'],
    workbenchField: 'workbench_id',
    ttlMinutes: 10,
    ...overrides,
  };
}

/** The token with one payload claim changed and the original signature kept. */
function withPayload(token: string, change: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(claims);
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

describe('visualisation tokens', () => {
  it('signs an ES256 dashboard token for the user and a data token filtered to the workbench, both short-lived', async () => {
    const s = settings();
    const now = new Date('2026-11-23T20:00:00.000Z');
    const tokens = await signVisualisationTokens(s, { userId: USER, workbenchId: WORKBENCH, canEdit: true, now });
    const publicKey = vizzlyPublicKeyPem(s.privateKey);

    expect(decodeProtectedHeader(tokens.dashboardAccessToken)).toEqual({ alg: 'ES256', typ: 'JWT' });
    const dashboard = await verifyVisualisationToken<DashboardAccessClaims>(tokens.dashboardAccessToken, publicKey, now);
    expect(dashboard).toEqual({
      valid: true,
      claims: {
        accessType: 'standard',
        projectId: 'prj_test',
        userReference: USER,
        scope: 'read_write',
        expires: '2026-11-23T20:10:00.000Z',
        iat: now.getTime() / 1000,
        exp: now.getTime() / 1000 + 600,
      },
    });
    const data = await verifyVisualisationToken<DataAccessClaims>(tokens.dataAccessToken, publicKey, now);
    expect(data).toEqual({
      valid: true,
      claims: {
        dataSetIds: ['das_cohort', 'das_measurements'],
        secureFilters: {
          das_cohort: [{ field: 'workbench_id', op: '=', value: WORKBENCH }],
          das_measurements: [{ field: 'workbench_id', op: '=', value: WORKBENCH }],
        },
        parameters: {},
        expires: '2026-11-23T20:10:00.000Z',
        iat: now.getTime() / 1000,
        exp: now.getTime() / 1000 + 600,
      },
    });
    expect(tokens.expiresAt.toISOString()).toBe('2026-11-23T20:10:00.000Z');
  });

  it('gives a reader a read-only dashboard scope and follows the configured lifetime', async () => {
    const now = new Date('2026-11-23T20:00:00.000Z');
    const tokens = await signVisualisationTokens(settings({ ttlMinutes: 3 }), { userId: USER, workbenchId: WORKBENCH, canEdit: false, now });
    const claims = decodeJwt(tokens.dashboardAccessToken);
    expect(claims.scope).toBe('read');
    expect(claims.exp! - claims.iat!).toBe(180);
  });

  it('recognises expired, tampered and malformed tokens', async () => {
    const s = settings();
    const now = new Date('2026-11-23T20:00:00.000Z');
    const tokens = await signVisualisationTokens(s, { userId: USER, workbenchId: WORKBENCH, canEdit: false, now });
    const publicKey = vizzlyPublicKeyPem(s.privateKey);
    const verify = (token: string, at = now) => verifyVisualisationToken(token, publicKey, at);

    expect(await verify(tokens.dataAccessToken, new Date('2026-11-23T20:10:00.000Z'))).toEqual({ valid: false, reason: 'expired' });
    expect(await verify(tokens.dataAccessToken, new Date('2026-11-23T20:09:59.000Z'))).toMatchObject({ valid: true });

    // Another workbench's data, or a later expiry, with the original signature.
    const otherWorkbench = withPayload(tokens.dataAccessToken, (claims) => {
      claims.secureFilters = { das_cohort: [{ field: 'workbench_id', op: '=', value: 'someone-else' }] };
    });
    expect(await verify(otherWorkbench)).toEqual({ valid: false, reason: 'tampered' });
    const longer = withPayload(tokens.dashboardAccessToken, (claims) => {
      claims.exp = (claims.exp as number) + 86_400;
      claims.expires = '2027-01-01T00:00:00.000Z';
    });
    expect(await verify(longer, new Date('2026-11-24T00:00:00.000Z'))).toEqual({ valid: false, reason: 'tampered' });
    const [header, payload, signature] = tokens.dashboardAccessToken.split('.');
    const flipped = `${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    expect(await verify([header, payload, flipped].join('.'))).toEqual({ valid: false, reason: 'tampered' });

    // Signed by someone else's key.
    const forged = await signVisualisationTokens(settings(), { userId: USER, workbenchId: WORKBENCH, canEdit: true, now });
    expect(await verify(forged.dashboardAccessToken)).toEqual({ valid: false, reason: 'tampered' });
    // An unsigned token ("alg": "none") is refused, never trusted.
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect(await verify(unsigned)).toEqual({ valid: false, reason: 'tampered' });

    expect(await verify('not-a-token')).toEqual({ valid: false, reason: 'malformed' });
  });

  it('reads PKCS#8 and SEC1 keys, also with escaped line breaks, and refuses other kinds of key', () => {
    const { privateKey } = p256();
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(parseVizzlyPrivateKey(pkcs8).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(parseVizzlyPrivateKey(sec1Pem(privateKey).replaceAll('\n', '\\n')).asymmetricKeyType).toBe('ec');

    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => parseVizzlyPrivateKey(p384)).toThrow('must be an ECDSA P-256 key (ES256)');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => parseVizzlyPrivateKey(rsa)).toThrow('must be an ECDSA P-256 key (ES256)');
    expect(() => parseVizzlyPrivateKey('-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----')).toThrow('not a PEM private key');
  });

  it('configuration: off when unset, complete or refused at start-up', () => {
    expect(loadConfig({}).vizzly).toBeUndefined();
    const complete = { VIZZLY_PRIVATE_KEY: sec1Pem(), VIZZLY_PROJECT_ID: 'prj_1', VIZZLY_DATA_SET_IDS: 'das_1, das_2' };
    expect(loadConfig(complete).vizzly).toMatchObject({
      projectId: 'prj_1',
      dataSetIds: ['das_1', 'das_2'],
      workbenchField: 'workbench_id',
      ttlMinutes: 10,
    });
    expect(() => loadConfig({ VIZZLY_PROJECT_ID: 'prj_1' })).toThrow(
      'Invalid configuration: VIZZLY_PRIVATE_KEY, VIZZLY_DATA_SET_IDS must be set with VIZZLY_PROJECT_ID',
    );
    expect(() => loadConfig({ ...complete, VIZZLY_DATA_SET_IDS: '*' })).toThrow('VIZZLY_DATA_SET_IDS: list the data set ids');
    expect(() => loadConfig({ ...complete, VIZZLY_PRIVATE_KEY: 'secret' })).toThrow('Invalid configuration: VIZZLY_PRIVATE_KEY: not a PEM private key');
    expect(() => loadConfig({ ...complete, VIZZLY_TOKEN_TTL_MINUTES: '600' })).toThrow('VIZZLY_TOKEN_TTL_MINUTES');
  });
});

describe('GET /api/v1/vizzly/tokens/{projectId}/', () => {
  let unconfigured: TestApp;
  beforeAll(async () => {
    unconfigured = await startTestApp();
  });
  afterAll(async () => {
    await unconfigured.close();
  });

  it('answers 503 saying what to set when the service is not configured', async () => {
    const { token } = await unconfigured.userWithRoles(['RESEARCHER']);
    const response = await unconfigured.request({ method: 'GET', url: `/api/v1/vizzly/tokens/${WORKBENCH}/`, token });
    expect(response.statusCode).toBe(503);
    expect(response.json().detail).toMatch(/sets VIZZLY_PRIVATE_KEY, VIZZLY_PROJECT_ID, VIZZLY_DATA_SET_IDS on the API/);
  });

  it('refuses roles without the permission (403) and malformed ids (400)', async () => {
    const { token: auditor } = await unconfigured.userWithRoles(['AUDITOR']);
    expect((await unconfigured.request({ method: 'GET', url: `/api/v1/vizzly/tokens/${WORKBENCH}/`, token: auditor })).statusCode).toBe(403);
    const { token } = await unconfigured.userWithRoles(['RESEARCHER']);
    const bad = await unconfigured.request({ method: 'GET', url: '/api/v1/vizzly/tokens/not-a-uuid/', token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^path\.projectId: /);
  });
});
