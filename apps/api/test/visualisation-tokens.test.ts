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
import { auditLog } from '../src/db/schema';
import { desc } from 'drizzle-orm';

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

describe('GET /api/v1/vizzly/tokens/{projectId}/ with the service configured', () => {
  let t: TestApp;
  let publicKey: string;
  const PURPOSE = 'To compare dashboards of HbA1c over time across the cohort, for a service review.';
  beforeAll(async () => {
    const pem = sec1Pem();
    publicKey = vizzlyPublicKeyPem(parseVizzlyPrivateKey(pem));
    t = await startTestApp({
      VIZZLY_PRIVATE_KEY: pem.replaceAll('\n', '\\n'),
      VIZZLY_PROJECT_ID: 'prj_platform',
      VIZZLY_DATA_SET_IDS: 'das_persons,das_measurements',
      VIZZLY_TOKEN_TTL_MINUTES: '5',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A workbench created over HTTP by `owner`, with `reader` as a READER. */
  async function workbenchOf(owner: string, reader: { id: string }) {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/workbenches/',
      token: owner,
      payload: { name: `Dashboards ${Math.random().toString(36).slice(2, 8)}`, purpose: PURPOSE, users: [{ id: reader.id, role: 'READER' }] },
    });
    expect(created.statusCode).toBe(201);
    return created.json().id as string;
  }
  const lastAudit = async () => (await t.services.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0]!;

  it("gives a member tokens for the workbench's data only, each issue audited", async () => {
    const owner = await t.userWithRoles(['RESEARCHER']);
    const reader = await t.userWithRoles(['RESEARCHER']);
    const workbenchId = await workbenchOf(owner.token, reader.user);

    const before = Date.now();
    const response = await t.request({ method: 'GET', url: `/api/v1/vizzly/tokens/${workbenchId}/`, token: owner.token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['dashboard_access_token', 'data_access_token', 'expires_at', 'workbench_id']);
    expect(body.workbench_id).toBe(workbenchId);
    const expiresAt = Date.parse(body.expires_at);
    expect(expiresAt - before).toBeGreaterThan(4 * 60_000);
    expect(expiresAt - before).toBeLessThanOrEqual(5 * 60_000 + 1000);

    const dashboard = await verifyVisualisationToken<DashboardAccessClaims>(body.dashboard_access_token, publicKey);
    expect(dashboard).toMatchObject({ valid: true, claims: { projectId: 'prj_platform', userReference: owner.user.id, scope: 'read_write', accessType: 'standard' } });
    const data = await verifyVisualisationToken<DataAccessClaims>(body.data_access_token, publicKey);
    expect(data).toMatchObject({
      valid: true,
      claims: {
        dataSetIds: ['das_persons', 'das_measurements'],
        secureFilters: {
          das_persons: [{ field: 'workbench_id', op: '=', value: workbenchId }],
          das_measurements: [{ field: 'workbench_id', op: '=', value: workbenchId }],
        },
      },
    });
    expect(await verifyVisualisationToken(body.data_access_token, publicKey, new Date(expiresAt + 1000))).toEqual({ valid: false, reason: 'expired' });

    expect(await lastAudit()).toMatchObject({
      eventType: 'VISUALISATION_TOKEN_ISSUED',
      outcome: 'SUCCESS',
      actorId: owner.user.id,
      resourceType: 'workbench',
      resourceId: workbenchId,
      requestId: response.headers['x-request-id'],
      details: { scope: 'read_write', data_set_ids: ['das_persons', 'das_measurements'], expires_at: body.expires_at },
    });
    // The audit entry never holds the tokens themselves.
    expect(JSON.stringify(await lastAudit())).not.toContain(body.data_access_token.split('.')[2]);

    const readerTokens = await t.request({ method: 'GET', url: `/api/v1/vizzly/tokens/${workbenchId}/`, token: reader.token });
    expect(readerTokens.statusCode).toBe(200);
    expect(decodeJwt(readerTokens.json().dashboard_access_token)).toMatchObject({ userReference: reader.user.id, scope: 'read' });
  });

  it('tells non-members, administrators included, that the workbench does not exist, and audits the denial', async () => {
    const owner = await t.userWithRoles(['RESEARCHER']);
    const workbenchId = await workbenchOf(owner.token, (await t.userWithRoles(['RESEARCHER'])).user);
    const outsider = await t.userWithRoles(['RESEARCHER']);
    const admin = await t.userWithRoles(['ADMIN']);
    for (const account of [outsider, admin]) {
      const refused = await t.request({ method: 'GET', url: `/api/v1/vizzly/tokens/${workbenchId}/`, token: account.token });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ detail: 'Workbench not found.' });
      expect(await lastAudit()).toMatchObject({ eventType: 'ACCESS_DENIED', outcome: 'DENIED', actorId: account.user.id, resourceId: workbenchId });
    }
    const missing = '7d2f0a11-2b3c-4d5e-8f90-a1b2c3d4e5f6';
    const seq = (await lastAudit()).seq;
    const unknown = await t.request({ method: 'GET', url: `/api/v1/vizzly/tokens/${missing}/`, token: outsider.token });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Workbench not found.' });
    // Nothing to deny: no entry for a workbench that does not exist.
    expect((await lastAudit()).seq).toBe(seq);
  });
});
