import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithStore } from '@/test-support/render';
import { aWorkbenchSummary, ME } from '@/test-support/workbench-fixtures';
import WorkbenchesList from './workbenches-list';

const router = { pathname: '/workbenches', query: {} as Record<string, string | string[]>, isReady: true, replace: vi.fn(() => Promise.resolve(true)), push: vi.fn(() => Promise.resolve(true)) };
vi.mock('next/router', () => ({ useRouter: () => router }));

const mine = aWorkbenchSummary();
const provisioning = aWorkbenchSummary({ id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e', name: 'Heart failure outcomes', my_role: 'READER', state: 'PROVISIONING', member_count: 1, query_count: 0 });

beforeEach(() => {
  router.query = {};
  router.replace.mockClear();
  router.push.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('the workbenches list', { timeout: 30_000 }, () => {
  it('asks for the first 10 and shows each as a card: name, purpose, my role, members, data and provisioning state', async () => {
    const calls = fakeApi(({ path }) =>
      path === '/api/v1/workbenches/' ? { body: { workbenches: [mine, provisioning], total: 2, total_capped: false } } : { body: { ...ME } },
    );
    renderWithStore(<WorkbenchesList />);
    const cards = await screen.findByRole('list', { name: 'Workbenches' });
    expect(within(cards).getByRole('link', { name: 'Diabetes and kidneys' })).toHaveAttribute('href', `/workbenches/${mine.id}`);
    const [first, second] = within(cards).getAllByRole('listitem');
    expect(first).toHaveTextContent(mine.purpose);
    expect(first).toHaveTextContent('Your role: Owner');
    expect(first).toHaveTextContent('2 members · 1 cohort · 1 query · 0 documents');
    expect(within(first!).getByTestId('release-state')).toHaveTextContent('Ready');
    expect(second).toHaveTextContent('Your role: Reader');
    expect(within(second!).getByTestId('release-state')).toHaveTextContent('Provisioning');
    expect(screen.getByRole('status')).toHaveTextContent('2 workbenches');
    expect(Object.fromEntries(calls.find((call) => call.path === '/api/v1/workbenches/')!.query)).toEqual({ skip: '0', limit: '10' });
  });

  it('reads the search, page and view from the address bar, and writes a new search back to page 1', async () => {
    router.query = { search: 'heart', page: '2', view: 'table' };
    const calls = fakeApi(() => ({ body: { workbenches: [provisioning], total: 11, total_capped: false } }));
    renderWithStore(<WorkbenchesList />);
    expect(await screen.findByRole('link', { name: 'Heart failure outcomes' })).toBeInTheDocument();
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/v1/workbenches/')!.query.toString()).toBe('skip=10&limit=10&search=heart');
    const search = screen.getByRole('searchbox', { name: 'Search workbenches' });
    await userEvent.clear(search);
    await userEvent.type(search, 'diabetes{Enter}');
    await waitFor(() =>
      expect(router.replace).toHaveBeenLastCalledWith({ pathname: '/workbenches', query: { search: 'diabetes', view: 'table' } }, undefined, { shallow: true, scroll: false }),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Cards' }));
    expect(router.replace).toHaveBeenLastCalledWith({ pathname: '/workbenches', query: { search: 'heart', page: '2' } }, undefined, { shallow: true, scroll: false });
  });

  it('leads to "Create workbench" when the user belongs to none', async () => {
    fakeApi(() => ({ body: { workbenches: [], total: 0, total_capped: false } }));
    renderWithStore(<WorkbenchesList />);
    expect(await screen.findByText(/You are not a member of any workbench yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create workbench' }));
    expect(router.push).toHaveBeenCalledWith('/workbenches/new');
  });

  it('says when no workbench matches the search', async () => {
    router.query = { search: 'renal' };
    fakeApi(() => ({ body: { workbenches: [], total: 0, total_capped: false } }));
    renderWithStore(<WorkbenchesList />);
    expect(await screen.findByText('No workbench matches “renal”.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create workbench' })).not.toBeInTheDocument();
  });
});
