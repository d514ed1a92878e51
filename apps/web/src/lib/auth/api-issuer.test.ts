import { describe, expect, it, vi } from 'vitest';
import { apiIssuer, SignInRefused } from './api-issuer';
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

  it('posts email and password to the token endpoint', async () => {
    const fetchImpl = answer(200, { id_token: 'i', refresh_token: 'r', expires_in: 600, token_type: 'Bearer' });
    const tokens = await apiIssuer('http://api.test', fetchImpl as unknown as typeof fetch).issueToken('a@example.org', 'pw');
    expect(tokens.id_token).toBe('i');
    expect(fetchImpl).toHaveBeenCalledWith('http://api.test/api/v1/auth/token/', expect.objectContaining({ method: 'POST', body: JSON.stringify({ email: 'a@example.org', password: 'pw' }) }));
  });

  it('logs out without a JSON content type on the empty body', async () => {
    const fetchImpl = vi.fn(async () => new Response(null, { status: 204 }));
    expect(await apiIssuer('http://api.test', fetchImpl as unknown as typeof fetch).logout('i')).toBe(true);
    const init = (fetchImpl.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.headers).toEqual({ authorization: 'Bearer i' });
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
