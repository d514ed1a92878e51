import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { scrubText } from '../src/observability/error-reporting';
import { startSentryCapture } from './support/sentry-capture';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let capture: Awaited<ReturnType<typeof startSentryCapture>>;

beforeAll(async () => {
  capture = await startSentryCapture();
  t = await startTestApp({ SENTRY_DSN: capture.dsn, SENTRY_TRACES_SAMPLE_RATE: '0' });
});
afterAll(async () => {
  await t.close();
  await capture.close();
});

describe('error reporting (Sentry)', () => {
  it('is off without a DSN and takes its trace sample rate from configuration', () => {
    expect(loadConfig({}).sentry).toBeUndefined();
    expect(loadConfig({ SENTRY_DSN: 'https://k@o1.ingest.sentry.io/2' }).sentry).toEqual({
      dsn: 'https://k@o1.ingest.sentry.io/2',
      tracesSampleRate: 0.7,
      environment: undefined,
    });
    expect(() => loadConfig({ SENTRY_DSN: 'https://k@o1.ingest.sentry.io/2', SENTRY_TRACES_SAMPLE_RATE: '2' })).toThrow('SENTRY_TRACES_SAMPLE_RATE');
  });

  it('sends one envelope for a 5xx, with the request id the client saw and nothing secret', async () => {
    const email = 'ada.lovelace@example.org';
    const { user, token } = await t.userWithRoles(['RESEARCHER'], email);
    // Fault injected into the warehouse: its error message carries an address and the caller's token.
    const warehouse = t.services.warehouse;
    t.services.warehouse = {
      ...warehouse,
      state: { schema: 'cdm', source: 'test', loadedAt: new Date() },
      query: () => Promise.reject(new Error(`warehouse refused ${email} holding ${token}`)),
    };

    const failed = await t.request({
      method: 'GET',
      url: '/api/v1/data-explorer/concepts/?search=type-2-diabetes',
      token,
      headers: { cookie: 'next-auth.session-token=cookie-secret-value', 'x-request-id': 'req-sentry-test-0001' },
    });
    t.services.warehouse = warehouse;
    expect(failed.statusCode).toBe(500);
    expect(failed.headers['x-request-id']).toBe('req-sentry-test-0001');
    // Client errors are not reported.
    expect((await t.request({ method: 'GET', url: '/api/v1/vizzly/tokens/nope/', token })).statusCode).toBe(400);

    await t.services.errorReporter!.close();
    const events = capture.events();
    expect(events).toHaveLength(1);
    const event = events[0]!.items.find((item) => item.header.type === 'event')!.payload as {
      tags: Record<string, string>;
      contexts: { request: Record<string, unknown> };
      user: Record<string, unknown>;
      exception: { values: { type: string; value: string }[] };
      request?: { headers?: Record<string, string> };
    };
    expect(event.tags).toMatchObject({ request_id: 'req-sentry-test-0001', status_code: '500', route: '/api/v1/data-explorer/concepts/' });
    expect(event.contexts.request).toEqual({
      request_id: 'req-sentry-test-0001',
      method: 'GET',
      route: '/api/v1/data-explorer/concepts/',
      status: 500,
    });
    expect(event.user).toEqual({ id: user.id });
    expect(event.exception.values.at(-1)).toMatchObject({ type: 'Error', value: 'warehouse refused [email] holding [token]' });

    const raw = events[0]!.raw;
    for (const secret of [email, token, token.split('.')[2]!, 'cookie-secret-value', 'type-2-diabetes', 'authorization']) {
      expect(raw).not.toContain(secret);
    }
  });

  it('scrubs addresses, bearer credentials and long tokens from text but keeps request ids', () => {
    expect(scrubText('user a.b+c@mail.example.org sent Bearer abc.def for 3f1d3c1e-8d2a-4c55-9a39-6a3c0d1b2e7f')).toBe(
      'user [email] sent [token] for 3f1d3c1e-8d2a-4c55-9a39-6a3c0d1b2e7f',
    );
    expect(scrubText(`refresh ${'x'.repeat(43)}`)).toBe('refresh [token]');
  });
});
