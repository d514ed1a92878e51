import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dataset, Me } from '@hdp/contract';
import { aUser, fakeApi, renderWithStore, type RecordedCall } from '@/test-support/render';
import { aCohort } from '@/test-support/cohort-fixtures';
import { CurrentUserContext } from '@/lib/auth/current-user';
import { HomePage } from './home-page';

const dataset: Dataset = {
  loaded: true,
  source: 'synthetic: 3000 persons, seed 3',
  loaded_at: '2026-11-20T09:00:00.000Z',
  cdm_version: '5.4',
  person_count: 2998,
  person_count_display: '2998',
  suppression_threshold: 20,
  perturbed: true,
  domains: [
    { domain: 'Condition', label: 'Conditions', table: 'condition_occurrence', records: 12345, records_display: '12345' },
    { domain: 'Death', label: 'Deaths', table: 'death', records: null, records_display: '< 20' },
  ],
};

const meWith = (roles: Me['roles']): Me => ({ ...aUser({ name: 'Rosalind Franklin', roles }), permissions: [] });

function serve(me: Me, overrides: (call: RecordedCall) => { status?: number; body: unknown } | undefined = () => undefined) {
  return fakeApi((call) => {
    const special = overrides(call);
    if (special) return special;
    if (call.path === '/api/v1/users/me/') return { body: me };
    if (call.path === '/api/v1/data-explorer/dataset/') return { body: dataset };
    if (call.path === '/api/v1/queries/') return { body: { queries: [{ id: 'b6b0a3a0-1111-4c1e-9a52-7c1d2e3f4a5b', name: 'Women with diabetes', updated_at: '2026-11-21T10:00:00Z' }], total: 1 } };
    if (call.path === '/api/v1/cohorts/') return { body: { cohorts: [aCohort({ name: 'Heart cohort' })], total: 1, tags: [] } };
    if (call.path === '/api/v1/workbenches/') return { body: { workbenches: [], total: 0 } };
    return { status: 404, body: { detail: 'no' } };
  });
}

afterEach(() => vi.unstubAllGlobals());

/** The home page inside the shell's knowledge of the user, as the app renders it. */
const renderHome = (me: Me) =>
  renderWithStore(
    <CurrentUserContext.Provider value={me}>
      <HomePage />
    </CurrentUserContext.Provider>,
  );

describe('the home page', () => {
  it('shows a researcher the dataset, their recent work and what they can do next', async () => {
    const me = meWith(['RESEARCHER']);
    const calls = serve(me);
    renderHome(me);
    expect(await screen.findByRole('heading', { name: 'Welcome, Rosalind', level: 1 })).toBeInTheDocument();

    const panel = screen.getByRole('region', { name: 'The dataset' });
    expect(await within(panel).findByTestId('dataset-persons')).toHaveTextContent('2998');
    expect(within(panel).getByText('synthetic: 3000 persons, seed 3')).toBeInTheDocument();
    expect(within(panel).getByText('OMOP CDM v5.4')).toBeInTheDocument();
    const deaths = within(panel).getByRole('rowheader', { name: 'Deaths' }).closest('tr')!;
    expect(deaths).toHaveTextContent('< 20');
    expect(within(panel).getByRole('rowheader', { name: 'Conditions' }).closest('tr')).toHaveTextContent('12,345');

    const queries = screen.getByRole('region', { name: 'Your recent queries' });
    expect(await within(queries).findByRole('link', { name: 'Women with diabetes' })).toHaveAttribute('href', '/data-explorer?queryId=b6b0a3a0-1111-4c1e-9a52-7c1d2e3f4a5b');
    expect(await screen.findByRole('link', { name: 'Heart cohort' })).toBeInTheDocument();
    expect(await screen.findByText('You are not a member of any workbench yet.')).toBeInTheDocument();
    // Their own queries only, most recently edited first.
    const list = calls.find((c) => c.path === '/api/v1/queries/')!;
    expect(list.query.get('created_by')).toBe(me.id);
    expect(list.query.get('order_by')).toBe('-updated_at');

    const steps = screen.getByRole('region', { name: 'What you can do' });
    expect(within(steps).getAllByRole('link').map((l) => l.textContent)).toEqual(['Build a query', 'Browse cohorts', 'Create a workbench', 'Share a document']);
  });

  it('shows an auditor no aggregate data, only the way to the audit log', async () => {
    const auditor = meWith(['AUDITOR']);
    const calls = serve(auditor);
    renderHome(auditor);
    const steps = await screen.findByRole('region', { name: 'What you can do' });
    expect(within(steps).getByRole('link', { name: 'Review the audit log' })).toHaveAttribute('href', '/audit-log');
    expect(screen.queryByRole('region', { name: 'The dataset' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your recent queries' })).toBeNull();
    // No aggregate data is asked for: the user comes from the shell.
    expect(calls.map((c) => c.path)).toEqual([]);
  });

  it('shows a data steward the answers the tracker defence withheld; a researcher never asks for them', async () => {
    const steward = meWith(['DATA_STEWARD']);
    const withheld = {
      seq: 41,
      timestamp: '2026-11-26T10:00:00.000Z',
      actor: { id: 'u1', email: 'mallory@example.org' },
      event_type: 'DISCLOSURE_TRACKER_SUSPECTED',
      resource: { type: 'explorer', id: 'unsaved query' },
      outcome: 'DENIED',
      message: 'mallory@example.org (explorer unsaved query) was withheld: its persons differ from those of an earlier answer (explorer unsaved query) by fewer than 20',
      client_address: null,
      user_agent: null,
      request_id: null,
      details: {},
    };
    const calls = serve(steward, (call) => (call.path === '/api/v1/data-explorer/withheld-answers/' ? { body: { entries: [withheld], total: 31 } } : undefined));
    const { unmount } = renderHome(steward);
    const panel = await screen.findByRole('region', { name: 'Withheld answers' });
    expect(await within(panel).findByText('mallory@example.org')).toBeInTheDocument();
    expect(within(panel).getByText(/31 answers withheld/)).toBeInTheDocument();
    expect(within(panel).getByText(/by fewer than 20$/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/v1/data-explorer/withheld-answers/')!.query.get('limit')).toBe('5');
    unmount();
    vi.unstubAllGlobals();

    const researcher = meWith(['RESEARCHER']);
    const asked = serve(researcher);
    renderHome(researcher);
    await screen.findByRole('heading', { name: 'Welcome, Rosalind', level: 1 });
    expect(screen.queryByRole('region', { name: 'Withheld answers' })).toBeNull();
    expect(asked.map((c) => c.path)).not.toContain('/api/v1/data-explorer/withheld-answers/');
  });

  it('says when no data is loaded yet, and when the dataset cannot be read', async () => {
    serve(meWith(['RESEARCHER']), (call) => (call.path === '/api/v1/data-explorer/dataset/' ? { body: { ...dataset, loaded: false, source: null, loaded_at: null, person_count: null, person_count_display: '0', domains: [] } } : undefined));
    const { unmount } = renderHome(meWith(['RESEARCHER']));
    expect(await screen.findByText('No health data is loaded yet.')).toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    serve(meWith(['RESEARCHER']), (call) => (call.path === '/api/v1/data-explorer/dataset/' ? { status: 500, body: { detail: 'Boom' } } : undefined));
    renderHome(meWith(['RESEARCHER']));
    expect(await screen.findByText('The dataset could not be read.')).toBeInTheDocument();
  });
});
