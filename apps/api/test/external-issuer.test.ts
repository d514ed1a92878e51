import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import Provider from 'oidc-provider';
import { userRepository } from '../src/users/user-repository';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A real OpenID Provider on a local port: `oidc-provider` (OpenID-certified) serves discovery and
 * the key set, as Keycloak or Entra ID would. It signs with keys the test holds too, so the test
 * can also sign the malformed or hostile tokens a certified provider would never issue (no
 * `exp`, too long-lived, wrong audience), which is what these cases are about. The browser test
 * (e2e/tests/single-sign-on.spec.ts) runs the provider's own flow end to end.
 */
let issuerServer: http.Server;
let issuer: string;
let provider: Provider;
let privateKey: CryptoKey;
let kid = 'external-1';
let t: TestApp;

/** A new provider instance publishing these keys (the first signs): a key rotation. */
async function publish(keys: { privateKey: CryptoKey; kid: string }[]) {
  const jwks = await Promise.all(keys.map(async (key) => ({ ...(await exportJWK(key.privateKey)), kid: key.kid, alg: 'RS256', use: 'sig' })));
  provider = new Provider(issuer, { jwks: { keys: jwks }, cookies: { keys: [randomBytes(16).toString('hex')] }, features: { devInteractions: { enabled: false } } });
}

beforeAll(async () => {
  privateKey = (await generateKeyPair('RS256', { extractable: true })).privateKey;
  issuerServer = http.createServer((request, response) => provider.callback()(request, response));
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  await publish([{ privateKey, kid }]);
  t = await startTestApp({ OIDC_ISSUER: issuer, OIDC_AUDIENCE: 'platform-client' });
  await userRepository.insert(t.services.db, {
    email: 'Ext.User@Example.org', name: 'External', roles: ['RESEARCHER'], status: 'ACTIVE', userSource: 'EXTERNAL',
  });
  await userRepository.insert(t.services.db, {
    email: 'invited@example.org', name: null, roles: ['RESEARCHER'], status: 'INVITED', userSource: 'EXTERNAL',
  });
});
afterAll(async () => {
  await t.close();
  issuerServer.close();
});

const externalToken = (claims: Record<string, unknown>, audience = 'platform-client') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject('idp-subject-1')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);

const me = async (token: string) => t.request({ method: 'GET', url: '/api/v1/users/me/', token });

describe('an external OIDC issuer', () => {
  it('maps a token to the platform user by email, case-insensitively', async () => {
    const response = await me(await externalToken({ email: 'ext.user@example.ORG', email_verified: true }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: 'ext.user@example.org', user_source: 'EXTERNAL', roles: ['RESEARCHER'] });
  });

  it('lets in no one who was not invited', async () => {
    const response = await me(await externalToken({ email: 'stranger@example.org' }));
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/No platform account/);
  });

  it('lets in only ACTIVE users', async () => {
    const response = await me(await externalToken({ email: 'invited@example.org' }));
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('This account is invited.');
  });

  it('cannot stand in for a local account with the same email', async () => {
    const response = await me(await externalToken({ email: 'admin@example.org' }));
    expect(response.statusCode).toBe(401);
  });

  it('refuses a wrong audience and an unverified email', async () => {
    expect((await me(await externalToken({ email: 'ext.user@example.org' }, 'another-client'))).statusCode).toBe(401);
    expect((await me(await externalToken({ email: 'ext.user@example.org', email_verified: false }))).statusCode).toBe(401);
  });
});

describe('a provider that must enforce multi-factor authentication', () => {
  it('refuses provider tokens without the required acr or amr, saying why, and takes those with it', async () => {
    const strict = await startTestApp(
      { OIDC_ISSUER: issuer, OIDC_AUDIENCE: 'platform-client', OIDC_REQUIRED_ACR: 'mfa,2', OIDC_REQUIRED_AMR: 'mfa' },
      { ...(t.config.databaseUrl && { sameDatabaseAs: t }) },
    );
    try {
      if (!t.config.databaseUrl) {
        await userRepository.insert(strict.services.db, {
          email: 'ext.user@example.org', name: 'External', roles: ['RESEARCHER'], status: 'ACTIVE', userSource: 'EXTERNAL',
        });
      }
      const call = async (claims: Record<string, unknown>) =>
        strict.request({ method: 'GET', url: '/api/v1/users/me/', token: await externalToken({ email: 'ext.user@example.org', ...claims }) });
      const noAcr = await call({ amr: ['pwd', 'mfa'] });
      expect(noAcr.statusCode).toBe(401);
      expect(noAcr.json().detail).toMatch(/without the multi-factor authentication this platform requires \(acr null, required one of mfa, 2\)/);
      const noMfaAmr = await call({ acr: 'mfa', amr: ['pwd'] });
      expect(noMfaAmr.statusCode).toBe(401);
      expect(noMfaAmr.json().detail).toMatch(/amr lacks mfa/);
      expect((await call({ acr: '2', amr: ['pwd', 'mfa'] })).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe("a provider's key rotation", () => {
  it('takes tokens signed with a key published a moment ago, and refuses a key it never published', async () => {
    expect((await me(await externalToken({ email: 'ext.user@example.org' }))).statusCode).toBe(200);
    const previous = { privateKey, kid };
    const next = { privateKey: (await generateKeyPair('RS256', { extractable: true })).privateKey, kid: 'external-2' };
    await publish([next, previous]);
    [privateKey, kid] = [next.privateKey, next.kid];
    // The API fetched the key set moments ago; it fetches again after a second, not half a minute.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await me(await externalToken({ email: 'ext.user@example.org', nonce: 'rotated' }))).statusCode).toBe(200);

    // A key the provider never published is refused, after the API has looked again.
    const unpublished = { privateKey: (await generateKeyPair('RS256', { extractable: true })).privateKey, kid: 'not-published' };
    [privateKey, kid] = [unpublished.privateKey, unpublished.kid];
    const forged = await me(await externalToken({ email: 'ext.user@example.org', nonce: 'forged' }));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().detail).toBe('The token is invalid.');
    [privateKey, kid] = [next.privateKey, next.kid];
  });
});
