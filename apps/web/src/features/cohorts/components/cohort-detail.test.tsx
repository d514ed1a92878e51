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
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['2', 'Re-run on current data', '3', '281', 'generated', STEWARD.email, expect.any(String), 'Persons: 273 → 281.'],
      ['1', 'Created from a run', '2', '273', 'generated', AUTHOR.email, expect.any(String), 'First version.'],
    ]);
    // The definition of the version shown, in plain language, read-only.
    expect(within(screen.getByRole('region', { name: 'Definition of version 2' })).getByRole('list', { name: 'Criteria' })).toHaveTextContent('All of these:Sex is Female');
  });

  it('says when a re-run awaits review, what changed since the published version, and marks the published version', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me(STEWARD.id, ['DATA_STEWARD']) } : { status: 404, body: {} }));
    const rerun = aCohortDetail({
      status: 'PUBLISHED',
      version: 2,
      published_version: 1,
      versions: [aVersion({ version: 2, origin: 'REFRESH', created_by: STEWARD }), aVersion()],
    });
    renderWithStore(<CohortDetail cohort={rerun} />);
    const notice = screen.getByText(/awaits a data steward's review/).closest('[role="status"]')!;
    expect(notice).toHaveTextContent("Version 2 awaits a data steward's review. Researchers see version 1 until it is published.");
    expect(notice).toHaveTextContent('Nothing changed since version 1: same criteria, same dataset and the same number of persons.');
    expect(await screen.findByRole('button', { name: 'Publish version 2' })).toBeEnabled();
    const history = within(screen.getByRole('region', { name: 'Version history' }));
    expect(history.getAllByRole('row')[2]).toHaveTextContent('1Published');
  });

  it('flags a cohort below the threshold and disables Publish with the reason', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me(STEWARD.id, ['DATA_STEWARD']) } : { status: 404, body: {} }));
    renderWithStore(<CohortDetail cohort={aCohortDetail({ person_count: null, person_count_display: '< 20' })} />);
    expect(screen.getByText('Below the suppression threshold')).toBeInTheDocument();
    const publish = await screen.findByRole('button', { name: 'Publish' });
    expect(publish).toBeDisabled();
    expect(publish).toHaveAccessibleDescription(
      'Version 1 holds fewer than 20 persons, the suppression threshold, so it cannot be published: publishing it could identify people.',
    );
  });

  it('offers its author Edit and Re-run and a link to the source query, but no status change', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me(AUTHOR.id, ['RESEARCHER']) } : { status: 404, body: { detail: 'Not found' } }));
    renderWithStore(<CohortDetail cohort={cohort} />);
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Re-run on current data (new version)' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open Diabetes query in the Data Explorer' })).toHaveAttribute('href', `/data-explorer?queryId=${cohort.source_query!.id}`);
  });

  it('shows another researcher the source query by name only, and no actions', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me('1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9', ['RESEARCHER']) } : { status: 404, body: {} }));
    // Criteria are for the author and the stewards: the API sends none to others, and none is shown.
    const { store } = renderWithStore(<CohortDetail cohort={aCohortDetail({ status: 'PUBLISHED', versions: [aVersion({ definition: null })] })} />);
    await waitFor(() => expect(store.getState().api.queries['getMe(undefined)']?.status).toBe('fulfilled'));
    expect(screen.getByText('Diabetes query (version 2)')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Data Explorer/ })).toBeNull();
    expect(screen.queryAllByRole('button')).toEqual([]);
    // Criteria not kept with this version (made before they were): said so, rather than left out silently.
    expect(screen.getByRole('region', { name: /Definition/ })).toHaveTextContent('The criteria of this version were not kept');
  });

  it('lets a data steward publish a draft after the checklist, naming the version reviewed', async () => {
    const calls = fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: me(STEWARD.id, ['DATA_STEWARD']) };
      if (method === 'PATCH' && path === COHORT_PATH) return { body: { ...cohort, status: 'PUBLISHED', published_version: 2 } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    const toasts = collectToasts();
    renderWithStore(<CohortDetail cohort={cohort} />);
    expect(await screen.findByRole('button', { name: 'Archive' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unpublish' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Restore' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: `Publish version 2 of “${cohort.name}”?` });
    const checklist = within(dialog).getByRole('list', { name: 'Publication checklist' });
    expect(checklist).toHaveTextContent('Persons: 273, at or above the suppression threshold (20).');
    expect(checklist).toHaveTextContent('Dataset: generated.');
    expect(within(dialog).getByRole('list', { name: 'Criteria of version 2' })).toHaveTextContent('Sex is Female');
    const ok = within(dialog).getByRole('button', { name: 'Publish version 2' });
    expect(ok).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'I have reviewed the criteria and the demographics of version 2.' }));
    expect(calls.filter((call) => call.method === 'PATCH')).toEqual([]);
    await userEvent.click(ok);
    await waitFor(() => expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ status: 'PUBLISHED', published_version: 2 }]));
    await waitFor(() => expect(toasts).toContainEqual({ type: 'success', title: 'Cohort published', description: `${cohort.name}, version 2` }));
  });

  it("shows 'Cohort Publication Error.' with the API's reason when publishing is refused", async () => {
    const detail = "Version 2 is no longer this cohort's newest: version 3 was made since. Review version 3 and publish it instead.";
    fakeApi(({ method, path }) => {
      if (path === '/api/v1/users/me/') return { body: me(STEWARD.id, ['DATA_STEWARD']) };
      if (method === 'PATCH' && path === COHORT_PATH) return { status: 409, body: { detail } };
      return { status: 404, body: { detail: 'Not found' } };
    });
    const toasts = collectToasts();
    renderWithStore(<CohortDetail cohort={cohort} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('checkbox'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish version 2' }));
    await waitFor(() => expect(toasts).toEqual([{ type: 'error', title: 'Cohort Publication Error.', description: detail, duration: 0 }]));
  });

  it('offers only Restore for an archived cohort, and says why it cannot be refreshed', async () => {
    fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: me(STEWARD.id, ['DATA_STEWARD']) } : { status: 404, body: {} }));
    renderWithStore(<CohortDetail cohort={aCohortDetail({ status: 'ARCHIVED' })} />);
    expect(await screen.findByRole('button', { name: 'Restore' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
    const refresh = screen.getByRole('button', { name: 'Re-run on current data (new version)' });
    expect(refresh).toBeDisabled();
    expect(refresh).toHaveAccessibleDescription('An archived cohort cannot be re-run: restore it first.');
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
