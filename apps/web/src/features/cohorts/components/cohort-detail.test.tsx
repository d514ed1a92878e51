import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@hdp/contract';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { aUser, fakeApi, renderWithStore } from '@/test-support/render';
import { aCohortDetail, aVersion, AUTHOR, STEWARD } from '@/test-support/cohort-fixtures';
import CohortDetail from './cohort-detail';

// The charts are drawn in the browser tests; here the page around them.
vi.mock('next/dynamic', () => ({ default: () => () => <div data-testid="charts" /> }));

const me = (id: string, roles: Role[]) => ({ ...aUser({ id, roles }), permissions: [] });
const cohort = aCohortDetail({
  versions: [aVersion({ version: 2, origin: 'REFRESH', query_version: 3, person_count_display: '281', created_by: STEWARD }), aVersion()],
  version: 2,
});
const COHORT_PATH = `/api/v1/cohorts/${cohort.id}/`;

function collectToasts() {
  const toasts: Toast[] = [];
  setNotifier({ show: (toast) => toasts.push(toast) });
  return toasts;
}

async function confirm(action: string) {
  await userEvent.click(await screen.findByRole('button', { name: action }));
  const popup = await screen.findByRole('tooltip');
  await userEvent.click(within(popup).getByRole('button', { name: action }));
}

afterEach(() => {
  setNotifier(null);
  vi.unstubAllGlobals();
});

describe('the cohort page', { timeout: 20_000 }, () => {
  it('shows the name, state, description, tags, facts, demographics and the version history', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me(AUTHOR.id, ['RESEARCHER']) } : { status: 404, body: { detail: 'Not found' } }));
    renderWithStore(<CohortDetail cohort={cohort} />);
    expect(screen.getByRole('heading', { level: 1, name: cohort.name })).toBeInTheDocument();
    expect(screen.getByTestId('cohort-status')).toHaveTextContent('Draft');
    expect(screen.getByText(cohort.description)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['diabetes', 'women']);
    expect(screen.getByTestId('person-count')).toHaveTextContent('273');
    const history = within(screen.getByRole('region', { name: 'Version history' }));
    const rows = history.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').slice(0, 6).map((cell) => cell.textContent))).toEqual([
      ['2', 'Refreshed', '3', '281', 'generated', STEWARD.email],
      ['1', 'Created from a run', '2', '273', 'generated', AUTHOR.email],
    ]);
  });

  it('offers its author Edit and Refresh and a link to the source query, but no status change', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me(AUTHOR.id, ['RESEARCHER']) } : { status: 404, body: { detail: 'Not found' } }));
    renderWithStore(<CohortDetail cohort={cohort} />);
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open Diabetes query in the Data Explorer' })).toHaveAttribute('href', `/data-explorer?queryId=${cohort.source_query!.id}`);
  });

  it('shows another researcher the source query by name only, and no actions', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me('1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9', ['RESEARCHER']) } : { status: 404, body: {} }));
    const { store } = renderWithStore(<CohortDetail cohort={aCohortDetail({ status: 'PUBLISHED' })} />);
    await waitFor(() => expect(store.getState().api.queries['getMe(undefined)']?.status).toBe('fulfilled'));
    expect(screen.getByText('Diabetes query (version 2)')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Data Explorer/ })).toBeNull();
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('lets a data steward publish a draft once confirmed', async () => {
    const calls = fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: me(STEWARD.id, ['DATA_STEWARD']) };
      if (method === 'PATCH' && path === COHORT_PATH) return { body: { ...cohort, status: 'PUBLISHED' } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    const toasts = collectToasts();
    renderWithStore(<CohortDetail cohort={cohort} />);
    expect(await screen.findByRole('button', { name: 'Archive' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unpublish' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Restore' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Publish this cohort?')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PATCH')).toEqual([]);
    await userEvent.click(within(screen.getByRole('tooltip')).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ status: 'PUBLISHED' }]));
    await waitFor(() => expect(toasts).toContainEqual({ type: 'success', title: 'Cohort published', description: cohort.name }));
  });

  it("shows 'Cohort Publication Error.' with the API's reason when publishing is refused", async () => {
    const detail = 'A cohort of fewer than 20 persons cannot be published.';
    fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: me(STEWARD.id, ['DATA_STEWARD']) };
      if (method === 'PATCH' && path === COHORT_PATH) return { status: 409, body: { detail } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    const toasts = collectToasts();
    renderWithStore(<CohortDetail cohort={cohort} />);
    await confirm('Publish');
    await waitFor(() => expect(toasts).toEqual([{ type: 'error', title: 'Cohort Publication Error.', description: detail, duration: 0 }]));
  });

  it('offers only Restore for an archived cohort, and says why it cannot be refreshed', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me(STEWARD.id, ['DATA_STEWARD']) } : { status: 404, body: {} }));
    renderWithStore(<CohortDetail cohort={aCohortDetail({ status: 'ARCHIVED' })} />);
    expect(await screen.findByRole('button', { name: 'Restore' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    expect(refresh).toBeDisabled();
    expect(refresh).toHaveAccessibleDescription('An archived cohort cannot be refreshed: restore it first.');
  });

  it('saves a new name, description and tags from the edit dialog', async () => {
    const calls = fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: me(AUTHOR.id, ['RESEARCHER']) };
      if (method === 'PATCH' && path === COHORT_PATH) return { body: { ...cohort, name: 'Renamed' } };
      return { status: 404, body: {} };
    });
    renderWithStore(<CohortDetail cohort={cohort} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the cohort' });
    const name = within(dialog).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, ' Renamed ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ name: 'Renamed', description: cohort.description, tags: ['diabetes', 'women'] }]),
    );
  });
});
