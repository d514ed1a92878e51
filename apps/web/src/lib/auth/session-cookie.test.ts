import type { NextApiRequest, NextApiResponse } from 'next';
import NextAuth from 'next-auth';
import { describe, expect, it } from 'vitest';
import { buildAuthOptions } from './auth-options';
import { readServerEnv } from './server-env';

/** The cookies next-auth sets when a browser first asks for a CSRF token, for a public address. */
async function cookiesFor(publicUrl: string): Promise<string[]> {
  const env = readServerEnv({ NODE_ENV: 'test', NEXTAUTH_URL: publicUrl, NEXTAUTH_SECRET: 'a-test-session-secret-of-some-length' });
  const handler = NextAuth(buildAuthOptions(env));
  const headers = new Map<string, string | string[]>();
  const res = {
    setHeader: (name: string, value: string | string[]) => headers.set(name.toLowerCase(), value),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    status: () => res,
    json: () => res,
    send: () => res,
    end: () => res,
    redirect: () => res,
  } as unknown as NextApiResponse;
  const req = { method: 'GET', url: '/api/auth/csrf', query: { nextauth: ['csrf'] }, headers: { host: new URL(publicUrl).host }, cookies: {}, body: {} } as unknown as NextApiRequest;
  const previous = process.env.NEXTAUTH_URL;
  process.env.NEXTAUTH_URL = publicUrl;
  try {
    await handler(req, res);
  } finally {
    process.env.NEXTAUTH_URL = previous;
  }
  const cookies = headers.get('set-cookie') ?? [];
  return Array.isArray(cookies) ? cookies : [cookies];
}

describe('the session cookies', () => {
  it('are Secure, with the __Host-/__Secure- prefixes, when the public address is HTTPS', async () => {
    const cookies = await cookiesFor('https://hdp.example.org');
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/^__(Host|Secure)-next-auth\./);
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/; HttpOnly/i);
    }
  });

  it('are not Secure over plain HTTP, where the browser would drop them', async () => {
    for (const cookie of await cookiesFor('http://localhost:3000')) expect(cookie).not.toMatch(/Secure/i);
  });
});
