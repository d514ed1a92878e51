import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser, fakeApi, renderWithStore } from '@/test-support/render';
import { aCohort } from '@/test-support/cohort-fixtures';
import CohortsList from './cohorts-list';

const router = { pathname: '/cohorts', query: {} as Record<string, string | string[]>, isReady: true, replace: vi.fn(() => Promise.resolve(true)) };
vi.mock('next/router', () => ({ useRouter: () => router }));

const published = aCohort({ id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', name: 'Published heart failure', status: 'PUBLISHED', tags: ['cardio'] });
const draft = aCohort();

function listAnswering() {
  return fakeApi(({ path }) => {
    if (path === '/api/v1/users/me/') return { body: { ...aUser(), permissions: [] } };
    if (path === '/api/v1/cohorts/') return { body: { cohorts: [published, draft], total: 2, total_capped: false, total_tags: ['cardio', 'diabetes', 'women'] } };
    return { status: 404, body: {} };
  });
}

beforeEach(() => {
  router.query = {};
  router.replace.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('the cohorts list', { timeout: 20_000 }, () => {
  it('asks for the first 12 cohorts, newest update first, and shows them as cards linking to each cohort', async () => {
    const calls = listAnswering();
    renderWithStore(<CohortsList />);
    const cards = await screen.findByRole('list', { name: 'Cohorts' });
    const link = within(cards).getByRole('link', { name: 'Published heart failure' });
    expect(link).toHaveAttribute('href', `/cohorts/${published.id}`);
    expect(within(cards).getAllByTestId('cohort-status').map((tag) => tag.textContent)).toEqual(['Published', 'Draft']);
    expect(screen.getByRole('status')).toHaveTextContent('2 cohorts');
    // Not the status filter's count of cohorts awaiting review (limit 1).
    const list = calls.find((call) => call.path === '/api/v1/cohorts/' && call.query.get('status') !== 'AWAITING_REVIEW')!;
    expect(Object.fromEntries(list.query)).toEqual({ skip: '0', limit: '12', order_by: '-updated_at' });
  });

  it('reads the filters from the address bar and sends them', async () => {
    router.query = { status: 'published', tag: ['cardio', 'women'], search: 'heart', sort: 'name', page: '2', view: 'table' };
    const calls = listAnswering();
    renderWithStore(<CohortsList />);
    expect(await screen.findByRole('link', { name: 'Published heart failure' })).toBeInTheDocument();
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Published' })).toBeChecked();
    // Not the status filter's count of cohorts awaiting review (limit 1).
    const list = calls.find((call) => call.path === '/api/v1/cohorts/' && call.query.get('status') !== 'AWAITING_REVIEW')!;
    expect(list.query.toString()).toBe('skip=12&limit=12&order_by=name&search=heart&status=PUBLISHED&tags=cardio&tags=women');
  });

  it('keeps a new status, the view and the page in the address bar, going back to page 1 on a new filter', async () => {
    router.query = { page: '3' };
    listAnswering();
    renderWithStore(<CohortsList />);
    await screen.findByRole('list', { name: 'Cohorts' });
    fireEvent.click(screen.getByRole('radio', { name: 'Draft' }));
    expect(router.replace).toHaveBeenLastCalledWith({ pathname: '/cohorts', query: { status: 'draft' } }, undefined, { shallow: true, scroll: false });
    fireEvent.click(screen.getByRole('radio', { name: 'Table' }));
    expect(router.replace).toHaveBeenLastCalledWith({ pathname: '/cohorts', query: { view: 'table', page: '3' } }, undefined, { shallow: true, scroll: false });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search cohorts' }), ' Renal {Enter}');
    await waitFor(() => expect(router.replace).toHaveBeenLastCalledWith({ pathname: '/cohorts', query: { search: 'Renal' } }, undefined, { shallow: true, scroll: false }));
  });

  it('says when no cohort matches the filters', async () => {
    router.query = { status: 'archived' };
    fakeApi(({ path }) =>
      path === '/api/v1/cohorts/' ? { body: { cohorts: [], total: 0, total_capped: false, total_tags: [] } } : { body: { ...aUser(), permissions: [] } },
    );
    renderWithStore(<CohortsList />);
    expect(await screen.findByText('No cohort matches these filters.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('0 cohorts');
  });
});
