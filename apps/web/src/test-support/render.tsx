import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { vi } from 'vitest';
import type { User } from '@hdp/contract';
import { makeStore } from '@/app/store';

/** A user as the API presents it; fields can be overridden. */
export function aUser(overrides: Partial<User> = {}): User {
  return {
    id: '0b6e9b52-5f1d-4c1e-9a52-7c1d2e3f4a5b',
    email: 'ada@example.org',
    name: 'Ada Lovelace',
    roles: ['RESEARCHER'],
    status: 'ACTIVE',
    user_source: 'LOCAL',
    created_at: '2026-02-03T10:00:00.000Z',
    invitation_expires_at: null,
    invitation_expired: false,
    ...overrides,
  };
}

/** One recorded call to the fake API. */
export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Answer = { status?: number; body: unknown };

/**
 * Stubs fetch with a fake API: `answer` gives the reply for each call (by method and path).
 * The browser calls its own origin, so relative addresses are resolved against a test origin.
 */
export function fakeApi(answer: (call: RecordedCall) => Answer | Promise<Answer>) {
  const calls: RecordedCall[] = [];
  const BaseRequest = globalThis.Request;
  vi.stubGlobal(
    'Request',
    class extends BaseRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://web.test') : input, init);
      }
    },
  );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const text = await request.text();
      const call = { method: request.method, path: url.pathname, query: url.searchParams, body: text ? JSON.parse(text) : undefined };
      calls.push(call);
      const { status = 200, body } = await answer(call);
      // A 204 has no body (the Response constructor refuses one).
      if (status === 204) return new Response(null, { status });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** Renders with a fresh store (the app's, with the error catalogue listener). */
export function renderWithStore(ui: ReactElement) {
  const store = makeStore();
  return { store, ...render(<Provider store={store}>{ui}</Provider>) };
}
