import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually, listen, startCaptureServer } from '@/test-support/capture-server';
import { handleFailedCall, notifyUnexpectedError, type ErrorHandlerDeps } from './api-error-handler';
import { getErrorReporter, noopErrorReporter, setErrorReporter } from './error-reporter';
import { flushSentry, setSentryUser, startSentry } from './sentry-reporter';
import { forwardEnvelope, parseDsn } from './sentry-tunnel';

const USER_ID = '0b6e9b52-5f1d-4c1e-9a52-7c1d2e3f4a5b';
const EMAIL = 'ada.lovelace@example.org';
const ID_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';

let sentry: Awaited<ReturnType<typeof startCaptureServer>>;
let tunnel: Awaited<ReturnType<typeof listen>>;
let dsn: string;

type SentEvent = {
  tags: Record<string, string>;
  user?: Record<string, unknown>;
  contexts: { failed_call?: Record<string, unknown> };
  exception: { values: { value: string }[] };
};

/** The error events Sentry received, with the raw envelope each came in. */
function receivedEvents(): { raw: string; event: SentEvent }[] {
  return sentry.requests
    .filter((r) => /^\/api\/1\/envelope\/?/.test(r.url))
    .flatMap((r) => {
      const lines = r.body.split('\n').filter(Boolean);
      const items: { raw: string; event: SentEvent }[] = [];
      for (let i = 1; i + 1 < lines.length; i += 2) {
        if ((JSON.parse(lines[i]!) as { type: string }).type === 'event') items.push({ raw: r.body, event: JSON.parse(lines[i + 1]!) as SentEvent });
      }
      return items;
    });
}

function deps(): ErrorHandlerDeps {
  return { show: vi.fn(), reporter: getErrorReporter(), logError: vi.fn() };
}

beforeAll(async () => {
  sentry = await startCaptureServer();
  dsn = `http://publickey@127.0.0.1:${sentry.port}/1`;
  // The app's /api/monitoring tunnel, served by its real handler, in front of the fake Sentry.
  tunnel = await listen(http.createServer((req, res) => void forwardEnvelope(req, res, parseDsn(dsn))));
  startSentry({ dsn, tracesSampleRate: 0, tunnel: `${tunnel.url}/api/monitoring` });
  setSentryUser(USER_ID);
});
afterAll(async () => {
  setErrorReporter(noopErrorReporter);
  await tunnel.close();
  await sentry.close();
});

describe('error reporting (Sentry through the tunnel)', { timeout: 30_000 }, () => {
  it('sends an unexpected API failure once, with endpoint, method, status, args, response and url, and nothing secret', async () => {
    handleFailedCall(
      {
        endpoint: 'disableUser',
        method: 'POST',
        status: 500,
        args: { userId: USER_ID, token: ID_TOKEN, note: `asked by ${EMAIL}` },
        response: { detail: 'Internal server error. Quote request id req-0001-abcdef when reporting it.' },
        url: `http://localhost:3000/api/v1/users/disable/${USER_ID}/?email=${encodeURIComponent(EMAIL)}#token=${ID_TOKEN}`,
      },
      deps(),
    );
    await flushSentry();
    await eventually(() => expect(receivedEvents()).toHaveLength(1));
    const [{ raw, event }] = receivedEvents() as [{ raw: string; event: SentEvent }];
    expect(event.tags).toMatchObject({ endpoint: 'disableUser', method: 'POST', status: '500' });
    expect(event.contexts.failed_call).toEqual({
      endpoint: 'disableUser',
      method: 'POST',
      status: 500,
      args: { userId: USER_ID, token: '[redacted]', note: 'asked by [email]' },
      response: { detail: 'Internal server error. Quote request id req-0001-abcdef when reporting it.' },
      url: `http://localhost:3000/api/v1/users/disable/${USER_ID}/?email=[redacted]`,
    });
    expect(event.user).toEqual({ id: USER_ID });
    // Through the tunnel: the SDK's direct posts carry `?sentry_key=…`, the tunnel's do not.
    expect(sentry.requests.map((r) => r.url)).toEqual(['/api/1/envelope/']);
    expect(event.exception.values.at(-1)!.value).toBe('POST disableUser failed with 500: Internal server error. Quote request id req-0001-abcdef when reporting it.');
    for (const secret of [EMAIL, encodeURIComponent(EMAIL), ID_TOKEN, 'c2lnbmF0dXJl']) expect(raw).not.toContain(secret);
  });

  it("never sends a data route's arguments or answer, only the server's detail", async () => {
    const before = receivedEvents().length;
    handleFailedCall(
      {
        endpoint: 'executeAnonymousQuery',
        method: 'POST',
        status: 500,
        args: { combinator: 'and', rules: [{ field: 'measurement', value: 'HbA1c' }] },
        response: { detail: `failed for ${EMAIL}`, person_count: 9876543 },
        url: 'http://localhost:3000/api/v1/queries/execute/',
      },
      deps(),
    );
    await flushSentry();
    await eventually(() => expect(receivedEvents()).toHaveLength(before + 1));
    const { raw, event } = receivedEvents()[before]!;
    expect(event.contexts.failed_call).toMatchObject({ args: '[not sent: data route]', response: { detail: 'failed for [email]' } });
    for (const secret of ['HbA1c', 'measurement', 'person_count', '9876543', EMAIL]) expect(raw).not.toContain(secret);
  });

  it('reports errors outside API calls through the general helper', async () => {
    const before = receivedEvents().length;
    notifyUnexpectedError(new Error(`could not render ${EMAIL}`), 'cohort page', deps());
    await flushSentry();
    await eventually(() => expect(receivedEvents()).toHaveLength(before + 1));
    const { raw, event } = receivedEvents()[before]!;
    expect(event.tags).toMatchObject({ endpoint: 'cohort page', status: 'CLIENT_ERROR' });
    expect(event.exception.values.at(-1)!.value).toBe('could not render [email]');
    expect(raw).not.toContain(EMAIL);
  });

  it('the tunnel forwards only envelopes for the configured project', async () => {
    const before = sentry.requests.length;
    const other = await fetch(`${tunnel.url}/api/monitoring`, {
      method: 'POST',
      body: `${JSON.stringify({ dsn: 'https://otherkey@sentry.example.com/42' })}\n{"type":"event"}\n{}`,
    });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ detail: 'The envelope is not for this application’s project.' });
    expect((await fetch(`${tunnel.url}/api/monitoring`, { method: 'POST', body: 'not an envelope' })).status).toBe(400);
    expect(sentry.requests).toHaveLength(before);

    const off = await listen(http.createServer((req, res) => void forwardEnvelope(req, res, null)));
    const answer = await fetch(`${off.url}/api/monitoring`, { method: 'POST', body: '{}' });
    await off.close();
    expect(answer.status).toBe(404);
  });

  it('reads DSNs', () => {
    expect(parseDsn('https://abc@o1.ingest.sentry.io/123')).toEqual({
      origin: 'https://o1.ingest.sentry.io',
      projectId: '123',
      publicKey: 'abc',
      envelopeUrl: 'https://o1.ingest.sentry.io/api/123/envelope/',
    });
    expect(parseDsn('https://o1.ingest.sentry.io/123')).toBeNull();
    expect(parseDsn('nonsense')).toBeNull();
  });
});
