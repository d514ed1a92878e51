import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { ROUTES } from '@hdp/contract';
import { authSlice, idTokenChanged } from '@/lib/auth/auth-slice';
import { createBaseQuery, createRawBaseQuery, setSessionReader } from './base-query';
import { pathOf, serializeParams } from './query-params';
import { TAG_TYPES } from './base-api';
import { apiBaseUrl } from '@/config/public-config';

describe('query parameters and paths', () => {
  it('repeats array parameters and leaves out empty ones', () => {
    expect(serializeParams({ roles: ['ADMIN', 'RESEARCHER'], skip: 0, limit: 15, search: undefined, status: null })).toBe(
      'roles=ADMIN&roles=RESEARCHER&skip=0&limit=15',
    );
  });

  it('fills contract paths and keeps the trailing slash', () => {
    expect(pathOf(ROUTES.getUser.path, { userId: 'a b' })).toBe('/api/v1/users/a%20b/');
    expect(pathOf(ROUTES.resendInvitation.path, { userId: 'u1', userEmail: 'x@example.org' })).toBe('/api/v1/users/invitation/u1/x%40example.org/');
    expect(() => pathOf(ROUTES.getUser.path)).toThrow('Missing path parameter userId');
  });

  it('calls the page origin unless an API base address is configured', () => {
    expect(apiBaseUrl({})).toBe('');
    expect(apiBaseUrl({ NEXT_PUBLIC_API_BASE_URL: 'https://api.example.org/' })).toBe('https://api.example.org');
  });

  it('declares the cache tags of every resource', () => {
    expect(TAG_TYPES).toEqual(['Users', 'Workbenches', 'Notebooks', 'Documents', 'Queries', 'Cohorts', 'Executions', 'ReleaseRequests', 'Account', 'ConceptSets']);
  });
});

describe('the base query', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setSessionReader(async () => null);
  });

  function setUp(answers: number[]) {
    const requests: Request[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        requests.push(request);
        const status = answers.shift() ?? 200;
        return new Response(JSON.stringify(status === 200 ? { ok: true } : { detail: 'Not authenticated.' }), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const api = createApi({
      baseQuery: createBaseQuery(createRawBaseQuery('http://api.test')),
      endpoints: (build) => ({
        listUsers: build.query<unknown, { roles: string[] }>({ query: (params) => ({ url: ROUTES.listUsers.path, params }) }),
      }),
    });
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, auth: authSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    store.dispatch(idTokenChanged('token-1'));
    return { api, store, requests };
  }

  it('sends the Bearer id token, the trailing slash and repeated array parameters', async () => {
    const { api, store, requests } = setUp([200]);
    await store.dispatch(api.endpoints.listUsers.initiate({ roles: ['ADMIN', 'AUDITOR'] }));
    expect(requests[0]!.url).toBe('http://api.test/api/v1/users/?roles=ADMIN&roles=AUDITOR');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer token-1');
  });

  it('after a 401 re-reads the session and repeats the call with the renewed token', async () => {
    const { api, store, requests } = setUp([401, 200]);
    setSessionReader(async () => 'token-2');
    const result = await store.dispatch(api.endpoints.listUsers.initiate({ roles: [] }));
    expect(result.data).toEqual({ ok: true });
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(store.getState().auth.idToken).toBe('token-2');
  });

  it('gives up after a 401 when the session has no newer token', async () => {
    const { api, store, requests } = setUp([401]);
    setSessionReader(async () => 'token-1');
    const result = await store.dispatch(api.endpoints.listUsers.initiate({ roles: [] }));
    expect(result.error).toMatchObject({ status: 401 });
    expect(requests).toHaveLength(1);
  });
});
