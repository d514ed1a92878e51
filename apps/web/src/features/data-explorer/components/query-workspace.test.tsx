import type { ReactNode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueryGroup } from '@hdp/contract';
import { makeStore } from '@/app/store';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { aUser, fakeApi } from '@/test-support/render';
import { initialDataExplorerState } from '../slice';
import { aResult, aSchema } from '@/test-support/query-fixtures';
import { QueryWorkspace } from './query-workspace';

// The builder itself is exercised in the browser tests; here the workspace around it.
vi.mock('next/dynamic', () => ({ default: () => (props: { children?: ReactNode }) => <div data-testid="lazy">{props.children}</div> }));

const query: QueryGroup = { id: 'root', combinator: 'and', rules: [{ id: 'r1', field: 'person.age', operator: '>', value: 40 }] };
const incomplete: QueryGroup = { id: 'root', combinator: 'and', rules: [{ id: 'r1', field: 'person.age', operator: '>', value: '' }] };
const DETAIL = 'query.rules[0] (person.age): value must be a number';

function renderWorkspace(state: Partial<typeof initialDataExplorerState> = { query, isQueryEdited: true }) {
  const store = makeStore({ dataExplorer: { ...initialDataExplorerState, ...state } });
  const toasts: Toast[] = [];
  setNotifier({ show: (toast) => toasts.push(toast) });
  render(
    <Provider store={store}>
      <QueryWorkspace />
    </Provider>,
  );
  return { store, toasts };
}

afterEach(() => {
  setNotifier(null);
  vi.unstubAllGlobals();
});

describe('QueryWorkspace', { timeout: 20_000 }, () => {
  it('shows the edited marker, runs the unsaved tree without ids and shows the count', async () => {
    const calls = fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: aUser() };
      if (path === '/api/v1/data-explorer/schema/') return { body: aSchema(false) };
      if (method === 'POST' && path === '/api/v1/queries/execute/') return { body: { ...aResult(), dataset: 'synthetic: 3000 persons, seed 3' } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    renderWorkspace();
    expect(screen.getByText('Edited')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('heading', { name: 'New query' })).toBeInTheDocument();
    const run = screen.getByRole('button', { name: 'Run' });
    await waitFor(() => expect(run).toBeEnabled());
    await userEvent.click(run);
    expect(await screen.findByTestId('person-count')).toHaveTextContent('273');
    const execute = calls.find((c) => c.path === '/api/v1/queries/execute/');
    expect(execute?.body).toEqual({ query: { combinator: 'and', rules: [{ field: 'person.age', operator: '>', value: 40 }] } });
    // An unsaved query's result cannot become a cohort: the button says why, on the page.
    const createCohort = screen.getByRole('button', { name: 'Create cohort' });
    expect(createCohort).toBeDisabled();
    expect(createCohort).toHaveAccessibleDescription('Save the query first: a cohort is made from a run of a saved query.');
    expect(screen.getByText('Save the query first: a cohort is made from a run of a saved query.')).toBeVisible();
    // The criteria it answers and where it was counted.
    expect(screen.getByText('These results answer:').parentElement).toHaveTextContent('These results answer: Age (years) > 40');
    expect(screen.getByText(/^Counted in: synthetic: 3000 persons, seed 3, at \d\d:\d\d$/)).toBeInTheDocument();
  });

  it('marks a result counted in a dataset no longer served, and asks for a run before a cohort', async () => {
    fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: aUser() };
      if (path === '/api/v1/data-explorer/schema/') return { body: { ...aSchema(true), warehouse: { loaded: true, source: 'synthetic: 12000 persons, seed 777' } } };
      if (method === 'POST' && path === '/api/v1/queries/execute/') return { body: { ...aResult(), dataset: 'synthetic: 10000 persons, seed 20240501' } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    renderWorkspace();
    const run = screen.getByRole('button', { name: 'Run' });
    await waitFor(() => expect(run).toBeEnabled());
    await userEvent.click(run);
    expect(await screen.findByTestId('results-older-dataset')).toHaveTextContent(
      'These results were counted in a previous datasetThey were counted in synthetic: 10000 persons, seed 20240501; the platform now serves synthetic: 12000 persons, seed 777. Run the query again to count in the current data.',
    );
    expect(screen.getByRole('button', { name: 'Create cohort' })).toHaveAccessibleDescription(
      'These results were counted in data no longer served: run the query again to make a cohort from the current data.',
    );
  });

  it('catches an incomplete rule before Run or Save: no call, the rule named with what to enter', async () => {
    const calls = fakeApi(({ path }) => {
      if (path === '/api/v1/users/me/') return { body: aUser() };
      if (path === '/api/v1/data-explorer/schema/') return { body: aSchema(false) };
      return { status: 404, body: { detail: 'Not found' } };
    });
    renderWorkspace({ query: incomplete, isQueryEdited: true });
    const run = screen.getByRole('button', { name: 'Run' });
    await waitFor(() => expect(run).toBeEnabled());
    await userEvent.click(run);
    expect(await screen.findByText('Rule 1 (Age (years)): Enter an age (years).')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('keeps the last results when a run fails, marked with its time and the reason; Create cohort says why not', async () => {
    let runs = 0;
    fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: aUser() };
      if (path === '/api/v1/data-explorer/schema/') return { body: aSchema(false) };
      if (method === 'POST' && path === '/api/v1/queries/execute/') {
        runs += 1;
        return runs === 1 ? { body: aResult() } : { status: 502, body: { detail: 'The API is not reachable.' } };
      }
      return { status: 404, body: { detail: 'Not found' } };
    });
    const { toasts } = renderWorkspace();
    const run = screen.getByRole('button', { name: 'Run' });
    await waitFor(() => expect(run).toBeEnabled());
    await userEvent.click(run);
    expect(await screen.findByTestId('person-count')).toHaveTextContent('273');
    await userEvent.click(run);
    expect(await screen.findByText(/^These results are from \d\d:\d\d; the last run failed\.$/)).toBeInTheDocument();
    expect(screen.getByText(/Unable to reach the server/)).toBeInTheDocument();
    expect(screen.getByTestId('person-count')).toHaveTextContent('273');
    expect(screen.getByRole('button', { name: 'Create cohort' })).toHaveAccessibleDescription(/The last run failed/);
    expect(toasts).toEqual([]);
  });

  it("offers to create a cohort from a saved query's latest successful run", async () => {
    const queryId = '5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c';
    fakeApi(({ path }) => {
      if (path === '/api/v1/users/me/') return { body: aUser() };
      if (path === '/api/v1/data-explorer/schema/') return { body: aSchema(false) };
      if (path === `/api/v1/queries/${queryId}/executions/latest/`) {
        return {
          body: {
            id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f', query_id: queryId, query_version: 1, status: 'SUCCEEDED', result: aResult(), error: null,
            requested_by: aUser().id, created_at: '2026-11-21T18:00:00.000Z', started_at: null, finished_at: null,
          },
        };
      }
      return { status: 404, body: { detail: 'Not found' } };
    });
    renderWorkspace({ queryId, queryName: 'Diabetes', query, isQueryEdited: false, isAnonymousQuery: false });
    expect(await screen.findByTestId('person-count')).toHaveTextContent('273');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create cohort' })).toBeEnabled());
  });

  it("shows the server's refusal of a rule on the rule, in words, not as a toast with the raw path", async () => {
    fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: aUser() };
      if (path === '/api/v1/data-explorer/schema/') return { body: aSchema(false) };
      if (method === 'POST' && path === '/api/v1/queries/') return { status: 400, body: { detail: DETAIL } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    const { store, toasts } = renderWorkspace();
    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await userEvent.click(save);
    await userEvent.type(await screen.findByLabelText('Query name'), 'Women 40–65');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Rule 1 (Age (years)): Enter an age (years) as a number.')).toBeInTheDocument();
    expect(screen.queryByText(/rules\[0\]/)).not.toBeInTheDocument();
    expect(toasts).toEqual([]);
    expect(store.getState().dataExplorer).toMatchObject({ queryId: null, isAnonymousQuery: true, isQueryEdited: true });
  });

  it('runs a saved, unedited query as a job and reads the execution until it has succeeded', async () => {
    const queryId = '5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c';
    const executionId = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
    const execution = (status: string, result: unknown = null) => ({
      id: executionId, query_id: queryId, query_version: 1, status, result, error: null, requested_by: aUser().id,
      created_at: '2026-11-21T18:00:00.000Z', started_at: null, finished_at: null,
    });
    let reads = 0;
    const calls = fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: aUser() };
      if (path === '/api/v1/data-explorer/schema/') return { body: aSchema(false) };
      if (path === `/api/v1/queries/${queryId}/executions/latest/`) return { status: 404, body: { detail: 'Query has not been executed yet.' } };
      if (method === 'POST' && path === `/api/v1/queries/${queryId}/executions/`) return { status: 202, body: execution('PENDING') };
      if (path === `/api/v1/queries/${queryId}/executions/${executionId}/`) {
        reads += 1;
        return { body: reads < 2 ? execution('RUNNING') : execution('SUCCEEDED', aResult()) };
      }
      return { status: 404, body: { detail: 'Not found' } };
    });
    const { toasts } = renderWorkspace({ queryId, queryName: 'Diabetes', query, isQueryEdited: false, isAnonymousQuery: false });
    expect(screen.getByRole('heading', { name: 'Diabetes' })).toBeInTheDocument();
    expect(screen.queryByText('Edited')).not.toBeInTheDocument();
    // A saved query that never ran: said in place, not as an error toast.
    expect(await screen.findByText('Query has not been executed yet. Run it to see how many persons match.')).toBeInTheDocument();
    expect(toasts).toEqual([]);
    const run = screen.getByRole('button', { name: 'Run' });
    await waitFor(() => expect(run).toBeEnabled());
    await userEvent.click(run);
    expect(await screen.findByText(/Running…|Queued…/)).toBeInTheDocument();
    expect(await screen.findByTestId('person-count', {}, { timeout: 5_000 })).toHaveTextContent('273');
    expect(reads).toBe(2);
    expect(calls.some((c) => c.path === '/api/v1/queries/execute/')).toBe(false);
  });
});
