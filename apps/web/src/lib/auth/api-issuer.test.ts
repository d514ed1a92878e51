import { describe, expect, it, vi } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SIGNATURE_HEADER, verifyClientAddress } from '@hdp/contract/client-address';
import { REFRESH_REFUSALS } from '@hdp/contract';
import { apiIssuer, RefreshRefused, SignInRefused } from './api-issuer';
import { browserAddress, stampBrowserAddress, stampedBrowserAddress } from './client-address';
import { assertSessionSecret, MISSING_SECRET_MESSAGE, readServerEnv } from './server-env';

const answer = (status: number, body: unknown = {}) => vi.fn(async () => new Response(JSON.stringify(body), { status }));

describe('the embedded issuer client', () => {
  it.each([
    [401, 'CredentialsSignin'],
    [403, 'AccountNotActive'],
    [429, 'SignInThrottled'],
    [500, 'IssuerUnavailable'],
  ])('turns %i into %s', async (status, reason) => {
    const issuer = apiIssuer('http://api.test', answer(status, { detail: 'x' }) as unknown as typeof fetch);
    await expect(issuer.issueToken('a@example.org', 'pw')).rejects.toEqual(new SignInRefused(reason as SignInRefused['reason']));
  });

  it("names a refused refresh by the contract's refusal, or not at all for an unknown detail", async () => {
    const disabled = apiIssuer('http://api.test', answer(401, { detail: REFRESH_REFUSALS.accountNotActive }) as unknown as typeof fetch);
    await expect(disabled.refresh('r')).rejects.toMatchObject({ status: 401, refusal: 'accountNotActive' });
    const revoked = apiIssuer('http://api.test', answer(401, { detail: REFRESH_REFUSALS.revoked }) as unknown as typeof fetch);
    await expect(revoked.refresh('r')).rejects.toMatchObject({ refusal: 'revoked' });
    const other = apiIssuer('http://api.test', answer(502, { detail: 'Bad gateway' }) as unknown as typeof fetch);
    await expect(other.refresh('r')).rejects.toEqual(new RefreshRefused(502, undefined));
  });

  it('posts email and password to the token endpoint', async () => {
    const fetchImpl = answer(200, { id_token: 'i', refresh_token: 'r', expires_in: 600, token_type: 'Bearer' });
    const tokens = await apiIssuer('http://api.test', fetchImpl as unknown as typeof fetch).issueToken('a@example.org', 'pw');
    expect(tokens.id_token).toBe('i');
    expect(fetchImpl).toHaveBeenCalledWith('http://api.test/api/v1/auth/token/', expect.objectContaining({ method: 'POST', body: JSON.stringify({ email: 'a@example.org', password: 'pw' }) }));
  });

  it("names the browser's address, signed with the shared secret, when it has one", async () => {
    const secret = 'a-client-address-secret-of-32-characters-or-more';
    const fetchImpl = answer(200, { id_token: 'i', refresh_token: 'r', expires_in: 600, token_type: 'Bearer' });
    await apiIssuer('http://api.test', fetchImpl as unknown as typeof fetch, secret).issueToken('a@example.org', 'pw', '203.0.113.9');
    const headers = (fetchImpl.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Record<string, string>;
    expect(verifyClientAddress(secret, headers[CLIENT_ADDRESS_HEADER], headers[CLIENT_ADDRESS_SIGNATURE_HEADER])).toBe('203.0.113.9');

    const unsigned = answer(200, {});
    await apiIssuer('http://api.test', unsigned as unknown as typeof fetch).issueToken('a@example.org', 'pw', '203.0.113.9');
    expect((unsigned.mock.calls[0] as unknown as [string, RequestInit])[1].headers).not.toHaveProperty(CLIENT_ADDRESS_HEADER);
  });

  it('logs out without a JSON content type on the empty body', async () => {
    const fetchImpl = vi.fn(async () => new Response(null, { status: 204 }));
    expect(await apiIssuer('http://api.test', fetchImpl as unknown as typeof fetch).logout('i')).toBe(true);
    const init = (fetchImpl.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.headers).toEqual({ authorization: 'Bearer i' });
  });
});

describe("the browser's address", () => {
  const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
    ({ socket: { remoteAddress }, headers: { ...headers } }) as unknown as IncomingMessage;

  it("replaces whatever address the browser claims with the connection's", () => {
    const req = request('::ffff:198.51.100.4', { [CLIENT_ADDRESS_HEADER]: '10.0.0.1', [CLIENT_ADDRESS_SIGNATURE_HEADER]: 'forged', 'x-forwarded-for': '10.0.0.2' });
    stampBrowserAddress(req, false);
    expect(stampedBrowserAddress(req.headers)).toBe('198.51.100.4');
    expect(req.headers[CLIENT_ADDRESS_SIGNATURE_HEADER]).toBeUndefined();
  });

  it('takes the address the proxy saw, not what the browser put in front of it, under WEB_TRUST_PROXY', () => {
    expect(browserAddress(request('10.1.1.1', { 'x-forwarded-for': '10.0.0.2, 198.51.100.5' }), true)).toBe('198.51.100.5');
    expect(browserAddress(request('10.1.1.1', { 'x-forwarded-for': '10.0.0.2, 198.51.100.5' }), false)).toBe('10.1.1.1');
  });
});

describe('server settings', () => {
  it('refuses production without NEXTAUTH_SECRET, with a clear message', () => {
    expect(() => assertSessionSecret({ NODE_ENV: 'production' })).toThrow(MISSING_SECRET_MESSAGE);
    expect(() => assertSessionSecret({ NODE_ENV: 'production', NEXTAUTH_SECRET: 's' })).not.toThrow();
    expect(() => assertSessionSecret({ NODE_ENV: 'development' })).not.toThrow();
  });

  it('switches OIDC on only with an issuer and a client id', () => {
    expect(readServerEnv({ NODE_ENV: 'test' }).oidc).toBeUndefined();
    expect(readServerEnv({ NODE_ENV: 'test', OIDC_ISSUER: 'https://idp.example.org/', OIDC_CLIENT_ID: 'hdp' }).oidc).toMatchObject({
      issuer: 'https://idp.example.org',
      clientId: 'hdp',
    });
    expect(readServerEnv({ NODE_ENV: 'test' }).apiInternalUrl).toBe('http://127.0.0.1:8000');
  });
});
