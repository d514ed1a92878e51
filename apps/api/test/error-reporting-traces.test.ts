import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSentryCapture } from './support/sentry-capture';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The API's traces, every request sampled, over real HTTP: what a search or a notebook's open
 * link carried in its query string must not reach the error-reporting service in any span.
 */
let t: TestApp;
let capture: Awaited<ReturnType<typeof startSentryCapture>>;
let origin: string;

beforeAll(async () => {
  capture = await startSentryCapture();
  t = await startTestApp({ SENTRY_DSN: capture.dsn, SENTRY_TRACES_SAMPLE_RATE: '1' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await t.close();
  await capture.close();
});

describe('error reporting traces', () => {
  it('carry request paths without their query strings', async () => {
    const { token } = await t.userWithRoles(['RESEARCHER'], 'trace.reader@example.org');
    const needles = ['tracedirectoryneedle', 'tracesearchneedle'];
    const asked = await fetch(`${origin}/api/v1/users/directory/?search=${needles[0]}`, { headers: { authorization: `Bearer ${token}` } });
    expect(asked.status).toBeLessThan(500);
    const other = await fetch(`${origin}/api/v1/workbenches/?search=${needles[1]}&ticket=opaque-ticket-value`, { headers: { authorization: `Bearer ${token}` } });
    expect(other.status).toBeLessThan(500);
    // A notebook is not served on the API's own origin (it has its own), but the request is traced.
    const open = await fetch(`${origin}/jupyter/0b6a3f5e-1c2d-4e5f-8a9b-0c1d2e3f4a5b/_open?ticket=tracedticketneedle`);
    expect(open.status).toBe(404);

    await t.services.errorReporter!.close();
    const raw = capture.envelopes.map((envelope) => envelope.raw).join('\n');
    // The traces were sent (the test would pass vacuously otherwise), by path.
    expect(capture.envelopes.some((envelope) => envelope.items.some((item) => item.header.type === 'transaction' || item.header.type === 'span'))).toBe(true);
    expect(raw).toContain('/api/v1/users/directory/');
    for (const secret of [...needles, 'opaque-ticket-value', 'tracedticketneedle', 'search=', 'ticket=']) expect(raw).not.toContain(secret);
  });
});
