import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, ADMIN_EMAIL, type TestApp } from './support/test-app';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await startTestApp();
  // A route that fails unexpectedly, to see what a 500 shows.
  t.app.get('/test/explode', { config: { access: { public: true } } }, async () => {
    throw new Error('connection string postgres://secret@db failed');
  });
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
});
afterAll(() => t.close());

describe('error bodies', () => {
  it('400 names the invalid field', async () => {
    const response = await t.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email: 'not-an-email', password: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'body.email: Invalid email address' });
  });

  it('400 names an invalid query parameter', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/users/?limit=1000', token: adminToken });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/^query\.limit: /);
  });

  it('400 names an invalid path parameter', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/users/not-a-uuid/', token: adminToken });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/^path\.userId: /);
  });

  it('400 for a body that is not JSON', async () => {
    const response = await t.request({
      method: 'POST', url: '/api/v1/auth/token/', payload: '{"email": ', headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'The body is not valid JSON.' });
  });

  it('413 states the limit', async () => {
    const response = await t.request({
      method: 'POST', url: '/api/v1/auth/token/',
      payload: JSON.stringify({ email: 'a@example.org', password: 'x'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: `The request body is larger than the limit of ${t.config.bodyLimitBytes} bytes.` });
  });

  it('404 for an unknown user', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/users/00000000-0000-4000-8000-000000000000/', token: adminToken });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'User does not exist.' });
  });

  it('404 for an unknown route', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/nothing-here/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No such route: GET /api/v1/nothing-here/' });
  });

  it('409 when the state does not allow the change', async () => {
    const response = await t.request({ method: 'POST', url: `/api/v1/users/enable/${t.admin.id}/`, token: adminToken });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: 'Only a disabled user can be enabled; this user is ACTIVE.' });
  });

  it('500 shows no internals, only the request id', async () => {
    const response = await t.request({ method: 'GET', url: '/test/explode', headers: { 'x-request-id': 'req-12345678' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'Internal server error. Quote request id req-12345678 when reporting it.' });
    expect(response.headers['x-request-id']).toBe('req-12345678');
  });

  it('gives every request an id', async () => {
    const response = await t.request({ method: 'GET', url: '/healthz' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("replaces a caller's request id that does not look like one", async () => {
    for (const incoming of ['short', 'has spaces in it', `x${'a'.repeat(200)}`, 'quote"and\\backslash']) {
      const response = await t.request({ method: 'GET', url: '/healthz', headers: { 'x-request-id': incoming } });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const sane = await t.request({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'proxy-1234:abcd.ef_9' } });
    expect(sane.headers['x-request-id']).toBe('proxy-1234:abcd.ef_9');
  });

  it('sends the API security headers on every answer, errors included, and page headers on Swagger UI only', async () => {
    const apiHeaders = {
      'cache-control': 'no-store',
      'content-security-policy': "frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-site',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    };
    for (const url of ['/healthz', '/api/v1/users/me/', '/api/v1/nothing-here/']) {
      const response = await t.request({ method: 'GET', url });
      expect(response.headers).toMatchObject(apiHeaders);
      expect(response.headers['referrer-policy']).toBeUndefined();
      // Served over plain HTTP (the test app's public URL): HSTS would be ignored, and is not sent.
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
    const page = await t.request({ method: 'GET', url: '/api/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers).toMatchObject({ 'referrer-policy': 'no-referrer', 'cross-origin-opener-policy': 'same-origin', 'x-content-type-options': 'nosniff' });
    // Public, static answers may be cached.
    expect((await t.request({ method: 'GET', url: '/.well-known/jwks.json' })).headers['cache-control']).toBe('public, max-age=300');
  });

  it('sends HSTS on every answer where the public URL is HTTPS', async () => {
    const served = await startTestApp({ PUBLIC_URL: 'https://api.example.org' });
    try {
      for (const url of ['/healthz', '/api/v1/users/me/', '/api/v1/nothing-here/']) {
        const response = await served.request({ method: 'GET', url });
        expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(response.headers['x-frame-options']).toBe('DENY');
      }
    } finally {
      await served.close();
    }
  });

  it('answers the health routes', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});
