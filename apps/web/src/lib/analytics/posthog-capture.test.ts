import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addListener, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { eventually, listen, startCaptureServer } from '@/test-support/capture-server';
import { ANALYTICS_FLUSH_INTERVAL_MS } from '@/config/constants';
import { trackSuccessfulCalls } from './analytics-listener';
import { identifyUser, setAnalyticsClient, track } from './analytics';
import { forwardToPostHog } from './ingest-proxy';
import { startPostHog, withoutPersonalParts } from './posthog-client';

const USER_ID = '0b6e9b52-5f1d-4c1e-9a52-7c1d2e3f4a5b';
const EMAIL = 'ada.lovelace@example.org';
const QUERY_TREE = { combinator: 'and', rules: [{ field: 'measurement', operator: '>', value: 'HbA1c 7.5' }] };

let posthogHost: Awaited<ReturnType<typeof startCaptureServer>>;
let app: Awaited<ReturnType<typeof listen>>;

/** The events PostHog received, from every batch. */
function receivedEvents() {
  return posthogHost.requests
    .filter((r) => r.url.startsWith('/e/') || r.url.startsWith('/batch') || r.url.startsWith('/i/v0/e'))
    .flatMap((r) => {
      const body = r.body.startsWith('data=') ? Buffer.from(decodeURIComponent(r.body.slice(5)), 'base64').toString('utf8') : r.body;
      const parsed = JSON.parse(body) as unknown;
      const list = Array.isArray(parsed) ? parsed : ((parsed as { batch?: unknown[] }).batch ?? [parsed]);
      return list as { event: string; distinct_id?: string; properties: Record<string, unknown> }[];
    });
}

beforeAll(async () => {
  posthogHost = await startCaptureServer('{"status":1}');
  // The app's /ingest route, served by its real handler, in front of the fake PostHog host.
  app = await listen(http.createServer((req, res) => void forwardToPostHog(req, res, posthogHost.url)));
  window.history.replaceState({}, '', `/cohorts?search=${encodeURIComponent(EMAIL)}`);
  await startPostHog({ key: 'phc_test_project', recording: false, apiHost: `${app.url}/api/ingest` });
});
afterAll(async () => {
  setAnalyticsClient(null);
  await app.close();
  await posthogHost.close();
});

describe('product analytics (PostHog through /api/ingest)', () => {
  it('sends the main actions, identified by platform id only, with no health or personal data', async () => {
    // The app's real calls, answered locally: their arguments hold a query tree and an address.
    const api = createApi({
      reducerPath: 'testApi',
      baseQuery: async () => ({ data: { person_count: 9876543, email: EMAIL } }),
      endpoints: (build) => ({
        executeAnonymousQuery: build.mutation<unknown, unknown>({ query: (tree) => ({ url: '/q', body: tree }) }),
        createCohort: build.mutation<unknown, unknown>({ query: (body) => ({ url: '/c', body }) }),
        updateCohort: build.mutation<unknown, unknown>({ query: (body) => ({ url: '/c/1', body }) }),
      }),
    });
    // As in the app: a listener middleware that the analytics starter adds the listener to.
    const listeners = createListenerMiddleware();
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer },
      middleware: (getDefault) => getDefault().prepend(listeners.middleware).concat(api.middleware),
    });
    store.dispatch(addListener(trackSuccessfulCalls));

    // Before sign-in: the event is anonymous and makes no person profile.
    track('workbench_created');
    await eventually(() => expect(receivedEvents().map((e) => e.event)).toContain('workbench_created'), ANALYTICS_FLUSH_INTERVAL_MS * 5);
    const anonymous = receivedEvents().find((e) => e.event === 'workbench_created')!;
    expect(anonymous.properties.$process_person_profile).toBe(false);
    expect(anonymous.properties.distinct_id).not.toBe(USER_ID);

    identifyUser(USER_ID);
    await store.dispatch(api.endpoints.executeAnonymousQuery.initiate(QUERY_TREE));
    await store.dispatch(api.endpoints.createCohort.initiate({ name: 'Ada Lovelace cohort', execution_id: 'x', owner: EMAIL }));
    await store.dispatch(api.endpoints.updateCohort.initiate({ cohortId: '1', name: 'renamed' }));
    await store.dispatch(api.endpoints.updateCohort.initiate({ cohortId: '1', status: 'PUBLISHED' }));
    track('workbench_created');
    // A caller cannot add what the catalogue does not allow.
    track('notebook_started', { environment: 'python', name: EMAIL, count: 9876543 } as never);

    await eventually(() => expect(receivedEvents().map((e) => e.event)).toContain('notebook_started'), ANALYTICS_FLUSH_INTERVAL_MS * 5);
    const events = receivedEvents();
    // The anonymous event was received before the others were sent.
    const product = events.filter((e) => !e.event.startsWith('$')).slice(1);
    expect(product.map((e) => e.event)).toEqual(['query_run', 'cohort_created', 'cohort_published', 'workbench_created', 'notebook_started']);
    expect(product.find((e) => e.event === 'query_run')!.properties.saved).toBe(false);
    expect(product.find((e) => e.event === 'notebook_started')!.properties).toMatchObject({ environment: 'python' });
    for (const event of product) {
      expect(event.properties.distinct_id ?? event.distinct_id).toBe(USER_ID);
      expect(event.properties).not.toHaveProperty('$set');
      expect(event.properties.$process_person_profile).toBe(true);
    }
    // The page view kept no query string.
    const pageview = events.find((e) => e.event === '$pageview');
    expect(pageview?.properties.$current_url).toMatch(/\/cohorts$/);

    const everything = posthogHost.requests.map((r) => `${r.url}\n${r.body}`).join('\n');
    for (const secret of [EMAIL, encodeURIComponent(EMAIL), 'HbA1c', 'Ada Lovelace', '9876543', 'person_count', 'measurement']) {
      expect(everything).not.toContain(secret);
    }
    for (const request of posthogHost.requests) {
      expect(request.headers.cookie).toBeUndefined();
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['x-forwarded-for']).toBeUndefined();
    }
  }, 45_000);

  it('forwards /api/ingest without the session cookie, credentials or the client address', async () => {
    const before = posthogHost.requests.length;
    const answer = await fetch(`${app.url}/api/ingest/flags/?v=2`, {
      method: 'POST',
      headers: { cookie: 'next-auth.session-token=secret', authorization: 'Bearer secret', 'x-forwarded-for': '10.1.2.3', 'content-type': 'application/json' },
      body: '{"token":"phc_test_project"}',
    });
    expect(answer.status).toBe(200);
    const forwarded = posthogHost.requests[before]!;
    expect(forwarded).toMatchObject({ method: 'POST', url: '/flags/?v=2', body: '{"token":"phc_test_project"}' });
    expect(forwarded.headers).not.toHaveProperty('cookie');
    expect(forwarded.headers).not.toHaveProperty('authorization');
    expect(forwarded.headers).not.toHaveProperty('x-forwarded-for');
  });

  it('says analytics is off when POSTHOG_HOST is not set', async () => {
    const off = await listen(http.createServer((req, res) => void forwardToPostHog(req, res, null)));
    const answer = await fetch(`${off.url}/api/ingest/e/`, { method: 'POST', body: '[]' });
    await off.close();
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ detail: 'Analytics is not configured (POSTHOG_HOST).' });
  });

  it('drops query strings and ids from addresses', () => {
    expect(withoutPersonalParts('https://hdp.example.org/cohorts/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a?search=ada#x')).toBe(
      'https://hdp.example.org/cohorts/:id',
    );
  });
});
