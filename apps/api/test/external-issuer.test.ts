import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { userRepository } from '../src/users/user-repository';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A real OIDC issuer stand-in on a local port: it serves discovery and a JWKS over HTTP, as
 * Keycloak or Entra ID would, and the test signs tokens with its private key.
 */
let issuerServer: http.Server;
let issuer: string;
let privateKey: CryptoKey;
let t: TestApp;

beforeAll(async () => {
  const keys = await generateKeyPair('RS256', { extractable: true });
  privateKey = keys.privateKey;
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'external-1', alg: 'RS256', use: 'sig' };
  issuerServer = http.createServer((request, response) => {
    const base = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    response.setHeader('content-type', 'application/json');
    if (request.url === '/.well-known/openid-configuration') {
      response.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/keys` }));
    } else if (request.url === '/keys') {
      response.end(JSON.stringify({ keys: [jwk] }));
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
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
    .setProtectedHeader({ alg: 'RS256', kid: 'external-1' })
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
