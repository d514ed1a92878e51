import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardToPostHog } from './ingest-proxy';

/**
 * The analytics forwarder's answers: the analytics host (a third party, or whoever answers for it)
 * must not set cookies on the app's origin through it, nor send it any header but the body's.
 */
let analytics: http.Server;
let app: http.Server;
let appUrl: string;

async function serve(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  analytics = http.createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'set-cookie': ['next-auth.session-token=planted; Path=/', 'canary=1; Path=/'],
          'access-control-allow-origin': '*',
          'x-analytics-internal': 'yes',
        })
        .end('{"status":1}'),
    );
  });
  const analyticsUrl = await serve(analytics);
  app = http.createServer((req, res) => void forwardToPostHog(req, res, analyticsUrl));
  appUrl = await serve(app);
});
afterAll(async () => {
  await new Promise((resolve) => app.close(resolve));
  await new Promise((resolve) => analytics.close(resolve));
});

describe('the analytics forwarder (/api/ingest)', () => {
  it("passes the analytics host's answer without its cookies or other headers", async () => {
    const response = await fetch(`${appUrl}/api/ingest/e/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 1 });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('x-analytics-internal')).toBeNull();
  });
});
