import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { createRawBaseQuery } from '@/lib/api/base-query';
import { authSlice } from '@/lib/auth/auth-slice';
import { createApiErrorListener, handleFailedCall, notifyUnexpectedError, type ErrorHandlerDeps, type FailedCall } from './api-error-handler';
import { QUERY_NOT_EXECUTED } from '@hdp/contract/query-details';
import { DescriptionWithRefresh, REFRESH_PROMPT } from './refresh-prompt';
import type { Toast } from './notifier';

function fakeDeps() {
  const toasts: Toast[] = [];
  const deps = {
    show: vi.fn((toast: Toast) => toasts.push(toast)),
    reporter: { report: vi.fn() },
    logError: vi.fn(),
  } satisfies ErrorHandlerDeps;
  return { deps, toasts };
}

const call = (overrides: Partial<FailedCall>): FailedCall => ({
  endpoint: 'getMe', method: 'GET', status: 500, response: { detail: 'boom' }, args: undefined, url: 'http://localhost/api/v1/users/me/', ...overrides,
});

describe('handleFailedCall', () => {
  it('shows a title-only toast that closes by itself when there is no description', () => {
    const { deps, toasts } = fakeDeps();
    handleFailedCall(call({ endpoint: 'listUsers', status: 404 }), deps);
    expect(toasts).toEqual([{ type: 'error', title: 'No users found', description: undefined, duration: undefined }]);
    expect(deps.reporter.report).not.toHaveBeenCalled();
    expect(deps.logError).not.toHaveBeenCalled();
  });

  it('keeps a toast with a description open (duration 0)', () => {
    const { deps, toasts } = fakeDeps();
    handleFailedCall(call({ endpoint: 'createQuery', method: 'POST', status: 400, response: { detail: 'name: is required' } }), deps);
    expect(toasts).toEqual([{ type: 'error', title: 'Query Creation Error.', description: 'name: is required', duration: 0 }]);
  });

  it('shows no toast for a query that has not run yet (the workspace says so in place)', () => {
    const { deps, toasts } = fakeDeps();
    handleFailedCall(call({ endpoint: 'getLatestQueryExecution', status: 404, response: { detail: QUERY_NOT_EXECUTED } }), deps);
    expect(toasts).toEqual([]);
  });

  it('shows a warning for a workbench stored with errors', () => {
    const { deps, toasts } = fakeDeps();
    handleFailedCall(call({ endpoint: 'updateWorkbench', method: 'PUT', status: 418, response: { detail: 'x' } }), deps);
    expect(toasts[0]).toMatchObject({ type: 'warning', title: 'Workbench Edits Submitted with Errors', duration: 0 });
  });

  it('lists the refused parts of a workbench 418 under the warning', () => {
    const { deps, toasts } = fakeDeps();
    handleFailedCall(
      call({
        endpoint: 'updateWorkbench', method: 'PUT', status: 418,
        response: { detail: 'x', workbench: {}, refused: [{ kind: 'cohort', id: 'c1', reason: 'it was archived' }, { kind: 'document', id: 'd1', reason: 'it was deleted' }] },
      }),
      deps,
    );
    render(<>{toasts[0]!.description}</>);
    expect(screen.getByRole('list', { name: 'Not applied' })).toHaveTextContent('Cohort: it was archivedDocument: it was deleted');
    expect(deps.reporter.report).not.toHaveBeenCalled();
  });

  it('offers a refresh link that reloads the page', async () => {
    const reload = vi.fn();
    render(<DescriptionWithRefresh description="Edited elsewhere." reload={reload} />);
    expect(screen.getByText('Edited elsewhere.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: REFRESH_PROMPT }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('shows no toast and reports nothing for a stale workbench edit (the wizard says it above its buttons)', () => {
    const { deps, toasts } = fakeDeps();
    handleFailedCall(call({ endpoint: 'updateWorkbench', method: 'PUT', status: 409, response: { detail: 'version: this workbench was changed by Stella at 2026-11-26T16:24:54.013Z.' } }), deps);
    expect(toasts).toEqual([]);
    expect(deps.logError).not.toHaveBeenCalled();
    expect(deps.reporter.report).not.toHaveBeenCalled();
  });

  it('reports "Something went wrong" failures', () => {
    const { deps, toasts } = fakeDeps();
    handleFailedCall(call({ status: 501, response: { detail: 'not implemented' } }), deps);
    expect(toasts).toEqual([{ type: 'error', title: 'Something went wrong', description: undefined, duration: undefined }]);
    expect(deps.reporter.report).toHaveBeenCalledOnce();
    expect((deps.reporter.report.mock.calls[0]![0] as Error).message).toBe('GET getMe failed with 501: not implemented');
  });

  it('gives clear messages for network failures and timeouts without reporting them', () => {
    const { deps, toasts } = fakeDeps();
    handleFailedCall(call({ status: 'FETCH_ERROR', response: undefined, error: 'TypeError: Failed to fetch' }), deps);
    handleFailedCall(call({ status: 'TIMEOUT_ERROR', response: undefined, error: 'AbortError' }), deps);
    expect(toasts.map((t) => t.title)).toEqual(['Unable to reach the server', 'The server took too long to answer']);
    expect(deps.reporter.report).not.toHaveBeenCalled();
  });

  it('has a general helper for errors outside API calls', () => {
    const { deps, toasts } = fakeDeps();
    notifyUnexpectedError(new Error('render failed'), 'audit log table', deps);
    expect(toasts).toEqual([{ type: 'error', title: 'Something went wrong' }]);
    expect(deps.reporter.report).toHaveBeenCalledWith(expect.objectContaining({ message: 'render failed' }), expect.objectContaining({ endpoint: 'audit log table' }));
  });
});

describe('the global listener', () => {
  function storeWith(fetchImpl: typeof fetch) {
    const { deps, toasts } = fakeDeps();
    const api = createApi({
      baseQuery: createRawBaseQuery('http://api.test'),
      endpoints: (build) => ({
        getMe: build.query<unknown, void>({ query: () => '/api/v1/users/me/' }),
        listUsers: build.query<unknown, { roles: string[] }>({ query: (params) => ({ url: '/api/v1/users/', params }) }),
      }),
    });
    vi.stubGlobal('fetch', fetchImpl);
    const listener = createApiErrorListener(() => deps);
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, auth: authSlice.reducer },
      middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(api.middleware),
    });
    return { api, store, deps, toasts };
  }

  it('turns a failed call into the catalogue toast, with method, url and args in the report', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ detail: 'No such page' }), { status: 404, headers: { 'content-type': 'application/json' } }));
    const { api, store, toasts } = storeWith(fetchImpl as unknown as typeof fetch);
    await store.dispatch(api.endpoints.listUsers.initiate({ roles: ['ADMIN', 'AUDITOR'] }));
    expect(toasts).toEqual([expect.objectContaining({ title: 'No users found' })]);
    vi.unstubAllGlobals();
  });

  it('reports unexpected failures with the request it made', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ detail: 'boom' }), { status: 500, headers: { 'content-type': 'application/json' } }));
    const { api, store, deps } = storeWith(fetchImpl as unknown as typeof fetch);
    await store.dispatch(api.endpoints.getMe.initiate());
    expect(deps.reporter.report).toHaveBeenCalledWith(expect.any(Error), {
      endpoint: 'getMe', method: 'GET', status: 500, args: undefined, response: { detail: 'boom' }, url: 'http://api.test/api/v1/users/me/',
    });
    vi.unstubAllGlobals();
  });

  it('says the server cannot be reached when fetch itself fails', async () => {
    const { api, store, toasts } = storeWith((async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch);
    await store.dispatch(api.endpoints.getMe.initiate());
    expect(toasts).toEqual([expect.objectContaining({ title: 'Unable to reach the server' })]);
    vi.unstubAllGlobals();
  });
});
