import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SavedQuery } from '@hdp/contract';
import { aUser, fakeApi, renderWithStore } from '@/test-support/render';
import { SavedQueries } from './saved-queries';

const saved: SavedQuery = {
  id: '5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c', name: 'Women with type 2 diabetes', description: '',
  query: { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] },
  version: 2, created_by: aUser().id, created_by_email: 'ada@example.org', created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-21T10:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('SavedQueries', { timeout: 20_000 }, () => {
  it('lists a page of saved queries newest first, searches by name, and opens a query into the explorer state', async () => {
    const calls = fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: aUser() } : { body: { queries: [saved], total: 1 } }));
    const onOpen = vi.fn();
    const { store } = renderWithStore(<SavedQueries onOpen={onOpen} />);
    await userEvent.click(await screen.findByRole('button', { name: `Open ${saved.name}` }));
    expect(store.getState().dataExplorer).toMatchObject({ queryId: saved.id, queryName: saved.name, isQueryEdited: false, isAnonymousQuery: false });
    expect(onOpen).toHaveBeenCalledWith(saved);
    const list = calls.find((c) => c.path === '/api/v1/queries/')!;
    expect(Object.fromEntries(list.query)).toEqual({ skip: '0', limit: '10', order_by: '-updated_at' });

    await userEvent.type(screen.getByLabelText('Search saved queries by name'), 'diabetes{Enter}');
    await waitFor(() => expect(calls.some((c) => c.query.get('name_search') === 'diabetes')).toBe(true));
    expect(screen.queryByLabelText('Search saved queries by owner email')).not.toBeInTheDocument();
  });

  it('lets an administrator search by the owner email', async () => {
    const calls = fakeApi(({ path }) => (path === '/api/v1/users/me/' ? { body: aUser({ roles: ['ADMIN'] }) } : { body: { queries: [], total: 0 } }));
    renderWithStore(<SavedQueries />);
    await userEvent.type(await screen.findByLabelText('Search saved queries by owner email'), 'ada@{Enter}');
    await waitFor(() => expect(calls.some((c) => c.query.get('email_search') === 'ada@')).toBe(true));
    expect(screen.getByText('No saved query matches this search.')).toBeInTheDocument();
  });
});
